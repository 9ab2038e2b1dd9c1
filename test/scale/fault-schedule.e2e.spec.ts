import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyGame } from '../../src/runner/verify-game.js';
import type { EventStore } from '../../src/store/index.js';
import { tiltyardWith } from '../cli/run-cli.js';
import { ADMIN, Watcher } from '../server/spectate-support.js';
import { ADMIN_URL, openPostgresStore, postgresAvailable } from '../store/support.js';
import { databaseFaults, freshPrefix, spawnNode, spawnWorker, stop, until, type Proc } from './support.js';

/**
 * A seeded fault schedule over a scaled-out deployment (Jepsen-style, bounded): a tournament runs
 * on 2 workers behind 2 API nodes, one of which coordinates it, while the schedule SIGKILLs a
 * worker, terminates every database connection, SIGKILLs the coordinating API node (the other
 * node takes the tournament over once its lease expires), pauses the database for 10 s (every
 * connection refused), and SIGKILLs a worker again. Invariants: every game ends and verifies, no
 * event is missing or duplicated, a spectator's streams are contiguous, and the standings equal
 * an undisturbed run of the same tournament.
 */
const REDIS = process.env['TILTYARD_TEST_REDIS'] ?? 'redis://127.0.0.1:6379';
const pgUp = await postgresAvailable();
const SCHEDULE_SEED = 'fault-schedule-1';
const TOURNAMENT = { format: 'round-robin', entrants: ['balanced', 'aggressor', 'turtle', 'manipulator'], seats: 2, seeds: 1, compact: true, seed: 23, pace_ms: 0 };
const PAUSE_MS = 10_000;

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
});

/** The test's own reads go through the store's fault policy too: the schedule terminates its connections as well. */
const eventCount = async (store: EventStore): Promise<number> => Number((await store.retrying('count', () => store.prisma.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM events`))[0]!.n);

type Standing = { agent: string; mu: number; sigma: number; games: number; wins: number };
const comparable = (s: readonly Standing[]) => s.map((r) => ({ agent: r.agent, mu: r.mu, sigma: r.sigma, games: r.games, wins: r.wins }));

describe.skipIf(!pgUp)('a seeded fault schedule', () => {
  it(`given ${SCHEDULE_SEED} (worker, connections, coordinator node, a 10 s database pause, worker), then every game ends and verifies, nothing is lost or repeated, spectators see contiguous streams, and the standings equal an undisturbed run`, async () => {
    const random = seedrandom(SCHEDULE_SEED);
    const db = await openPostgresStore();
    cleanup.push(() => db.dispose());
    const faults = await databaseFaults(ADMIN_URL, db.url);
    cleanup.push(() => faults.close());
    // Compaction off on the API nodes: this test reads the hot events rows on purpose (their count
    // paces the schedule; each ended game's seqs 1…last_seq once), which compaction moves to cold_segments.
    const env = { DATABASE_URL: db.url, REDIS_URL: REDIS, TILTYARD_QUEUE_PREFIX: freshPrefix('schedule'), TILTYARD_ADMIN_TOKEN: ADMIN, TILTYARD_PACE_MS: '0', TILTYARD_COMPACT: 'off' };
    const procs: Proc[] = [];
    const track = <T extends Proc>(p: T): T => {
      procs.push(p);
      cleanup.push(() => stop(p, 'SIGKILL'));
      return p;
    };
    const [nodeA, nodeB] = await Promise.all([spawnNode(env).then(track), spawnNode(env).then(track)]);
    const workers = await Promise.all([spawnWorker(env, 2).then(track), spawnWorker(env, 2).then(track)]);

    const res = await fetch(`${nodeA.url}/tournaments`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(TOURNAMENT) });
    expect(res.status).toBe(201);
    const tournamentId = String(((await res.json()) as { tournament_id: string }).tournament_id);

    // A spectator on node B joins every game of the tournament as it appears, from its start (a
    // socket follows one game at a time: one socket per game).
    const spectators = new Map<string, Promise<Watcher>>();
    const joinNew = async () => {
      for (const g of await db.store.tournaments.games(tournamentId).catch(() => [])) {
        if (spectators.has(g.game_id)) continue;
        const watching = Watcher.connect(nodeB.url, { auth: { token: ADMIN } }).then((w) => w.join({ gameId: g.game_id, afterSeq: 0 }));
        spectators.set(g.game_id, watching);
        cleanup.push(async () => (await watching).close());
      }
    };
    const joining = setInterval(() => void joinNew(), 200);
    cleanup.push(() => Promise.resolve(clearInterval(joining)));

    const done = async () => (await db.store.tournaments.get(tournamentId).catch(() => null))?.status === 'ended';
    /** Waits until a seeded number of further events is stored; false when the tournament ended first. */
    const after = async (min: number, spread: number): Promise<boolean> => {
      const target = (await eventCount(db.store)) + min + Math.floor(random() * spread);
      return until(`${target} events stored`, async () => ((await eventCount(db.store)) >= target ? true : (await done()) ? false : undefined), 600_000, 20);
    };
    const landed: string[] = [];
    const killWorker = async () => {
      const i = Math.floor(random() * workers.length);
      const victim = workers.splice(i, 1)[0]!;
      victim.child.kill('SIGKILL');
      await victim.exited;
      workers.push(await spawnWorker(env, 2).then(track));
    };

    if (await after(10, 30)) {
      await killWorker();
      landed.push('worker');
    }
    if (await after(10, 30)) {
      await faults.terminate();
      landed.push('connections');
    }
    if (await after(10, 30)) {
      // The coordinating node dies; the other node's sweep takes the tournament over once the lease expires.
      nodeA.child.kill('SIGKILL');
      await nodeA.exited;
      landed.push('coordinator node');
    }
    if (await after(10, 30)) {
      await faults.refuse();
      await faults.terminate();
      await new Promise((r) => setTimeout(r, PAUSE_MS));
      await faults.allow();
      landed.push('database pause');
    }
    if (await after(5, 20)) {
      await killWorker();
      landed.push('worker');
    }
    // A schedule that mostly missed its game tests little: the seed is chosen so that all land.
    expect(landed).toEqual(['worker', 'connections', 'coordinator node', 'database pause', 'worker']);

    await until('the tournament to end', async () => ((await done()) ? true : undefined), 900_000, 500);
    await joinNew();
    const games = await db.store.tournaments.games(tournamentId);
    expect(games.length).toBe(12);
    expect(games.filter((g) => g.state !== 'ended').map((g) => ({ id: g.game_id, status: g.status, error: g.error }))).toEqual([]);
    for (const g of games) {
      const stored = await db.store.getGame(g.game_id);
      expect((await verifyGame(db.store, g.game_id)).assertions.filter((a) => a.status !== 'pass'), g.game_id).toEqual([]);
      const rows = (await db.store.prisma.$queryRaw<Array<{ n: bigint; d: bigint; lo: number; hi: number }>>`SELECT count(*) AS n, count(DISTINCT seq) AS d, min(seq) AS lo, max(seq) AS hi FROM events WHERE game_id = ${g.game_id}`)[0]!;
      // Every seq 1..last_seq once: nothing missing, nothing twice.
      expect({ id: g.game_id, n: Number(rows.n), d: Number(rows.d), lo: rows.lo, hi: rows.hi }).toEqual({ id: g.game_id, n: stored.last_seq, d: stored.last_seq, lo: 1, hi: stored.last_seq });
      // The spectator's stream of the game: contiguous from 1 to its end, each seq once.
      const spectator = await spectators.get(g.game_id)!;
      const seqsOf = () => spectator.events.filter((e) => e.event.game_id === g.game_id).map((e) => e.seq);
      const reached = await until(`the spectator to reach the end of ${g.game_id}`, () => Promise.resolve(spectator.events.some((e) => e.event.game_id === g.game_id && e.event.type === 'game_ended') ? true : undefined), 60_000, 50).catch(() => false);
      // Said in full when it did not: what the socket got besides events, and how far the game's events came.
      const other = spectator.log.filter((m) => m.name !== 'event' && m.name !== 'heartbeat' && m.name !== 'state_hash' && JSON.stringify(m.data).includes(g.game_id)).map((m) => `${m.name} ${JSON.stringify(m.data).slice(0, 300)}`);
      expect(reached, `${g.game_id}: connected ${spectator.socket.connected}, seqs ${seqsOf().length} up to ${seqsOf().at(-1)} of ${stored.last_seq}; ${other.join(' | ')}`).toBe(true);
      const seqs = seqsOf();
      expect(seqs, g.game_id).toEqual(seqs.map((_, i) => i + 1));
      expect(seqs.length, g.game_id).toBe(stored.last_seq);
    }

    // The standings of the same tournament played undisturbed, in one process on a fresh embedded database.
    const served = (await (await fetch(`${nodeB.url}/tournaments/${tournamentId}`)).json()) as { standings: Standing[] };
    const dir = mkdtempSync(join(tmpdir(), 'tiltyard-undisturbed-'));
    cleanup.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
    const undisturbed = await tiltyardWith({ env: { TILTYARD_DATA_DIR: dir, DATABASE_URL: undefined, REDIS_URL: undefined } }, 'tournament', '--agents', TOURNAMENT.entrants.join(','), '--seats', '2', '--seeds', '1', '--seed', String(TOURNAMENT.seed), '--compact', '--json');
    expect(undisturbed.code, undisturbed.stderr).toBe(0);
    const reference = JSON.parse(undisturbed.stdout) as { standings: Standing[] };
    expect(comparable(served.standings)).toEqual(comparable(reference.standings));
  }, 1_500_000);
});
