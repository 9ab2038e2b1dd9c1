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

const TABLES = ['games', 'events', 'snapshots', 'actions', 'agent_traces', 'provider_calls', 'cold_segments', 'tournament_games'];

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

/** Bytes under a folder. */
export function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : e.isFile() ? statSync(p).size : 0;
  }
  return n;
}

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

/** Before and after compaction on PostgreSQL, per ended game. */
export async function bytesPostgres(store: EventStore, games: number) {
  const s0 = await pgSizes(store);
  const ended = await playTournament(store, games);
  await store.prisma.$executeRawUnsafe('VACUUM FULL');
  const s1 = await pgSizes(store);
  const compaction = await compactAll(store, ended);
  await store.prisma.$executeRawUnsafe('VACUUM FULL');
  const s2 = await pgSizes(store);
  return { games: ended, hot: perGame(s1, s0, ended), cold: perGame(s2, s0, ended), compaction };
}

/** Before and after compaction on PGlite: the data dir's growth per ended game. */
export async function bytesPglite(open: () => Promise<EventStore>, dir: string, games: number) {
  let store = await open();
  await store.prisma.$executeRawUnsafe('CHECKPOINT');
  const d0 = dirBytes(dir);
  const ended = await playTournament(store, games);
  await store.prisma.$executeRawUnsafe('VACUUM FULL');
  await store.prisma.$executeRawUnsafe('CHECKPOINT');
  const d1 = dirBytes(dir);
  const t1 = await pgSizes(store);
  const compaction = await compactAll(store, ended);
  await store.prisma.$executeRawUnsafe('VACUUM FULL');
  await store.prisma.$executeRawUnsafe('CHECKPOINT');
  await store.close();
  store = await open();
  const d2 = dirBytes(dir);
  const t2 = await pgSizes(store);
  await store.close();
  return {
    games: ended,
    hot_dir_bytes_per_game: Math.round((d1 - d0) / ended),
    cold_dir_bytes_per_game: Math.round((d2 - d0) / ended),
    hot_tables: perGame(t1, {}, ended),
    cold_tables: perGame(t2, {}, ended),
    compaction,
  };
}
