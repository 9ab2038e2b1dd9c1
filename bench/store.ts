/**
 * Event-store throughput and replay latency. Plays games with the engine first (no I/O), then:
 * - durable append throughput, one append per engine step (1–20 events each), through the store
 *   on the embedded PGlite (a file-backed data dir) and on PostgreSQL (a fresh database);
 * - in the same run, raw `pg` multi-row INSERTs of the same rows (one statement per step, one
 *   commit each) into scratch tables: one shaped like `events` (same keys and indexes) and a
 *   plain one; and the same through PGlite's own client;
 * - stateAt at random seqs of a ~1,000-event game on PostgreSQL: median and p95 ms.
 * Prints one JSON object. Needs PostgreSQL at $BENCH_DATABASE_URL (default
 * postgresql://postgres@127.0.0.1:5432/postgres) to create its scratch database; without one it
 * reports PGlite only.
 *
 *   npm run bench:store
 *   BENCH_EVENTS=20000 npm run bench:store
 *   npm run bench:store -- --reads     # stateAt / page latency of a 1,000-event game, hot then compacted
 *   npm run bench:store -- --bytes     # bytes per ended game per table, hot and compacted (store-bytes.ts)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createAgent } from '../src/agents/builtin/index.js';
import {
  awaiting,
  initialState,
  requestFor,
  stepInPlace,
  type GameState,
  type RulesInput,
} from '../src/game/index.js';
import type { GameEvent } from '../src/protocol/index.js';
import { logicalClock } from '../src/runner/clock.js';
import { chainHashes, GENESIS_HASH } from '../src/store/hash.js';
import { subjectOf } from '../src/store/event-rows.js';
import { openStore, type EventStore } from '../src/store/index.js';
import { applyMigrations } from '../src/store/migrations.js';
import { PGliteAdapterFactory } from '../src/store/pglite-adapter.js';
import { crossesBoundary } from '../src/store/snapshots.js';
import { bytesPglite, bytesPostgres } from './store-bytes.js';

const TARGET_EVENTS = Number(process.env['BENCH_EVENTS'] ?? 6000);
const SNAPSHOT_EVERY = 200;
const STATE_AT_SAMPLES = 300;
const ADMIN_URL =
  process.env['BENCH_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

type Step = { expected: number; events: GameEvent[]; state?: GameState };
type Played = {
  gameId: string;
  seed: number;
  config: { game_id: string; seats: number };
  steps: Step[];
  events: number;
};

/** One game, step by step, keeping the state only where a snapshot will want it. */
function play(seed: number, tag: string, rules: RulesInput = {}): Played {
  const config = { game_id: `game_bench_${tag}_${seed}`, seats: 4, rules };
  const state = initialState(config, seed);
  const agents = [0, 1, 2, 3].map((i) => createAgent('random', seed, i));
  const clock = logicalClock();
  const steps: Step[] = [];
  let res = stepInPlace(state, { type: 'start', ts: clock() });
  for (;;) {
    if (!res.ok) throw new Error(res.rejection.message);
    const expected = state.seq - res.events.length;
    const snap = crossesBoundary(SNAPSHOT_EVERY, expected, state.seq);
    steps.push({
      expected,
      events: res.events,
      ...(snap ? { state: structuredClone(state) } : {}),
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
  return { gameId: config.game_id, seed, config, steps, events: state.seq };
}

function playMany(target: number, tag: string): Played[] {
  const games: Played[] = [];
  for (let seed = 1, n = 0; n < target; seed++) {
    const g = play(seed, tag);
    games.push(g);
    n += g.events;
  }
  return games;
}

const countEvents = (games: readonly Played[]) => games.reduce((n, g) => n + g.events, 0);
const steps = (games: readonly Played[]) => games.reduce((n, g) => n + g.steps.length, 0);

const COLUMNS = [
  'game_id',
  'seq',
  'event_id',
  'schema_version',
  'turn',
  'phase',
  'type',
  'player_id',
  'ts',
  'payload',
  'visibility',
  'rng',
  'prev_hash',
  'hash',
];

/** The same rows the store writes, as parameter arrays for one multi-row INSERT per step. */
function rawBatches(games: readonly Played[]): unknown[][] {
  const out: unknown[][] = [];
  for (const g of games) {
    let prev = GENESIS_HASH;
    for (const s of g.steps) {
      const hashes = chainHashes(prev, s.events);
      const params: unknown[] = [];
      s.events.forEach((e, i) => {
        params.push(g.gameId, e.seq, e.event_id, e.schema_version, e.turn, e.phase, e.type, subjectOf(e), e.ts);
        params.push(
          JSON.stringify(e.payload),
          JSON.stringify(e.visibility),
          e.rng == null ? null : JSON.stringify(e.rng),
          i === 0 ? prev : hashes[i - 1]!,
          hashes[i]!,
        );
      });
      prev = hashes[hashes.length - 1]!;
      out.push(params);
    }
  }
  return out;
}

function insertSql(table: string, rows: number): string {
  const n = COLUMNS.length;
  const values = Array.from(
    { length: rows },
    (_, r) => `(${COLUMNS.map((_, c) => `$${r * n + c + 1}`).join(',')})`,
  );
  return `INSERT INTO ${table} (${COLUMNS.join(',')}) VALUES ${values.join(',')}`;
}

type Query = (sql: string, params: unknown[]) => Promise<unknown>;
type Lane = { name: string; run: (g: Played, step: number, params: unknown[]) => Promise<unknown> };

/**
 * Runs every lane on the same steps, interleaved step by step (store, raw, raw, store, …), so
 * that the disk's and the machine's moods fall on all lanes alike. Returns events/s per lane.
 */
async function interleaved(
  games: readonly Played[],
  batches: readonly unknown[][],
  lanes: readonly Lane[],
): Promise<Record<string, number>> {
  const ms = lanes.map(() => 0);
  let k = 0;
  for (const g of games) {
    for (let i = 0; i < g.steps.length; i++, k++) {
      for (const [j, lane] of lanes.entries()) {
        const t = performance.now();
        await lane.run(g, i, batches[k]!);
        ms[j]! += performance.now() - t;
      }
    }
  }
  const events = countEvents(games);
  return Object.fromEntries(lanes.map((l, j) => [l.name, (events / ms[j]!) * 1000]));
}

const storeLane = (store: EventStore): Lane => ({
  name: 'store',
  run: (g, i) => {
    const s = g.steps[i]!;
    return store.append(g.gameId, s.expected, s.events, s.state ? { state: s.state } : {});
  },
});

const rawLane = (name: string, query: Query, table: string): Lane => ({
  name,
  run: (_g, _i, params) => query(insertSql(table, params.length / COLUMNS.length), params),
});

const SCRATCH_DDL = (like: string) => `
  CREATE TABLE scratch_like_events (LIKE ${like} INCLUDING DEFAULTS INCLUDING INDEXES INCLUDING CONSTRAINTS);
  CREATE TABLE scratch_plain (game_id text, seq int, event_id text, schema_version text, turn int, phase text, type text,
    player_id text, ts timestamptz, payload json, visibility json, rng json, prev_hash text, hash text);`;

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
const p95 = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
const round = (x: number, d = 0) => Math.round(x * 10 ** d) / 10 ** d;

/** stateAt (and a 1,000-event page) at random seqs of one game of about 1,000 events: median and p95 ms. */
async function latencyAt(store: EventStore, gameId: string, events: number): Promise<Record<string, number>> {
  const rnd = ((x: number) => () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31))(7);
  for (let i = 0; i < 20; i++) await store.stateAt(gameId, 1 + Math.floor(rnd() * events));
  const times: number[] = [];
  const pages: number[] = [];
  for (let i = 0; i < STATE_AT_SAMPLES; i++) {
    const seq = 1 + Math.floor(rnd() * events);
    let t = performance.now();
    await store.stateAt(gameId, seq);
    times.push(performance.now() - t);
    t = performance.now();
    await store.read(gameId, seq - 1, 1000);
    pages.push(performance.now() - t);
  }
  return {
    game_events: events,
    samples: STATE_AT_SAMPLES,
    median_ms: round(median(times), 2),
    p95_ms: round(p95(times), 2),
    read_page_median_ms: round(median(pages), 2),
  };
}

/** stateAt latency on one game of about 1,000 events, hot, then compacted (cold storage). */
async function stateAtLatency(store: EventStore): Promise<Record<string, unknown>> {
  let g: Played | undefined;
  // Attrition ends games before ~1,000 events; the replay game goes the distance without it.
  for (let seed = 100; seed < 200 && (!g || g.events < 1000); seed++) g = play(seed, 'replay', { attrition: { from_round: 1000 } });
  if (!g || g.events < 1000) throw new Error('no game of 1,000 events to replay');
  await store.createGame({ seed: g.seed, config: g.config });
  for (const s of g.steps)
    await store.append(g.gameId, s.expected, s.events, s.state ? { state: s.state } : {});
  const hot = await latencyAt(store, g.gameId, g.events);
  const compacted = await store.compact(g.gameId);
  return { ...hot, cold: compacted === 'compacted' ? await latencyAt(store, g.gameId, g.events) : compacted };
}

async function benchPglite(games: readonly Played[], batches: readonly unknown[][]) {
  const dir = mkdtempSync(join(tmpdir(), 'tiltyard-bench-'));
  try {
    const store = await openStore({ dataDir: dir, snapshotEvery: SNAPSHOT_EVERY });
    for (const g of games) await store.createGame({ seed: g.seed, config: g.config });
    // A second embedded database for the raw lane: PGlite is one connection per instance.
    const db = await PGlite.create(join(dir, 'raw'));
    await applyMigrations(new PGliteAdapterFactory(db));
    await db.exec(SCRATCH_DDL('events'));
    const query: Query = (sql, params) => db.query(sql, params);
    const r = await interleaved(games, batches, [
      storeLane(store),
      rawLane('like', query, 'scratch_like_events'),
      rawLane('plain', query, 'scratch_plain'),
    ]);
    await db.close();
    await store.close();
    return {
      store_events_per_s: round(r.store!),
      raw_same_indexes_events_per_s: round(r.like!),
      raw_plain_events_per_s: round(r.plain!),
      ratio_store_to_raw_same_indexes: round(r.store! / r.like!, 2),
      ratio_store_to_raw_plain: round(r.store! / r.plain!, 2),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchPostgres(games: readonly Played[], batches: readonly unknown[][]) {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (e) {
    return { skipped: `no PostgreSQL at ${ADMIN_URL}: ${(e as Error).message}` };
  }
  const name = `tiltyard_bench_${process.pid}_${Date.now().toString(36)}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    const store = await openStore({ databaseUrl: url.toString(), snapshotEvery: SNAPSHOT_EVERY });
    for (const g of games) await store.createGame({ seed: g.seed, config: g.config });
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query(SCRATCH_DDL('events'));
    const { rows } = await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
    const query: Query = (sql, params) => client.query(sql, params);
    const r = await interleaved(games, batches, [
      storeLane(store),
      rawLane('like', query, 'scratch_like_events'),
      rawLane('plain', query, 'scratch_plain'),
    ]);
    const [storeRate, rawLike, rawPlain] = [r.store!, r.like!, r.plain!];
    await client.end();
    const stateAt = await stateAtLatency(store);
    await store.close();
    return {
      synchronous_commit: rows[0]?.synchronous_commit,
      store_events_per_s: round(storeRate),
      raw_same_indexes_events_per_s: round(rawLike),
      raw_plain_events_per_s: round(rawPlain),
      ratio_store_to_raw_same_indexes: round(storeRate / rawLike, 2),
      ratio_store_to_raw_plain: round(storeRate / rawPlain, 2),
      state_at: stateAt,
    };
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const onlyPglite = process.argv.includes('--pglite');
const BYTES_GAMES = Number(process.env['BENCH_BYTES_GAMES'] ?? 200);

/** Bytes per ended game, hot and compacted (store-bytes.ts), on a fresh PostgreSQL database and PGlite dir. */
async function benchBytes() {
  const dir = mkdtempSync(join(tmpdir(), 'tiltyard-bench-bytes-'));
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  const name = `tiltyard_bench_b_${process.pid}_${Date.now().toString(36)}`;
  try {
    const pglite = await bytesPglite(() => openStore({ dataDir: dir }), join(dir, 'pglite'), BYTES_GAMES);
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const store = await openStore({ databaseUrl: url.toString() });
    try {
      return { postgres: await bytesPostgres(store, BYTES_GAMES), pglite };
    } finally {
      await store.close();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.end().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--reads')) {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  await admin.connect();
  const name = `tiltyard_bench_r_${process.pid}_${Date.now().toString(36)}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const store = await openStore({ databaseUrl: url.toString(), snapshotEvery: SNAPSHOT_EVERY });
  try {
    console.log(JSON.stringify({ bench: 'store-reads', postgres: { state_at: await stateAtLatency(store) } }));
  } finally {
    await store.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  process.exit(0);
}

if (process.argv.includes('--bytes')) {
  console.log(JSON.stringify({ bench: 'store-bytes', per_ended_game: await benchBytes() }));
  process.exit(0);
}

const pgGames = playMany(TARGET_EVENTS, 'pg');
const liteGames = playMany(Math.min(TARGET_EVENTS, 3000), 'lite');
const result = {
  bench: 'store',
  snapshot_every: SNAPSHOT_EVERY,
  workload: {
    events: countEvents(pgGames),
    appends: steps(pgGames),
    games: pgGames.length,
    events_per_append: round(countEvents(pgGames) / steps(pgGames), 2),
  },
  pglite: {
    events: countEvents(liteGames),
    ...(await benchPglite(liteGames, rawBatches(liteGames))),
  },
  postgres: onlyPglite
    ? { skipped: '--pglite' }
    : await benchPostgres(pgGames, rawBatches(pgGames)),
};
console.log(JSON.stringify(result));
