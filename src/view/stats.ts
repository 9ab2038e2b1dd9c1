import type { GameEvent } from '../protocol/index.js';
import { RulesConfig } from '../game/rules.js';

/** Lives and resolve per seat over the game, as aligned columns (x = seq) a chart draws directly. */
export type StatSeries = { seqs: number[]; lives: Record<string, number[]>; resolve: Record<string, number[]> };

type Start = readonly { player_id: string; lives: number; resolve: number }[];

/**
 * Every seat's lives and resolve after each event that moved one (public counters: the same for
 * every view). They start at the rules' values on game_started, or at `start` (the snapshot's
 * table) for a view whose events begin after the deal; resolve moves by the tactical effects'
 * deltas and upkeep's drift, and both are set by a life lost.
 *
 * @example const s = statSeries(events); s.resolve['plr_1'][s.seqs.indexOf(120)]
 */
export function statSeries(events: readonly GameEvent[], start?: Start, startSeq = 0): StatSeries {
  const lives = new Map<string, number>();
  const resolve = new Map<string, number>();
  const out: StatSeries = { seqs: [], lives: {}, resolve: {} };
  const record = (seq: number) => {
    out.seqs.push(seq);
    for (const [id, v] of lives) (out.lives[id] ??= []).push(v);
    for (const [id, v] of resolve) (out.resolve[id] ??= []).push(v);
  };
  for (const s of start ?? []) {
    lives.set(s.player_id, s.lives);
    resolve.set(s.player_id, s.resolve);
  }
  if (lives.size) record(startSeq);
  const add = (delta: Readonly<Record<string, number>> | undefined) => {
    let moved = false;
    for (const [id, d] of Object.entries(delta ?? {})) {
      if (!d || !resolve.has(id)) continue;
      resolve.set(id, resolve.get(id)! + d);
      moved = true;
    }
    return moved;
  };
  for (const e of events) {
    let moved = false;
    switch (e.type) {
      case 'game_started': {
        const rules = RulesConfig.parse(e.payload.rules);
        for (const s of e.payload.players) {
          lives.set(s.player_id, rules.lives);
          resolve.set(s.player_id, rules.resolve_baseline);
        }
        moved = true;
        break;
      }
      case 'upkeep_applied':
        moved = add(e.payload.resolve_delta);
        break;
      case 'action_resolved':
      case 'ritual_fired':
      case 'ledger_settled':
        moved = add(e.payload.tactical_effect.resolve_delta);
        break;
      case 'life_lost':
        lives.set(e.payload.player_id, e.payload.lives_left);
        resolve.set(e.payload.player_id, e.payload.resolve_after);
        moved = true;
        break;
      default:
    }
    if (moved) {
      // One point per seq: a column set twice at the same seq keeps its last values.
      if (out.seqs.at(-1) === e.seq) {
        out.seqs.pop();
        for (const k of Object.keys(out.lives)) out.lives[k]!.pop();
        for (const k of Object.keys(out.resolve)) out.resolve[k]!.pop();
      }
      record(e.seq);
    }
  }
  return out;
}
