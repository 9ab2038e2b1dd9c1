import type { StateView } from '../game/index.js';
import type { CardRef, PlayerPrivateState, Tell, WorldState } from '../protocol/index.js';
import { EMOTIONS } from '../protocol/index.js';
import { num, table } from './format.js';
import { seatLabel as P } from './outcome-format.js';

const cards = (refs: readonly CardRef[]): string =>
  refs.length ? refs.map((c) => c.name).join(', ') : '–';

function tell(t: Tell): string {
  if (t.vector) return EMOTIONS.map((e) => `${e} ${num(t.vector![e])}`).join(' ');
  return (t.dominant ?? 'unreadable') + (t.masked ? ' (masked)' : '');
}

function worldLines(w: WorldState): string[] {
  const rows = w.players.map((p) => [
    P(p.player_id),
    p.display_name,
    p.alive ? 'alive' : 'out',
    String(p.lives),
    String(p.resolve),
    String(p.tempo),
    String(p.exposure),
    String(p.hand_count),
  ]);
  // Tells and arena cards vary in length: they follow the aligned columns instead of widening them.
  const extra = w.players.map(
    (p) =>
      `  tell ${tell(p.tell)}${p.locked_out ? ' · locked out' : ''}${p.forced_line_toward ? ` · must attack ${P(p.forced_line_toward)}` : ''} · arena ${cards(p.arena_cards)}`,
  );
  const aligned = table(
    [['seat', 'name', '', 'lives', 'resolve', 'tempo', 'exposure', 'hand'], ...rows],
    3,
  );
  const lines = ['Players', ...aligned.map((l, i) => `  ${l}${i > 0 ? extra[i - 1] : ''}`)];
  lines.push(
    `Initiative ${w.initiative_order.map(P).join(' ') || '–'} · deck ${w.arena.deck_count} · discard ${w.discard.length}`,
  );
  for (const s of w.stack) {
    const target = s.target_player_id ? ` → ${P(s.target_player_id)}` : '';
    lines.push(
      `  stack: ${P(s.player_id)} ${s.kind.replace('_', ' ')} ${s.card?.name ?? 'a face-down card'}${target}${s.reaction_card ? ` (guarded with ${s.reaction_card.name})` : ''}`,
    );
  }
  for (const x of w.round_speech) {
    const to =
      x.channel === 'private'
        ? ` → ${x.target_player_id ? P(x.target_player_id) : '?'} (private)`
        : '';
    lines.push(
      `  ${P(x.player_id)}${to}: ${x.text === null ? '(not heard)' : `"${x.text}"`}${x.speech_act ? ` [${x.speech_act}]` : ''}`,
    );
  }
  return lines;
}

function privateLines(p: PlayerPrivateState): string[] {
  const plan = p.secret_plan;
  const e = p.emotion_state;
  return [
    `Private view of ${P(p.player_id)} (${p.player_id})`,
    `  hand: ${cards(p.hand)}`,
    `  secret plan: ${plan ? plan.tactical_intent + (plan.emotional_intent ? `, ${plan.emotional_intent.emotion} → ${P(plan.emotional_intent.target_player_id)}` : '') : '–'}`,
    `  emotions: ${EMOTIONS.map((n) => `${n} ${num(e[n])}`).join(' ')}`,
    `  commitments: ${p.belief_state.commitments.map((c) => `${c.kind}${c.target_player_id ? ` → ${P(c.target_player_id)}` : ''}`).join(', ') || '–'}`,
  ];
}

/** The readable form of `replay`: the table as the viewer sees it, then the private views it may see. */
export function formatStateView(
  view: StateView,
  header: { seq: number; lastSeq: number; viewer: string },
): string {
  const w = view.world;
  const lines = [
    `Game ${w.game_id} · seq ${header.seq} of ${header.lastSeq} · round ${w.turn} · ${w.phase} · ${w.status} · seen by ${header.viewer}`,
    ...worldLines(w),
    ...view.private.flatMap(privateLines),
  ];
  return lines.join('\n') + '\n';
}
