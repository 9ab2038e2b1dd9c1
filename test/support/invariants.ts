/**
 * State and log invariants the property tests check after every step. Each returns the list of
 * violations (empty when all hold) so a failing property prints what broke.
 */
import type { GameEvent } from '../../src/protocol/index.js';
import { EMOTIONS } from '../../src/protocol/index.js';
import { CATALOG_SIZE, allCardLocations, type GameState } from '../../src/game/index.js';

const inRange = (x: number, lo: number, hi: number) => Number.isFinite(x) && x >= lo && x <= hi;

/** Counters in range, emotions/trust in [−1, 1], grievance in [0, 1], every card in exactly one place. */
export function stateViolations(state: GameState): string[] {
  const out: string[] = [];
  const r = state.rules;
  for (const p of state.players) {
    const who = p.player_id;
    if (!Number.isInteger(p.tempo) || !inRange(p.tempo, 0, r.tempo_cap)) out.push(`${who} tempo ${p.tempo}`);
    if (!Number.isInteger(p.exposure) || !inRange(p.exposure, 0, r.exposure_cap)) out.push(`${who} exposure ${p.exposure}`);
    if (!Number.isInteger(p.lives) || !inRange(p.lives, 0, r.lives)) out.push(`${who} lives ${p.lives}`);
    if (!Number.isInteger(p.resolve)) out.push(`${who} resolve ${p.resolve}`);
    if (p.alive !== p.lives > 0) out.push(`${who} alive=${p.alive} with ${p.lives} lives`);
    for (const e of EMOTIONS) if (!inRange(p.emotions[e], -1, 1)) out.push(`${who} ${e} ${p.emotions[e]}`);
    for (const [o, t] of Object.entries(p.trust)) if (!inRange(t, -1, 1)) out.push(`${who} trust→${o} ${t}`);
    for (const [o, g] of Object.entries(p.grievance)) if (!inRange(g, 0, 1)) out.push(`${who} grievance→${o} ${g}`);
    if (!p.alive && (p.hand.length > 0 || state.arena.some((a) => a.owner === who))) out.push(`${who} is out but holds cards`);
  }
  if (state.status !== 'setup') {
    const ids = allCardLocations(state);
    if (ids.length !== CATALOG_SIZE) out.push(`${ids.length} card locations, not ${CATALOG_SIZE}`);
    if (new Set(ids).size !== ids.length) out.push('a card is in two places');
    const known = new Set(Object.keys(state.cards));
    if (known.size !== CATALOG_SIZE || ids.some((c) => !known.has(c))) out.push('a card id outside the dealt 120');
  }
  return out;
}

const ACTING: ReadonlySet<string> = new Set(['action_submitted', 'speech_posted', 'secret_plan_committed', 'talk_finished', 'reaction_submitted', 'reflection_recorded']);

/** Tracks eliminations across a log and reports any decision event by a seat already out. */
export function deadSeatWatcher(): (events: readonly GameEvent[]) => string[] {
  const out = new Set<string>();
  return (events) => {
    const bad: string[] = [];
    for (const e of events) {
      const actor = (e.payload as { player_id?: string }).player_id;
      if (ACTING.has(e.type) && actor && out.has(actor)) bad.push(`${e.type} by eliminated ${actor} (seq ${e.seq})`);
      if (e.type === 'player_eliminated') out.add(e.payload.player_id);
    }
    return bad;
  };
}
