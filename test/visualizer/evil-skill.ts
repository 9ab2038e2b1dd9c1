import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the evil agent says in public: markup that would run script if rendered as HTML. */
export const EVIL_SPEECH = ['<img src=x onerror=alert(1)>', '</script><script>alert(2)</script>'] as const;
/** What it whispers in private: a marker that must never reach an anonymous page. */
export const PRIVATE_MARKER = 'PRIVATE-WHISPER-7f3a';

/**
 * Writes a shell skill (modelled on the agent-check fixtures) that passes every window but talks:
 * both evil lines in public, and a private line carrying PRIVATE_MARKER to the first other seat.
 * Returns the folder, to seat as `skill:<folder>`.
 */
export function writeEvilSkill(root: string): string {
  const dir = join(root, 'evil-talker');
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  writeFileSync(
    join(dir, 'SKILL.md'),
    '---\nname: evil-talker\ndescription: Test agent whose speech is HTML and script tags, and who whispers a secret.\nmetadata:\n  command: sh scripts/agent.sh\n  fallback: random\n  timeout_ms: "5000"\n---\n\nSays markup in public to test that viewers render speech as text.\n',
  );
  const publicLines = EVIL_SPEECH.map((t) => `{"channel":"public","target_player_id":null,"text":${JSON.stringify(t)},"speech_act":"taunt"}`).join(',');
  writeFileSync(
    join(dir, 'scripts', 'agent.sh'),
    `# One decision per run: read the request, answer, done.
IFS= read -r REQUEST || true
OP=$(printf '%s\\n' "$REQUEST" | sed -n 's/.*"operation":"\\([a-z]*\\)".*/\\1/p')
ME=$(printf '%s\\n' "$REQUEST" | sed -n 's/.*"player_id":"\\(plr_[0-9]*\\)".*/\\1/p' | head -n 1)
OTHER=plr_1
[ "$ME" = plr_1 ] && OTHER=plr_2
TARGET=$(printf '%s\\n' "$REQUEST" | sed -n 's/.*"kind":"commit_plan","targets":\\["\\(plr_[0-9]*\\)".*/\\1/p')
case "$OP" in
  intent) D='{"tactical_intent":"build","emotional_intent":{"emotion":"fear","target_player_id":"'"$TARGET"'"}}' ;;
  talk) D='{"speech_actions":[${publicLines},{"channel":"private","target_player_id":"'"$OTHER"'","text":"${PRIVATE_MARKER}","speech_act":"neutral"}]}' ;;
  reaction) D='{}' ;;
  reflect) D='{"memory_updates":[]}' ;;
  *) D='{"selected_action":{"kind":"pass"}}' ;;
esac
printf '{"version":"0","type":"state_patch","patch":{"decision":%s}}\\n' "$D"
printf '{"version":"0","type":"done","ok":true}\\n'
`,
  );
  return dir;
}
