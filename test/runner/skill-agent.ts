import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A skill folder under `root` whose agent is the shell script `script` (scripts/agent.sh), with
 * the random agent as its fallback: the hostile test agents of the runner tests. Returns the folder.
 */
export function writeSkillAgent(root: string, name: string, script: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: a hostile test agent\nmetadata:\n  command: sh scripts/agent.sh\n  fallback: random\n  timeout_ms: "60000"\n---\n`);
  writeFileSync(join(dir, 'scripts', 'agent.sh'), script);
  return dir;
}
