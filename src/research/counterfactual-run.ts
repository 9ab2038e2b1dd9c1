import type { EventStore, GameRecord } from '../store/index.js';
import { InvalidInputError } from '../store/index.js';
import { logicalInputClock } from '../runner/input-clock.js';
import { resumePersistent } from '../runner/persistent-runner.js';
import { readLog, seatAgentNames } from '../runner/stored-game.js';
import { RunnerError } from '../runner/runner-errors.js';
import { inMemoryRuns, playRuns, type PlayRun } from './counterfactual.js';
import { counterfactualReport, type CounterfactualReport } from './counterfactual-report.js';
import { forkGame, readParent } from './fork-game.js';
import { forkPoint, describeAt, type ForkAt } from './fork-point.js';
import { planFork } from './fork-replay.js';
import { outcomeOf } from './outcome.js';

export type CounterfactualSpec = {
  at: ForkAt;
  /** The agents after the fork, per seat (default: the parent's). */
  agents?: readonly string[];
  runs: number;
  reseedFrom: number;
  /** Runs played at once (default 4). */
  concurrency?: number;
  /** Store every run as a fork (tiltyard fork) instead of playing it in memory. */
  store?: boolean;
  onProgress?: (done: number, total: number) => void;
};

/** A stored run: forkGame then resumePersistent (logical clock), its outcome read back from the store. */
function storedRuns(store: EventStore, parent: GameRecord, spec: CounterfactualSpec, agents: readonly string[]): PlayRun {
  return async (_run, reseed) => {
    const fork = await forkGame(store, parent.game_id, { at: spec.at, agents, reseed });
    await resumePersistent(store, fork.game_id, { clock: logicalInputClock });
    const outcome = outcomeOf(await readLog(store, fork.game_id));
    if (!outcome) throw new RunnerError(`counterfactual fork ${fork.game_id} did not end`);
    return { outcome, game_id: fork.game_id };
  };
}

/**
 * `tiltyard counterfactual`: N forks of a stored game at one decision point (run k reseeded with
 * reseedFrom + k), played in memory unless `store`, summarised beside the original's outcome
 * (counterfactualReport). Deterministic for deterministic agents: the same game, point, agents
 * and seeds give the same report.
 *
 * @example const report = await runCounterfactual(store, 'game_ab12', { at: { seq: 120 }, runs: 50, reseedFrom: 1 })
 */
export async function runCounterfactual(store: EventStore, parentId: string, spec: CounterfactualSpec): Promise<CounterfactualReport> {
  const parent = await store.getGame(parentId);
  const agents = spec.agents ? [...spec.agents] : seatAgentNames(parent);
  if (agents.length !== parent.seats.length) throw new InvalidInputError(`the game has ${parent.seats.length} seats, --agents names ${agents.length}`);
  const game = await readParent(store, parent);
  const seq = forkPoint(spec.at, game.log, game.decisions);
  if (seq === null) throw new InvalidInputError(`game ${parentId} records no decision at or after ${describeAt(spec.at)}`);
  const plan = planFork(game, 'game_counterfactual', seq);
  const play = spec.store ? storedRuns(store, parent, spec, agents) : inMemoryRuns(plan, agents);
  const results = await playRuns(play, spec.runs, spec.reseedFrom, spec.concurrency ?? 4, spec.onProgress);
  const ctx = { parent_game_id: parentId, at: { seq, round: plan.state.turn }, agents, runs: spec.runs, reseed_from: spec.reseedFrom };
  return counterfactualReport(ctx, outcomeOf(game.log), results);
}
