import { fold, initialState, type GameState } from '../game/index.js';
import type { GameEvent } from '../protocol/index.js';
import { IntegrityError, stateHash, type EventStore, type GameRecord } from '../store/index.js';
import { applyLegacyReseed, chainHead, forkOf, renamedJson, type ForkLineage } from '../research/fork-lineage.js';
import { replayWithFork } from '../research/fork-replay.js';
import { resimulate } from './replay-decisions.js';
import { configOf, readDecisions, readLog } from './stored-game.js';

/** One check of a RunReport (seed 004). */
export type Assertion = { name: string; status: 'pass' | 'fail'; details: string };

/** Seed 004's RunReport, keyed by game instead of session. */
export type RunReport = {
  game_id: string;
  scenario: string;
  start_ts: string;
  end_ts: string;
  events_checked: number;
  assertions: Assertion[];
  /** Where the report (the run's artifact) is written. */
  artifacts_path: string;
};

/** A failed check; its message is the assertion's details. */
class Failed extends Error {}

/** Runs one check: its details when it passes; any error (a corrupt row included) fails it. */
async function check(name: string, fn: () => string | Promise<string>): Promise<Assertion> {
  try {
    return { name, status: 'pass', details: await fn() };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return {
      name,
      status: 'fail',
      details: e instanceof Failed ? message : `cannot check: ${message.split('\n')[0]}`,
    };
  }
}

function contiguous(game: GameRecord, log: readonly GameEvent[]): string {
  const gap = log.findIndex((e, i) => e.seq !== i + 1);
  if (gap >= 0) throw new Failed(`the event after seq ${gap} has seq ${log[gap]!.seq}`);
  if (log.length !== game.last_seq)
    throw new Failed(`the log holds seqs 1–${log.length}, the game's head says ${game.last_seq}`);
  return `seqs 1–${log.length}, matching the game's head`;
}

async function snapshotsFold(
  store: EventStore,
  game: GameRecord,
  log: readonly GameEvent[],
): Promise<string> {
  const snaps = await store.prisma.snapshot.findMany({
    where: { gameId: game.game_id },
    orderBy: { seq: 'asc' },
    select: { seq: true, state: true, stateHash: true },
  });
  if (snaps.length === 0) throw new Failed('no snapshot stored (not even the seq-0 one)');
  let state = initialState(configOf(game), game.seed);
  // A legacy fork's live state took its reseed at the fork point, which no event records: fold to
  // there, reseed. (A fork's secret reseed is an event, folded like any.)
  const fork = forkOf(game);
  let reseeded = fork?.reseed === undefined;
  for (const s of snaps) {
    if (!reseeded && fork && s.seq >= fork.seq) {
      state = fold(state, log.filter((e) => e.seq > state.seq && e.seq <= fork.seq));
      applyLegacyReseed(state, fork);
      reseeded = true;
    }
    if (s.seq > log.length)
      throw new Failed(`snapshot at seq ${s.seq} lies past the log (${log.length} events)`);
    // Snapshots ascend: fold only the events since the previous one.
    state = fold(
      state,
      log.filter((e) => e.seq > state.seq && e.seq <= s.seq),
    );
    if (stateHash(s.state as GameState) !== s.stateHash)
      throw new Failed(
        `snapshot at seq ${s.seq}: its state does not hash to its recorded state_hash`,
      );
    const folded = stateHash(state);
    if (folded !== s.stateHash)
      throw new Failed(
        `snapshot at seq ${s.seq}: state_hash ${s.stateHash.slice(0, 12)}…, the fold of events 1–${s.seq} gives ${folded.slice(0, 12)}…`,
      );
  }
  return `${snaps.length} snapshots (seqs ${snaps.map((s) => s.seq).join(', ')}) equal the fold of the events before them`;
}

async function resimulates(
  store: EventStore,
  game: GameRecord,
  log: readonly GameEvent[],
): Promise<string> {
  const decisions = await readDecisions(store, game.game_id);
  const fork = forkOf(game);
  const { events } = fork && log[0]
    ? { events: replayWithFork(initialState(configOf(game), game.seed), log[0].ts, decisions, fork, undefined, log) }
    : resimulate(game.seed, configOf(game), log[0]?.ts, decisions);
  for (let i = 0; i < Math.max(events.length, log.length); i++) {
    const [mine, stored] = [events[i], log[i]];
    if (!mine || !stored)
      throw new Failed(`re-simulation gives ${events.length} events, the log holds ${log.length}`);
    if (JSON.stringify(mine) !== JSON.stringify(stored))
      throw new Failed(
        `first difference at seq ${stored.seq} (${stored.type}): re-simulation gives ${mine.type} with other content`,
      );
  }
  return `${events.length} events from the seed and ${decisions.length} recorded decisions, byte-identical to the log`;
}

/**
 * A fork's shared prefix: its events 1..seq, read under the parent's identity, equal the parent's
 * byte for byte, and chain to the parent hash the fork recorded (so a parent edited since shows).
 */
async function forkPrefix(store: EventStore, gameId: string, fork: ForkLineage, log: readonly GameEvent[]): Promise<string> {
  const parent = (await readLog(store, fork.parent_game_id)).slice(0, fork.seq);
  if (parent.length < fork.seq) throw new Failed(`the parent ${fork.parent_game_id} holds ${parent.length} events, the fork point is seq ${fork.seq}`);
  const i = parent.findIndex((e, k) => !log[k] || renamedJson(log[k], gameId, fork.parent_game_id) !== JSON.stringify(e));
  if (i >= 0) throw new Failed(`first difference from the parent at seq ${i + 1}`);
  const head = chainHead(parent);
  if (head !== fork.parent_hash) throw new Failed(`the parent's chain at seq ${fork.seq} is ${head.slice(0, 12)}…, the fork recorded ${fork.parent_hash.slice(0, 12)}…`);
  return `seqs 1–${fork.seq} equal ${fork.parent_game_id}'s byte for byte (read under its id) and chain to its hash ${head.slice(0, 12)}…`;
}

/**
 * Checks a stored game end to end, without calling any agent: the hash chain, a contiguous seq,
 * every snapshot against the fold of the events up to it, and a re-simulation from the seed and
 * the recorded decisions against the log, byte for byte; a fork's prefix against its parent too.
 * Unknown games throw GameNotFoundError;
 * everything else is reported as a failed assertion.
 *
 * @example const { assertions } = await verifyGame(store, id); assertions.every((a) => a.status === 'pass')
 */
export async function verifyGame(
  store: EventStore,
  gameId: string,
  onStage?: (stage: string) => void,
): Promise<{ events_checked: number; assertions: Assertion[] }> {
  const game = await store.getGame(gameId);
  onStage?.(`reading ${game.last_seq} events`);
  // A log that fails its integrity check on read is what verify is for: the chain check below
  // walks it from genesis and names the seq; the checks that need its events say they cannot run.
  let unreadable: IntegrityError | null = null;
  const log = await readLog(store, gameId).catch((e: unknown) => {
    if (!(e instanceof IntegrityError)) throw e;
    unreadable = e;
    return [];
  });
  const fork = forkOf(game);
  const stages = fork ? 5 : 4;
  const step = (name: string, i: number, fn: () => string | Promise<string>) => {
    onStage?.(`${i}/${stages} ${name}`);
    return check(name, () => {
      if (unreadable && i > 1) throw unreadable;
      return fn();
    });
  };
  const assertions = [
    await step('hash chain intact', 1, async () => {
      const bad = await store.verifyChain(gameId);
      if (bad !== null)
        throw new Failed(
          `the link at seq ${bad} does not verify (edited, missing or reordered event)`,
        );
      return `${log.length} links from the genesis hash to the game's head`;
    }),
    await step('seq contiguous from 1', 2, () => contiguous(game, log)),
    await step('snapshots equal the fold of the events', 3, () => snapshotsFold(store, game, log)),
    await step('re-simulation reproduces the log', 4, () => resimulates(store, game, log)),
    ...(fork ? [await step('fork prefix equals the parent', 5, () => forkPrefix(store, gameId, fork, log))] : []),
  ];
  return { events_checked: log.length, assertions };
}

/**
 * verifyGame as a RunReport (seed 004), timed; where it is kept (`artifacts_path`) is the caller's.
 *
 * @example writeReport(await verifyReport(store, id))
 */
export async function verifyReport(store: EventStore, gameId: string, onStage?: (stage: string) => void): Promise<Omit<RunReport, 'artifacts_path'>> {
  const start_ts = new Date().toISOString();
  const { events_checked, assertions } = await verifyGame(store, gameId, onStage);
  return { game_id: gameId, scenario: 'verify', start_ts, end_ts: new Date().toISOString(), events_checked, assertions };
}
