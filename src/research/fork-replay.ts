import type { SeatAgent } from '../agents/seat/types.js';
import { initialState, requestFor, type GameConfigInput, type GameState } from '../game/index.js';
import type { GameEvent, TurnPlanRequest } from '../protocol/index.js';
import type { RecordedDecision } from '../runner/decision-record.js';
import { replayDecisions, type OnAsked } from '../runner/replay-decisions.js';
import { DivergenceError } from '../runner/runner-errors.js';
import { applyReseed, chainHead, renamedJson, type ForkLineage } from './fork-lineage.js';

/** A stored game as a fork reads it: its identity, seed, pinned config, log and decisions. */
export type ParentGame = {
  game_id: string;
  seed: number;
  config: GameConfigInput;
  log: readonly GameEvent[];
  decisions: readonly RecordedDecision[];
};

/** One request a seat was asked in the shared prefix, kept for warming a fork's seats. */
export type PrefixAsk = { player: string; request: TurnPlanRequest };

/** A fork ready to play on: its config, its state at the fork point (reseeded), its prefix. */
export type ForkPlan = {
  lineage: ForkLineage;
  config: GameConfigInput;
  /** The live state at the fork point, reseeded when the fork asks for it: awaiting a decision. */
  state: GameState;
  /** The prefix under the fork's identity: the parent's events 1..seq, renamed (see renamedJson). */
  events: GameEvent[];
  /** The parent's decisions before the fork point (the fork's own record of the prefix). */
  prefix: RecordedDecision[];
  /** What each seat was asked in the prefix, in order (for warmSeats). */
  asked: PrefixAsk[];
  /** The ts of the last input before the fork point: what a clock continues from. */
  lastTs: string;
};

/**
 * replayDecisions for a game that may be a fork: the fork's reseed is applied once, when the
 * state first reaches the fork point (before the decision asked there), as it was when the fork
 * was made. Without a lineage it is replayDecisions.
 */
export function replayWithFork(state: GameState, startTs: string, decisions: readonly RecordedDecision[], fork: ForkLineage | null, onAsked?: OnAsked): GameEvent[] {
  let reseeded = false;
  const reseedOnce = (s: GameState) => {
    if (reseeded || !fork || s.seq < fork.seq) return;
    reseeded = true;
    applyReseed(s, fork);
  };
  const events = replayDecisions(state, startTs, decisions, (s, seat, window, d) => {
    reseedOnce(s);
    onAsked?.(s, seat, window, d);
  });
  reseedOnce(state);
  return events;
}

/**
 * Plans a fork of `parent` at `seq` (a decision point: see forkPoint) under `forkId`: re-simulates
 * the parent's decisions before it from the seed with the fork's identity, and checks that the
 * result is the parent's log 1..seq byte for byte once read under the parent's identity — so the
 * prefix chains to the parent's hash at seq. A parent that does not re-simulate is a
 * DivergenceError: nothing is forked from a log the engine cannot reproduce.
 *
 * @example const plan = planFork(parent, 'game_f1', 42, 7) // plan.state awaits the decision at seq 42
 */
export function planFork(parent: ParentGame, forkId: string, seq: number, reseed?: number): ForkPlan {
  const config = { ...parent.config, game_id: forkId };
  const prefix = parent.decisions.filter((d) => d.seq_before < seq);
  const state = initialState(config, parent.seed);
  const first = parent.log[0];
  if (!first || parent.log.length < seq) throw new DivergenceError(parent.game_id, seq, `the log holds ${parent.log.length} events, the fork point is seq ${seq}`);
  const asked: PrefixAsk[] = [];
  // Requests are views of a state that moves on: each is copied when asked.
  const events = replayDecisions(state, first.ts, prefix, (s, player) => asked.push({ player, request: structuredClone(requestFor(s, player)) }));
  const shared = parent.log.slice(0, seq);
  for (let i = 0; i < Math.max(events.length, shared.length); i++) {
    const [mine, theirs] = [events[i], shared[i]];
    if (!mine || !theirs || renamedJson(mine, forkId, parent.game_id) !== JSON.stringify(theirs))
      throw new DivergenceError(parent.game_id, i + 1, mine && theirs ? 'the recorded decisions replay to another event than the log holds' : `the decisions before seq ${seq} replay to ${events.length} events, not ${seq}`);
  }
  const lineage: ForkLineage = { parent_game_id: parent.game_id, seq, parent_hash: chainHead(shared), ...(reseed !== undefined ? { reseed } : {}) };
  applyReseed(state, lineage);
  return { lineage, config, state, events, prefix, asked, lastTs: prefix[prefix.length - 1]?.ts ?? first.ts };
}

/**
 * Brings a fork's deterministic seats (built-ins) to where they would be had they sat through the
 * prefix: each is asked again every request its seat got there, and its answers are dropped (the
 * prefix's decisions were someone else's, or the same and already recorded). Other seats start
 * fresh: asking an LLM the whole prefix again would cost what the fork is meant to save.
 */
export async function warmSeats(seats: readonly SeatAgent[], asked: readonly PrefixAsk[]): Promise<void> {
  for (const a of asked) {
    const seat = seats[Number(a.player.slice(4)) - 1];
    if (seat?.replayable) await seat.decide(a.request);
  }
}
