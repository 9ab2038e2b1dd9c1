import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createAgent } from '../../src/agents/builtin/index.js';
import {
  awaiting,
  initialState,
  requestFor,
  stepInPlace,
  type GameConfigInput,
  type GameState,
} from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';
import { logicalClock } from '../../src/runner/clock.js';
import { openStore, type EventStore, type OpenStoreOptions } from '../../src/store/index.js';

/** One engine step: the log's seq before it, the events it emitted, the state right after. */
export type Step = { expected: number; events: GameEvent[]; state: GameState };
export type Played = {
  gameId: string;
  seed: number;
  config: GameConfigInput;
  steps: Step[];
  events: GameEvent[];
  final: GameState;
};

let unique = 0;
/** A game id no other test in this process uses. */
export const freshGameId = (tag: string): string =>
  `game_${tag}_${process.pid}_${Date.now().toString(36)}_${unique++}`;

/**
 * Plays a game with random agents step by step, as a runner would, keeping a copy of the state
 * after every step.
 */
export function playGame(
  seed: number,
  options: { seats?: number; rules?: GameConfigInput['rules']; tag?: string } = {},
): Played {
  const config: GameConfigInput = {
    game_id: freshGameId(options.tag ?? 'g'),
    seats: options.seats ?? 4,
    ...(options.rules ? { rules: options.rules } : {}),
  };
  const state = initialState(config, seed);
  const seats = state.seat_configs.length;
  const agents = Array.from({ length: seats }, (_, i) => createAgent('random', seed, i));
  const clock = logicalClock();
  const steps: Step[] = [];
  let res = stepInPlace(state, { type: 'start', ts: clock() });
  for (;;) {
    if (!res.ok) throw new Error(`engine refused: ${res.rejection.message}`);
    steps.push({
      expected: state.seq - res.events.length,
      events: res.events,
      state: structuredClone(state),
    });
    const next = awaiting(state);
    if (!next) break;
    const seat = next.seats[0]!;
    const decision = agents[Number(seat.slice(4)) - 1]!.decide(requestFor(state, seat));
    res = stepInPlace(state, {
      type: 'decision',
      player_id: seat,
      window: next.window,
      decision,
      ts: clock(),
    });
  }
  return {
    gameId: config.game_id!,
    seed,
    config,
    steps,
    events: steps.flatMap((s) => s.events),
    final: state,
  };
}

/** Registers a played game and appends it step by step (the state passed along, as a runner does). */
export async function persist(
  store: EventStore,
  game: Played,
  options: { passState?: boolean } = {},
): Promise<void> {
  await store.createGame({ seed: game.seed, config: game.config });
  for (const s of game.steps)
    await store.append(
      game.gameId,
      s.expected,
      s.events,
      options.passState === false ? {} : { state: s.state },
    );
}

/** A store and how to dispose of it (and its database). */
export type TestStore = { store: EventStore; dispose: () => Promise<void> };

/** A store on a fresh in-memory PGlite. */
export async function openPgliteStore(options: OpenStoreOptions = {}): Promise<TestStore> {
  const store = await openStore({ ...options, dataDir: 'memory://' });
  return { store, dispose: () => store.close() };
}

/** The server the Postgres half of the suite runs on; override with TILTYARD_TEST_PG. */
export const ADMIN_URL =
  process.env['TILTYARD_TEST_PG'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Whether a PostgreSQL server answers at ADMIN_URL (within 2 s). */
export async function postgresAvailable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/** An empty database `tiltyard_test_<random>`: its URL, its name, the admin connection, and drop(). */
export async function freshDatabase(): Promise<{ url: string; name: string; admin: pg.Client; drop: () => Promise<void> }> {
  const name = `tiltyard_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    admin,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** A store on a fresh database `tiltyard_test_<random>`, dropped by dispose(). */
export async function openPostgresStore(
  options: OpenStoreOptions = {},
): Promise<TestStore & { url: string }> {
  const db = await freshDatabase();
  const store = await openStore({ ...options, databaseUrl: db.url });
  return {
    store,
    url: db.url,
    async dispose() {
      await store.close();
      await db.drop();
    },
  };
}

/** Flips one byte (xor 0x5a) of a cold segment's data at a 1-based position; applying it twice restores it. */
export function flipSegmentByte(store: EventStore, gameId: string, firstSeq: number, pos: number): Promise<number> {
  return store.prisma.$executeRawUnsafe(
    `UPDATE cold_segments SET data = overlay(data PLACING set_byte('\\x00'::bytea, 0, get_byte(data, $3 - 1) # 90) FROM $3 FOR 1)
      WHERE game_id = $1 AND first_seq = $2`,
    gameId,
    firstSeq,
    pos,
  );
}
