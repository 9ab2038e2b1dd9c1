import { standingsWithWpa } from '../../src/tournament/stored-wpa.js';
import { performance } from 'node:perf_hooks';
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { logicalInputClock } from '../../src/runner/input-clock.js';
import { leaseKey } from '../../src/scale/coordinator-lease.js';
import type { EventStore } from '../../src/store/index.js';
import { createTournament } from '../../src/tournament/create.js';
import { runTournament } from '../../src/tournament/runner.js';
import { ADMIN_URL, openPgliteStore, openPostgresStore, postgresAvailable } from '../store/support.js';
import { logOf } from '../support/same-log.js';
import { databaseFaults, freePort, freshPrefix, killed, spawnTiltyard, spawnWorker, startRedis, stop, until, type Proc } from './support.js';

/**
 * The operator's schedule, on a CLI-coordinated tournament (`tiltyard tournament` with REDIS_URL
 * and DATABASE_URL) and two `tiltyard worker` processes, all real: its own redis-server killed for
 * 30 s and restarted empty, the test database's connections terminated three times, and the
 * coordinator SIGKILLed mid-round and replaced by `tiltyard tournament resume`. Each fault waits
 * for a number of further events stored (or for the round it needs), never for a time. A Swiss
 * tournament, so the resumed coordinator schedules a round itself, with the settings it read from
 * the store (`--clock logical --commit step` were given at creation only). Then every game has
 * ended; the games, their logs (byte for byte) and the standings are those of the same tournament
 * played undisturbed in this process; and every process started is still alive (no worker was
 * restarted).
 */
const pgUp = await postgresAvailable();
const ENTRANTS = ['balanced', 'aggressor', 'turtle', 'manipulator'];
/** 3 rounds of 2 tables × 2 deals × 2 seat rotations: 24 two-seat games of some 400 events each. */
const CREATE = ['tournament', '--agents', ENTRANTS.join(','), '--format', 'swiss', '--rounds', '3', '--seats', '2', '--seeds', '2', '--seed', '31', '--compact', '--clock', 'logical', '--commit', 'step', '--json', '--progress'];
const GAMES = 24;
const REDIS_OUTAGE_MS = 30_000;
/** Events stored between two faults: less than a game's, so every fault lands mid-play. */
const BETWEEN = 150;

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
});

/** The test's reads wait out the faults too: its own connections to the database are terminated with the others. */
const eventCount = async (store: EventStore): Promise<number> => Number((await store.retrying('count', () => store.prisma.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM events`))[0]!.n);

const alive = (p: { exitCode: number | null; signalCode: NodeJS.Signals | null }) => p.exitCode === null && p.signalCode === null;

type Outcome = { tournament_id: string; status: string; games: number; failed: number; standings: unknown[] };

describe.skipIf(!pgUp)('a CLI-coordinated tournament through Redis and PostgreSQL faults', () => {
  it('given Redis killed for 30 s (back empty), the database connections terminated 3 times and the coordinator SIGKILLed then resumed, then every game ends, no process died, and the games, their logs and the standings are byte for byte an undisturbed run', async () => {
    const t0 = performance.now();
    const secs = (t = performance.now()) => Math.round((t - t0) / 100) / 10;
    const db = await openPostgresStore();
    cleanup.push(() => db.dispose());
    const faults = await databaseFaults(ADMIN_URL, db.url);
    cleanup.push(() => faults.close());
    const port = await freePort();
    let redisServer: ChildProcess = await startRedis(port);
    cleanup.push(() => killed(redisServer));
    const prefix = freshPrefix('cli_schedule');
    const env = { DATABASE_URL: db.url, REDIS_URL: `redis://127.0.0.1:${port}`, TILTYARD_QUEUE_PREFIX: prefix, TILTYARD_LOG: 'warn' };
    const track = <T extends Proc>(p: T): T => {
      cleanup.push(() => stop(p, 'SIGKILL'));
      return p;
    };
    const workers = await Promise.all([spawnWorker(env, 2).then(track), spawnWorker(env, 2).then(track)]);
    const first = track(await spawnTiltyard(CREATE, env, /the games are queued/));
    const id = await until('the tournament id', () => Promise.resolve(/^tournament (trn_\w+) started/m.exec(first.output())?.[1]), 300_000, 20);

    const ended = async () => (await db.store.tournaments.get(id).catch(() => null))?.status === 'ended';
    /** Waits until `more` further events are stored; false when the tournament ended first (the fault would land on nothing). */
    const after = async (more: number): Promise<boolean> => {
      const target = (await eventCount(db.store)) + more;
      return until(`${target} events stored`, async () => ((await eventCount(db.store)) >= target ? true : (await ended()) ? false : undefined), 600_000, 20);
    };
    /** From the end of a fault to the first event stored after it (play went on). */
    const playResumes = async (): Promise<number> => {
      const t = performance.now();
      const before = await eventCount(db.store);
      await until('an event stored after the fault', async () => ((await eventCount(db.store)) > before || (await ended()) ? true : undefined), 600_000, 20);
      return Math.round(performance.now() - t);
    };
    const schedule: Array<{ fault: string; at_s: number; lasted_ms: number; play_resumed_after_ms: number }> = [];

    // 1. Redis dies mid-round for 30 s and comes back empty: every queued job is lost.
    expect(await after(2 * BETWEEN), 'the tournament ended before Redis was killed').toBe(true);
    const redisDown = performance.now();
    await killed(redisServer);
    await new Promise((r) => setTimeout(r, REDIS_OUTAGE_MS));
    redisServer = await startRedis(port);
    schedule.push({ fault: 'redis killed, restarted empty', at_s: secs(redisDown), lasted_ms: Math.round(performance.now() - redisDown), play_resumed_after_ms: await playResumes() });

    // 2, 3. Every connection to the test database terminated, twice.
    for (const n of [1, 2]) {
      expect(await after(BETWEEN), `the tournament ended before termination ${n}`).toBe(true);
      const at = performance.now();
      const terminated = await faults.terminate();
      expect(terminated, 'connections to terminate').toBeGreaterThan(0);
      schedule.push({ fault: `database connections terminated (${terminated})`, at_s: secs(at), lasted_ms: Math.round(performance.now() - at), play_resumed_after_ms: await playResumes() });
    }

    // 4. The coordinator dies mid-round 2 (the Swiss round after it is its to schedule), and is resumed.
    const roundPlaying = async (round: number) => {
      const games = await db.store.tournaments.games(id).catch(() => []);
      return games.some((g) => g.round === round && g.status === 'running') && games.some((g) => g.round === round && g.state === 'pending');
    };
    await until('round 2 under way', async () => ((await roundPlaying(1)) ? true : undefined), 600_000, 20);
    const coordinatorDown = performance.now();
    first.child.kill('SIGKILL');
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
    // Its lease expires unrenewed (≤ 15 s); until then a resume is refused. The workers play on meanwhile.
    const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
    cleanup.push(() => Promise.resolve(redis.disconnect()));
    await until('the dead coordinator’s lease to expire', async () => ((await redis.exists(leaseKey(prefix, id))) === 0 ? true : undefined), 120_000, 50);
    // No --clock, no --commit: the tournament's own are used.
    const resumed = track(await spawnTiltyard(['tournament', 'resume', id, '--json', '--progress'], env, /the games are queued/));
    schedule.push({ fault: 'coordinator SIGKILLed, resumed', at_s: secs(coordinatorDown), lasted_ms: Math.round(performance.now() - coordinatorDown), play_resumed_after_ms: await playResumes() });

    // 5. A third termination, while the resumed coordinator runs the last round (step by step, as created).
    const lastRound = await until('round 3 under way', async () => ((await roundPlaying(2)) ? true : (await ended()) || !alive(resumed.child) ? false : undefined), 600_000, 20);
    expect(lastRound, 'the last round was never seen playing step by step (a resume that forgot --commit step plays whole games)').toBe(true);
    const at = performance.now();
    const terminated = await faults.terminate();
    schedule.push({ fault: `database connections terminated (${terminated})`, at_s: secs(at), lasted_ms: Math.round(performance.now() - at), play_resumed_after_ms: await playResumes() });

    const exit = await resumed.exited;
    expect(exit.code, resumed.output().slice(-3000)).toBe(0);
    const outcome = JSON.parse(/^\{.*\}$/m.exec(resumed.output())![0]) as Outcome;
    expect(outcome).toMatchObject({ tournament_id: id, status: 'ended', games: GAMES, failed: 0 });
    // Every process started is alive: both workers (never restarted) and the Redis that came back.
    expect(workers.map((w) => alive(w.child)), workers.map((w) => w.output().slice(-1500)).join('\n')).toEqual([true, true]);
    expect(alive(redisServer)).toBe(true);
    console.info(`fault schedule on a CLI-coordinated tournament (${GAMES} games, ${secs()} s):\n${schedule.map((s) => `  ${s.fault}: at ${s.at_s} s, lasted ${s.lasted_ms} ms, play went on ${s.play_resumed_after_ms} ms after it ended`).join('\n')}`);

    // The same tournament (the same id, so the same game ids), undisturbed, in this process.
    const ref = await openPgliteStore();
    cleanup.push(() => ref.dispose());
    const created = await createTournament(ref.store, (await db.store.tournaments.get(id)).config, { tournament_id: id });
    expect(created.ok).toBe(true);
    const undisturbed = await runTournament(id, { store: ref.store, clock: logicalInputClock, commit: 'auto' });
    // The CLI adds the WPA skill figure to the runner's table from the games it stored: so does the reference.
    const reference = await standingsWithWpa(ref.store, await ref.store.tournaments.get(id), undisturbed.standings);
    expect(JSON.stringify(outcome.standings)).toBe(JSON.stringify(reference));
    const games = await db.store.tournaments.games(id);
    const expected = await ref.store.tournaments.games(id);
    expect(games.map((g) => [g.key, g.game_id, g.state])).toEqual(expected.map((g) => [g.key, g.game_id, 'ended']));
    for (const g of games) expect(JSON.stringify(await logOf(db.store, g.game_id)), g.game_id).toBe(JSON.stringify(await logOf(ref.store, g.game_id)));

    // Stopped as an operator would: both workers exit cleanly.
    expect((await Promise.all(workers.map((w) => stop(w)))).map((e) => e?.code)).toEqual([0, 0]);
  }, 1_500_000);
});
