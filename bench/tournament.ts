/**
 * Tournament throughput. Prints one JSON object.
 * 1. Built-ins: a round-robin of the six built-ins at four-seat tables, compact windows, capped at
 *    BENCH_GAMES games (default 1,000), persisted to PostgreSQL by the TournamentRunner (one
 *    transaction per game); and, in the same run, the same scheduled games played in memory the
 *    way `simulate` plays them (playGame, then tallyGame: the log hash and SimStats), and once more
 *    with playGame alone. Reports the throughputs, the ratios to both, and whether every game
 *    placed the same in memory and in the store. The runner plays on BENCH_WORKERS
 *    worker threads (default 2, as `tiltyard tournament` on PostgreSQL; 0 plays on the main
 *    thread) while its main thread writes. Since games stored whole go cold as they are stored
 *    (PostgreSQL CPU ~3.6 ms a game), playing and preparing them is the limit: 1,000 games on a
 *    quiet machine, 22.3 games/s with 1 worker (persisted ÷ in memory 0.39), 31.0 with 2 (0.55).
 *    (When the writes cost ~22 ms of PostgreSQL CPU a game, 1 and 2 workers measured alike.)
 * 2. LLM seats: `llm:mock:*` entrants whose every call waits BENCH_LATENCY_MS (default 200) of
 *    simulated latency, a BENCH_LLM_GAMES-game (default 64) tournament at --concurrency 16 and at
 *    --concurrency 1 (per-step commits, as LLM seats require), each on a fresh database. Games are
 *    kept short (two seats, compact windows, round cap 3) so the serial run fits in minutes; with
 *    BENCH_LLM_SERIAL_GAMES < the game count the serial run plays that many and is extrapolated.
 * Needs PostgreSQL at $BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres).
 *
 *   npm run bench:tournament
 *   BENCH_GAMES=100 BENCH_LLM_GAMES=16 npm run bench:tournament
 *   BENCH_LLM_GAMES=0 npm run bench:tournament   # the built-ins only
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { meterCpu } from './proc-cpu.js';

const env = (k: string, d: number) => Number(process.env[k] ?? d);
const GAMES = env('BENCH_GAMES', 1000);
const LLM_GAMES = env('BENCH_LLM_GAMES', 64);
const LLM_SERIAL = env('BENCH_LLM_SERIAL_GAMES', LLM_GAMES);
const LATENCY = env('BENCH_LATENCY_MS', 200);
const WORKERS = env('BENCH_WORKERS', 2);
const ADMIN_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

// The mock's latency comes from the providers file, read once when the first llm: seat resolves.
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-bench-t-'));
process.env['TILTYARD_PROVIDERS_FILE'] = join(tmp, 'providers.json');
writeFileSync(process.env['TILTYARD_PROVIDERS_FILE'], JSON.stringify({ providers: { mock: { kind: 'mock', latency_ms: LATENCY } } }));

const { openStore } = await import('../src/store/index.js');
const { buildSeats, seatConfigs } = await import('../src/runner/lineup.js');
const { playGame } = await import('../src/runner/play-game.js');
const { newTally, tallyGame } = await import('../src/runner/simulate.js');
const { createTournament } = await import('../src/tournament/create.js');
const { runTournament } = await import('../src/tournament/runner.js');
const { roundRobinSchedule } = await import('../src/tournament/round-robin.js');
const { gameRules } = await import('../src/tournament/config.js');
const { resultsOf, seatPlacements } = await import('../src/tournament/results.js');
type Store = Awaited<ReturnType<typeof openStore>>;

/** A fresh PostgreSQL database for one measurement, dropped afterwards. */
async function withDatabase<T>(fn: (store: Store, name: string) => Promise<T>): Promise<T> {
  const name = `tiltyard_bench_t_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const store = await openStore({ databaseUrl: url.toString() });
  try {
    return await fn(store, name);
  } finally {
    await store.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const perSec = (n: number, ms: number) => Math.round((n / ms) * 1e5) / 100;

/** CPU seconds this process (every thread of it) spent since `from`. */
const cpuSec = (from: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(from);
  return Math.round((c.user + c.system) / 1e4) / 100;
};
const load = () => loadavg().map((l) => Math.round(l * 100) / 100);

async function builtins() {
  const entrants = ['random', 'balanced', 'aggressor', 'turtle', 'manipulator', 'trickster'];
  const input = { format: 'round-robin', entrants, seats: 4, seeds: Math.ceil(GAMES / 60), max_games: GAMES, compact: true, seed: 1 };
  return withDatabase(async (store, dbName) => {
    const created = await createTournament(store, input);
    if (!created.ok) throw new Error(created.message);
    const config = (await import('../src/tournament/runner.js')).storedConfig(created.tournament);
    const schedule = roundRobinSchedule(config);

    // In memory, twice: as `simulate` plays a game (playGame, then every event into the log hash
    // and the game into SimStats: tallyGame), the acceptance's comparator; and playGame alone.
    const inMemory = async (tally: boolean) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const sim = newTally();
      const placements = new Map<string, number[]>();
      let events = 0;
      for (const g of schedule) {
        const seats = buildSeats(g.seats, g.seed);
        const run = await playGame({ seats: seatConfigs(g.seats), rules: gameRules(config) }, g.seed, seats);
        if (tally) tallyGame(sim, run, [...g.seats]);
        events += run.events.length;
        placements.set(g.key, seatPlacements(g.seats.length, run.state.placements ?? []));
      }
      return { ms: performance.now() - t0, cpu: cpuSec(c0), placements, events };
    };
    const sim = await inMemory(true);
    const bare = await inMemory(false);
    const memory = sim.placements;
    const events = sim.events;

    // PostgreSQL's backends for this database, beside this process's own CPU: the two share the cores.
    const pgCpu = meterCpu([{ role: 'pg', cmdline: new RegExp(`^postgres: .* ${dbName} `) }]);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const out = await runTournament(created.tournament.tournament_id, { store, concurrency: 4, ratingsEveryMs: 2000, workers: WORKERS });
    const persistedMs = performance.now() - t0;
    const persistedCpu = cpuSec(c0);
    const pgSec = Math.round(pgCpu.stop()['pg']! * 100) / 100;
    const results = resultsOf(await store.tournaments.games(created.tournament.tournament_id));
    const same = results.length === schedule.length && results.every((r) => JSON.stringify(memory.get(r.key)) === JSON.stringify(r.placements));
    return {
      games: schedule.length,
      events,
      failed: out.failed,
      inMemory: { as: 'simulate: playGame + log hash + SimStats', wallMs: Math.round(sim.ms), cpuSec: sim.cpu, gamesPerSec: perSec(schedule.length, sim.ms) },
      playOnly: { as: 'playGame alone', wallMs: Math.round(bare.ms), cpuSec: bare.cpu, gamesPerSec: perSec(schedule.length, bare.ms) },
      persisted: { wallMs: Math.round(persistedMs), cpuSec: persistedCpu, postgresCpuSec: pgSec, gamesPerSec: perSec(out.done, persistedMs), eventsPerSec: Math.round((events / persistedMs) * 1000), concurrency: 4, workers: WORKERS, commit: 'one transaction per game' },
      persistedOverInMemory: Math.round((sim.ms / persistedMs) * 100) / 100,
      persistedOverPlayOnly: Math.round((bare.ms / persistedMs) * 100) / 100,
      samePlacementsAsInMemory: same,
      leader: out.standings[0]?.agent,
    };
  });
}

async function llm(concurrency: number, games: number) {
  const entrants = ['llm:mock:a', 'llm:mock:b', 'llm:mock:c', 'llm:mock:d'];
  const input = { format: 'round-robin', entrants, seats: 2, seeds: Math.ceil(games / 12), max_games: games, compact: true, seed: 1, rules: { round_cap: 3 } };
  return withDatabase(async (store) => {
    const created = await createTournament(store, input);
    if (!created.ok) throw new Error(created.message);
    const t0 = performance.now();
    const out = await runTournament(created.tournament.tournament_id, { store, concurrency, ratingsEveryMs: 2000 });
    const wallMs = performance.now() - t0;
    const calls = await store.prisma.providerCall.count();
    return { concurrency, games: out.done, failed: out.failed, wallMs: Math.round(wallMs), providerCalls: calls, gamesPerSec: perSec(out.done, wallMs) };
  });
}

try {
  const started = new Date().toISOString();
  const loadAtStart = load();
  const b = await builtins();
  // BENCH_LLM_GAMES=0 measures the built-ins alone.
  const fast = LLM_GAMES > 0 ? await llm(16, LLM_GAMES) : null;
  const slow = fast ? await llm(1, LLM_SERIAL) : null;
  console.log(
    JSON.stringify(
      {
        started,
        // The 1-, 5- and 15-minute load averages (os.loadavg) as measured: on a shared machine they
        // say how far the wall times can be trusted (cpuSec is this process only, all threads).
        loadAverage: { start: loadAtStart, end: load() },
        builtins: b,
        llmMock:
          fast && slow
            ? {
                latencyMsPerCall: LATENCY,
                concurrency16: fast,
                concurrency1: slow,
                serialExtrapolated: slow.games !== fast.games,
                speedup: Math.round((((slow.wallMs / slow.games) * fast.games) / fast.wallMs) * 10) / 10,
              }
            : 'skipped (BENCH_LLM_GAMES=0)',
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
