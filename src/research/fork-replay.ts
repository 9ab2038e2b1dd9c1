import type { SeatAgent } from '../agents/seat/types.js';
import { clonePlain } from '../game/clone.js';
import { applyEvent } from '../game/evolve.js';
import { initialState, requestFor, reseedHidden, type GameConfigInput, type GameState } from '../game/index.js';
import type { GameEvent, TurnPlanRequest } from '../protocol/index.js';
import type { RecordedDecision } from '../runner/decision-record.js';
import { continueDecisions, replayDecisions, type OnAsked } from '../runner/replay-decisions.js';
import { DivergenceError } from '../runner/runner-errors.js';
import { applyLegacyReseed, chainHead, renamedJson, type ForkLineage } from './fork-lineage.js';

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
  /** The live state after the fork point (and its reseed, unless the deck is kept): awaiting a decision. */
  state: GameState;
  /**
   * What the fork stores before it plays: the prefix under the fork's identity — the parent's
   * events 1..seq, renamed (see renamedJson) — then, with a secret, its `hidden_reseeded` at seq + 1.
   */
  events: GameEvent[];
  /** The parent's decisions before the fork point (the fork's own record of the prefix). */
  prefix: RecordedDecision[];
  /** What each seat was asked in the prefix, in order (for warmSeats). */
  asked: PrefixAsk[];
  /** The ts of the last input before the fork point: what a clock continues from. */
  lastTs: string;
};

/** A reseed during a replay: when the state is at seq `at` (awaiting a decision), `apply` it. */
type ReseedPoint = { at: number; apply: (state: GameState) => GameEvent[] };

/** A reseed the log records (an ancestor's, in a fork of a fork): evolved as it is, not recomputed. */
const recorded = (e: GameEvent): ReseedPoint => ({
  at: e.seq - 1,
  apply: (s) => {
    const copy = clonePlain(e);
    applyEvent(s, copy);
    return [copy];
  },
});

/** The reseeds `log` records at or before seq `upTo`: a fork's prefix may hold its ancestors'. */
export const recordedReseeds = (log: readonly GameEvent[], upTo: number): GameEvent[] => log.filter((e) => e.seq <= upTo && e.type === 'hidden_reseeded');

/**
 * replayDecisions with reseeds between decisions: each decision exactly where the engine asks for
 * it, and each reseed when the state reaches its seq. Decisions that run out before a reseed's seq
 * (a replay cut short, a fork branching earlier) end the replay there.
 */
function replayWithReseeds(state: GameState, startTs: string, decisions: readonly RecordedDecision[], points: readonly ReseedPoint[], onAsked?: OnAsked): GameEvent[] {
  const events = replayDecisions(state, startTs, [], onAsked);
  let rest = decisions;
  for (const p of points) {
    const k = rest.findIndex((d) => d.seq_before > p.at);
    const before = k < 0 ? rest : rest.slice(0, k);
    for (const e of continueDecisions(state, before, onAsked)) events.push(e);
    rest = rest.slice(before.length);
    if (rest.length === 0 && state.seq < p.at) return events;
    if (state.seq !== p.at) throw new DivergenceError(state.game_id, state.seq, `the decisions before the reseed at seq ${p.at + 1} replay to seq ${state.seq}, not ${p.at}`);
    for (const e of p.apply(state)) events.push(e);
  }
  for (const e of continueDecisions(state, rest, onAsked)) events.push(e);
  return events;
}

/**
 * replayDecisions for a game that may be a fork: the reseeds its prefix records (its ancestors',
 * found in `log`) as they are, then its own at the fork point with reseedHidden from its secret
 * (its event is the fork's seq + 1, as stored), between the recorded decisions; a legacy reseed is
 * applied once, outside the log, when the state first reaches the fork point. Without a lineage it
 * is replayDecisions.
 */
export function replayWithFork(state: GameState, startTs: string, decisions: readonly RecordedDecision[], fork: ForkLineage | null, onAsked?: OnAsked, log: readonly GameEvent[] = []): GameEvent[] {
  if (fork && fork.reseed === undefined) {
    const secret = fork.secret;
    const own: ReseedPoint[] = secret === undefined ? [] : [{ at: fork.seq, apply: (s) => reseedHidden(s, secret) }];
    return replayWithReseeds(state, startTs, decisions, [...recordedReseeds(log, fork.seq).map(recorded), ...own], onAsked);
  }
  let reseeded = false;
  const reseedOnce = (s: GameState) => {
    if (reseeded || !fork || s.seq < fork.seq) return;
    reseeded = true;
    applyLegacyReseed(s, fork);
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
 * DivergenceError: nothing is forked from a log the engine cannot reproduce. With `secret`, the
 * hidden state is then reseeded from it (reseedHidden); without, the fork keeps the parent's deck
 * and PRNG (an exact replay with the same agents).
 *
 * @example const plan = planFork(parent, 'game_f1', 42, 7) // plan.state awaits the decision asked at seq 42, now at 43
 */
export function planFork(parent: ParentGame, forkId: string, seq: number, secret?: number): ForkPlan {
  const config = { ...parent.config, game_id: forkId };
  const prefix = parent.decisions.filter((d) => d.seq_before < seq);
  const state = initialState(config, parent.seed);
  const first = parent.log[0];
  if (!first || parent.log.length < seq) throw new DivergenceError(parent.game_id, seq, `the log holds ${parent.log.length} events, the fork point is seq ${seq}`);
  const asked: PrefixAsk[] = [];
  // Requests are views of a state that moves on: each is copied when asked.
  // The parent's own reseeds (a fork of a fork) replay as its log records them, under the fork's id.
  const reseeds = recordedReseeds(parent.log, seq).map((e) => recorded(JSON.parse(renamedJson(e, parent.game_id, forkId)) as GameEvent));
  const events = replayWithReseeds(state, first.ts, prefix, reseeds, (s, player) => asked.push({ player, request: structuredClone(requestFor(s, player)) }));
  const shared = parent.log.slice(0, seq);
  for (let i = 0; i < Math.max(events.length, shared.length); i++) {
    const [mine, theirs] = [events[i], shared[i]];
    if (!mine || !theirs || renamedJson(mine, forkId, parent.game_id) !== JSON.stringify(theirs))
      throw new DivergenceError(parent.game_id, i + 1, mine && theirs ? 'the recorded decisions replay to another event than the log holds' : `the decisions before seq ${seq} replay to ${events.length} events, not ${seq}`);
  }
  const lineage: ForkLineage = { parent_game_id: parent.game_id, seq, parent_hash: chainHead(shared), ...(secret !== undefined ? { secret } : {}) };
  if (secret !== undefined) for (const e of reseedHidden(state, secret)) events.push(e);
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
