/**
 * What checking the seal on every read of a cold game costs (src/store/cold-reads.ts,
 * cold-seal.ts): CPU µs per segment read and per whole-game read, with the check (the store's
 * `read`) and without it (the read as it was before the check: the segments' seals listed, the
 * bytes of those not cached fetched, decompressed and parsed — emulated here query for query),
 * each with the decoded-segment cache missing (reads cycle through more segments than it holds)
 * and hitting (the same segment again). On PGlite (node CPU: the database runs in this process)
 * and PostgreSQL (node CPU, and the CPU of this database's backends from /proc). Also what a hot
 * 1,000-event page costs to read, and what hashing each row's content would add to it (reads
 * only compare each row's prev_hash with its predecessor's hash). Prints one JSON object.
 *
 *   npm run bench:seal
 *   BENCH_SEAL_GAMES=40 npm run bench:seal
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { decompress, segmentEvents } from '../src/store/cold-codec.js';
import { chainHashes, GENESIS_HASH } from '../src/store/hash.js';
import { openStore, type EventStore } from '../src/store/index.js';
import { readRows } from '../src/store/reads.js';
import { playGame, type Played } from '../test/store/support.js';
import { meterCpu } from './proc-cpu.js';

const GAMES = Number(process.env['BENCH_SEAL_GAMES'] ?? 24);
const PASSES = 3;
const CACHED_READS = 300;
const ADMIN_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

type Segment = { game_id: string; first_seq: number; last_seq: number };
type Read = (s: Segment) => Promise<unknown>;

// The read before seals were checked (reads.ts and cold-reads.ts as of 51b534f): the hot rows, none,
// then the seals in range, the bytes of the segments not cached, decompressed; each parsed afresh.
const OLD_SEALS = `SELECT first_seq, seal FROM cold_segments WHERE game_id = $1 AND last_seq > $2 AND first_seq <= $3 ORDER BY first_seq`;
const OLD_DATA = `SELECT first_seq, seal, encode(data, 'base64') AS data FROM cold_segments
  WHERE game_id = $1 AND first_seq IN (SELECT json_array_elements_text($2::json)::int)`;

function oldRead(store: EventStore, cache: Map<string, string>) {
  return async (gameId: string, after: number, to: number) => {
    // A read asks `events` first, as store.read does (reads.ts): only an empty answer looks further.
    if ((await readRows(store.ctx, gameId, after, to, to - after)).length > 0) throw new Error('a cold game has rows');
    const seals = await store.ctx.sql.rows<{ first_seq: number; seal: string }>(OLD_SEALS, [gameId, after, to]);
    const missing = seals.filter((s) => !cache.has(s.seal)).map((s) => s.first_seq);
    if (missing.length) {
      for (const r of await store.ctx.sql.rows<{ seal: string; data: string }>(OLD_DATA, [gameId, JSON.stringify(missing)])) {
        cache.set(r.seal, decompress(Buffer.from(r.data, 'base64')));
        if (cache.size > 64) cache.delete(cache.keys().next().value!);
      }
    }
    return seals.flatMap((s) => segmentEvents(gameId, s.first_seq, cache.get(s.seal)!)).filter((e) => e.seq > after && e.seq <= to);
  };
}

/** Node CPU (and the database backends', when `db` names a PostgreSQL database) per call, in µs. */
async function cpuPer(calls: number, db: string | null, run: () => Promise<void>) {
  const meter = db ? meterCpu([{ role: 'pg', cmdline: new RegExp(`^postgres: .* ${db} `) }], 50) : null;
  const t = process.cpuUsage();
  await run();
  const node = process.cpuUsage(t);
  const pgS = meter?.stop()['pg'] ?? 0;
  const us = (x: number) => Math.round(x / calls);
  return { node_us: us(node.user + node.system), ...(db ? { postgres_us: us(pgS * 1e6) } : {}) };
}

async function measure(store: EventStore, games: readonly Played[], db: string | null) {
  const segments = await store.ctx.sql.rows<Segment>(`SELECT game_id, first_seq, last_seq FROM cold_segments ORDER BY game_id, first_seq`, []);
  const lastOf = new Map(games.map((g) => [g.gameId, g.events.length]));
  const old = oldRead(store, new Map());
  const checked: Read = (s) => store.read(s.game_id, s.first_seq - 1, s.last_seq - s.first_seq + 1);
  const unchecked: Read = (s) => old(s.game_id, s.first_seq - 1, s.last_seq);
  const whole = (read: Read) => (s: Segment) => read({ ...s, first_seq: 1, last_seq: lastOf.get(s.game_id)! });
  const firsts = segments.filter((s) => s.first_seq === 1);
  // Cycling through more segments than the cache holds (64) misses every time; one again and again hits.
  const cycle = (list: readonly Segment[], read: Read) => cpuPer(list.length * PASSES, db, async () => {
    for (let p = 0; p < PASSES; p++) for (const s of list) await read(s);
  });
  const again = (s: Segment, read: Read) => cpuPer(CACHED_READS, db, async () => {
    for (let i = 0; i < CACHED_READS; i++) await read(s);
  });
  const mid = segments[Math.floor(segments.length / 2)]!;
  const out = {
    segments: segments.length,
    segment_read: {
      uncached: { checked: await cycle(segments, checked), unchecked: await cycle(segments, unchecked) },
      cached: { checked: await again(mid, checked), unchecked: await again(mid, unchecked) },
    },
    whole_game_read: {
      uncached: { checked: await cycle(firsts, whole(checked)), unchecked: await cycle(firsts, whole(unchecked)) },
      cached: { checked: await again(firsts[0]!, whole(checked)), unchecked: await again(firsts[0]!, whole(unchecked)) },
    },
  };
  return out;
}

/** A hot game's 1,000-event page: what reading it costs, and what re-hashing each row's content would add. */
async function hotPage(store: EventStore, game: Played, db: string | null) {
  const page = () => store.read(game.gameId, 0, 1000);
  const events = await page();
  return {
    events: events.length,
    read: await cpuPer(50, db, async () => {
      for (let i = 0; i < 50; i++) await page();
    }),
    content_hash_node_us: (await cpuPer(50, null, () => {
      for (let i = 0; i < 50; i++) chainHashes(GENESIS_HASH, events);
      return Promise.resolve();
    })).node_us,
  };
}

async function load(store: EventStore, games: readonly Played[], hot: Played) {
  for (const g of games) {
    await store.createGame({ seed: g.seed, config: g.config });
    await store.appendGame(g.gameId, { events: g.events, actions: [], snapshots: [] }, { cold: true });
  }
  await store.createGame({ seed: hot.seed, config: hot.config });
  await store.appendGame(hot.gameId, { events: hot.events, actions: [], snapshots: [] });
}

const games = Array.from({ length: GAMES }, (_, i) => playGame(1000 + i, { tag: 'seal' }));
const hot = playGame(999, { tag: 'seal_hot' });

async function onPglite() {
  const dir = mkdtempSync(join(tmpdir(), 'tiltyard-bench-seal-'));
  const store = await openStore({ dataDir: dir });
  try {
    await load(store, games, hot);
    return { ...(await measure(store, games, null)), hot_page: await hotPage(store, hot, null) };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres() {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (e) {
    return { skipped: `no PostgreSQL at ${ADMIN_URL}: ${(e as Error).message}` };
  }
  const name = `tiltyard_bench_seal_${process.pid}_${Date.now().toString(36)}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const store = await openStore({ databaseUrl: url.toString() });
  try {
    await load(store, games, hot);
    return { ...(await measure(store, games, name)), hot_page: await hotPage(store, hot, name) };
  } finally {
    await store.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const events = games.reduce((n, g) => n + g.events.length, 0);
console.log(JSON.stringify({ bench: 'seal', games: GAMES, events_per_game: Math.round(events / GAMES), pglite: await onPglite(), postgres: await onPostgres() }));
