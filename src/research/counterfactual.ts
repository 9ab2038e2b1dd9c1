import { clonePlain } from '../game/clone.js';
import { reseedHidden } from '../game/index.js';
import { buildSeats } from '../runner/lineup.js';
import { RunnerError } from '../runner/runner-errors.js';
import { seatSeed } from './fork-lineage.js';
import { warmSeats, type ForkPlan } from './fork-replay.js';
import { outcomeOf, type GameOutcome } from './outcome.js';
import { playOn } from './play-on.js';

/** One counterfactual run: the k-th fork, reseeded with reseed_from + k. */
export type RunResult = { run: number; reseed: number; game_id: string | null; outcome: GameOutcome };

/** Plays the run reseeded with `reseed` and says how it ended (and where it is stored, if it is). */
export type PlayRun = (run: number, reseed: number) => Promise<{ outcome: GameOutcome; game_id: string | null }>;

/**
 * A PlayRun in memory: each run is a fork with `reseed` for its secret, as a stored run is: fresh
 * seats seeded from it (seatSeed), warmed through the prefix (warmSeats), a copy of the
 * fork-point state (`plan` is planned without a secret) reseeded (reseedHidden), played to the end
 * with the logical clock. The outcome covers the whole game: the prefix's events (the plan's) then
 * the run's.
 */
export function inMemoryRuns(plan: ForkPlan, agents: readonly string[]): PlayRun {
  return async (_run, reseed) => {
    const seats = buildSeats(agents, seatSeed(plan.state.seed, { secret: reseed }), { trace: false });
    try {
      // Each run asks its own copies: an agent may keep what it is handed.
      await warmSeats(seats, plan.asked.map((a) => ({ player: a.player, request: structuredClone(a.request) })));
      const state = clonePlain(plan.state);
      const reseeded = reseedHidden(state, reseed);
      const events = await playOn(state, seats, plan.lastTs);
      const outcome = outcomeOf([...plan.events, ...reseeded, ...events]);
      if (!outcome) throw new RunnerError(`counterfactual run ended without game_ended`);
      return { outcome, game_id: null };
    } finally {
      await Promise.all(seats.map((s) => s.close().catch(() => undefined)));
    }
  };
}

/**
 * Plays runs 0..runs-1 (run k reseeded with reseedFrom + k), at most `concurrency` at once,
 * calling `onDone` as each finishes. Results come back in run order whatever order they finished
 * in, so the same seeds give the same list.
 */
export async function playRuns(play: PlayRun, runs: number, reseedFrom: number, concurrency: number, onDone?: (done: number, total: number) => void): Promise<RunResult[]> {
  const results = new Array<RunResult>(runs);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let k = next++; k < runs; k = next++) {
      const { outcome, game_id } = await play(k, reseedFrom + k);
      results[k] = { run: k, reseed: reseedFrom + k, game_id, outcome };
      onDone?.(++done, runs);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, runs)) }, worker));
  return results;
}
