import type { GameConfigInput } from '../game/index.js';
import type { Placement } from '../protocol/index.js';
import { INPUT_CLOCKS, type InputClockName } from '../runner/input-clock.js';
import { buildSeats } from '../runner/lineup.js';
import { prepareWholeGame, type PreparedGame } from '../store/append-game.js';
import { playWholeGame } from './whole-game.js';

/** One deterministic game to play and prepare for storing: plain data, so it can cross to a worker thread. */
export type WholeGameJob = {
  game_id: string;
  config: GameConfigInput;
  seed: number;
  agents: string[];
  /** A named clock: a function cannot be posted to a worker. */
  clock: InputClockName;
  snapshotEvery: number;
  /** Prepare the ended game in its cold form (the store's compactsWholeGames). */
  cold: boolean;
};

export type WholeGameDone = { prepared: PreparedGame; placements: Placement[] };

/**
 * Plays a game of deterministic seats in memory and prepares it for appendPrepared (hashes,
 * rows, snapshots, decisions): all of storing a whole game that needs no database.
 */
export async function playAndPrepare(job: WholeGameJob): Promise<WholeGameDone> {
  const seats = buildSeats(job.agents, job.seed);
  let whole;
  try {
    whole = await playWholeGame(job.config, job.seed, seats, INPUT_CLOCKS[job.clock], job.snapshotEvery);
  } finally {
    await Promise.all(seats.map((s) => s.close()));
  }
  return { prepared: prepareWholeGame(job.game_id, whole, { cold: job.cold }), placements: whole.state.placements ?? [] };
}
