/**
 * Bytes per ended game, per table (indexes and TOAST included): a round-robin of the built-ins at
 * four-seat compact tables, stored by the TournamentRunner, on a fresh PostgreSQL database
 * (pg_total_relation_size deltas, each index also on its own) and on a fresh PGlite data dir
 * (the folder's growth). Then every game is compacted (`compactGames`), the tables are rewritten
 * (VACUUM FULL, so freed pages count as freed) and measured again, with the compaction's CPU per
 * game and the cold read latencies.
 *
 *   BENCH_BYTES_GAMES=200 npx tsx bench/store.ts --bytes
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EventStore } from '../src/store/index.js';
import { createTournament } from '../src/tournament/create.js';
import { runTournament } from '../src/tournament/runner.js';

const TABLES = ['games', 'events', 'snapshots', 'actions', 'agent_traces', 'provider_calls', 'cold_segments', 'cold_actions', 'tournament_games'];

type Sizes = Record<string, number>;

/** pg_total_relation_size of each table and pg_relation_size of each of its indexes. */
async function pgSizes(store: EventStore): Promise<Sizes> {
  const rows = await store.prisma.$queryRawUnsafe<Array<{ name: string; bytes: bigint }>>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname = ANY($1)
     UNION ALL
     SELECT i.relname || ' (index)', pg_relation_size(i.oid) FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      WHERE t.relname = ANY($1)`,
    TABLES,
  );
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.bytes)]));
}

/** Bytes under a folder, leaving out the subfolders named in `skip` (e.g. pg_wal). */
export function dirBytes(dir: string, skip: readonly string[] = []): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (skip.includes(e.name)) continue;
    const p = join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p, skip) : e.isFile() ? statSync(p).size : 0;
  }
  return n;
}

/** The data dir whole, and without its write-ahead log (which keeps up to max_wal_size of segments). */
const dirNow = (dir: string) => ({ all: dirBytes(dir), data: dirBytes(dir, ['pg_wal']) });

const perGame = (after: Sizes, before: Sizes, games: number) => {
  const out: Record<string, number> = {};
  let total = 0;
  for (const [k, v] of Object.entries(after)) {
    const d = Math.round((v - (before[k] ?? 0)) / games);
    out[k] = d;
    if (!k.endsWith('(index)')) total += d;
  }
  return { ...out, total_tables_with_indexes: total };
};

/** Plays `games` built-in games as a tournament into `store` and returns how many ended. */
export async function playTournament(store: EventStore, games: number): Promise<number> {
  const entrants = ['random', 'balanced', 'aggressor', 'turtle', 'manipulator', 'trickster'];
  const input = { format: 'round-robin', entrants, seats: 4, seeds: Math.ceil(games / 15), max_games: games, compact: true, seed: 1 };
  const created = await createTournament(store, input);
  if (!created.ok) throw new Error(created.message);
  const out = await runTournament(created.tournament.tournament_id, { store, concurrency: 4, ratingsEveryMs: 60_000 });
  return out.done;
}

/** Compacts every ended game; CPU (this process) and wall time per game. */
async function compactAll(store: EventStore, games: number) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await store.compactEnded();
  const cpu = process.cpuUsage(c0);
  return {
    compacted: r.compacted,
    node_cpu_ms_per_game: Math.round((cpu.user + cpu.system) / 1000 / games * 10) / 10,
    wall_ms_per_game: Math.round((performance.now() - t0) / games * 10) / 10,
  };
}

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** stateAt and a 1,000-event page at deterministic random seqs of the longest game: median ms. */
async function readLatency(store: EventStore, gameId: string, events: number) {
  const rnd = ((x: number) => () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31))(7);
  for (let i = 0; i < 20; i++) await store.stateAt(gameId, 1 + Math.floor(rnd() * events));
  const stateAt: number[] = [];
  const page: number[] = [];
  for (let i = 0; i < 300; i++) {
    const seq = 1 + Math.floor(rnd() * events);
    let t = performance.now();
    await store.stateAt(gameId, seq);
    stateAt.push(performance.now() - t);
    t = performance.now();
    await store.read(gameId, seq - 1, 1000);
    page.push(performance.now() - t);
  }
  const r = (x: number) => Math.round(x * 100) / 100;
  return { game_events: events, samples: 300, state_at_median_ms: r(median(stateAt)), read_page_median_ms: r(median(page)) };
}

/** Before and after compaction on PostgreSQL, per ended game. */
export async function bytesPostgres(store: EventStore, games: number) {
  const s0 = await pgSizes(store);
  const ended = await playTournament(store, games);
  await store.prisma.$executeRawUnsafe('VACUUM FULL');
  const s1 = await pgSizes(store);
  const [long] = await store.prisma.$queryRawUnsafe<Array<{ game_id: string; last_seq: number }>>(
    `SELECT game_id, last_seq FROM games ORDER BY last_seq DESC LIMIT 1`,
  );
  const hotReads = long ? await readLatency(store, long.game_id, long.last_seq) : null;
  const compaction = await compactAll(store, ended);
  await store.prisma.$executeRawUnsafe('VACUUM FULL');
  const s2 = await pgSizes(store);
  const coldReads = long ? await readLatency(store, long.game_id, long.last_seq) : null;
  return { games: ended, hot: perGame(s1, s0, ended), cold: perGame(s2, s0, ended), compaction, reads: { hot: hotReads, cold: coldReads } };
}

/** Before and after compaction on PGlite: the data dir's growth per ended game. */
export async function bytesPglite(open: () => Promise<EventStore>, dir: string, games: number) {
  let store = await open();
  await store.prisma.$executeRawUnsafe('CHECKPOINT');
  const d0 = dirNow(dir);
  const ended = await playTournament(store, games);
  await store.prisma.$executeRawUnsafe('VACUUM FULL');
  await store.prisma.$executeRawUnsafe('CHECKPOINT');
  const d1 = dirNow(dir);
  const t1 = await pgSizes(store);
  const compaction = await compactAll(store, ended);
  await store.prisma.$executeRawUnsafe('VACUUM FULL');
  await store.prisma.$executeRawUnsafe('CHECKPOINT');
  await store.close();
  store = await open();
  const d2 = dirNow(dir);
  const t2 = await pgSizes(store);
  await store.close();
  return {
    games: ended,
    hot_dir_bytes_per_game: Math.round((d1.all - d0.all) / ended),
    cold_dir_bytes_per_game: Math.round((d2.all - d0.all) / ended),
    hot_dir_without_wal_bytes_per_game: Math.round((d1.data - d0.data) / ended),
    cold_dir_without_wal_bytes_per_game: Math.round((d2.data - d0.data) / ended),
    hot_tables: perGame(t1, {}, ended),
    cold_tables: perGame(t2, {}, ended),
    compaction,
  };
}
