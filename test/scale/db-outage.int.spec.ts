import { afterEach, describe, expect, it } from 'vitest';
import { verifyGame } from '../../src/runner/verify-game.js';
import type { EventStore } from '../../src/store/index.js';
import { ADMIN_URL, openPostgresStore, postgresAvailable } from '../store/support.js';
import { databaseFaults, freshPrefix, spawnTiltyard, spawnWorker, stop, until, type Proc } from './support.js';

/**
 * The outage of issue 25, for real: one worker, a four-game tournament committed step by step,
 * and its database refusing every connection for ten seconds (allow_connections false, every
 * backend terminated) in the middle. Games pause and wait it out; nothing fails.
 */
const REDIS = process.env['TILTYARD_TEST_REDIS'] ?? 'redis://127.0.0.1:6379';
const pgUp = await postgresAvailable();
const OUTAGE_MS = 10_000;

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
});

const eventCount = async (store: EventStore): Promise<number> => Number((await store.prisma.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM events`)[0]!.n);

describe.skipIf(!pgUp)('a database outage', () => {
  it('given a 10 s outage mid-tournament (connections refused, backends terminated), then every game ends and verifies, the coordinator lives and exits 0', async () => {
    const db = await openPostgresStore();
    cleanup.push(() => db.dispose());
    const faults = await databaseFaults(ADMIN_URL, db.url);
    cleanup.push(() => faults.close());
    const env = { DATABASE_URL: db.url, REDIS_URL: REDIS, TILTYARD_QUEUE_PREFIX: freshPrefix('outage'), TILTYARD_LOG: 'warn' };
    const worker: Proc = await spawnWorker(env, 1);
    cleanup.push(() => stop(worker, 'SIGKILL'));
    const coordinator = await spawnTiltyard(
      ['tournament', '--agents', 'balanced,aggressor', '--seats', '2', '--seeds', '2', '--seed', '11', '--compact', '--clock', 'logical', '--commit', 'step', '--json'],
      env,
      /the games are queued/,
    );
    cleanup.push(() => stop(coordinator, 'SIGKILL'));

    // Mid-game: some steps stored, the tournament not over.
    await until('a first game under way', async () => ((await eventCount(db.store)) >= 30 ? true : undefined), 600_000, 20);
    await faults.refuse();
    const killed = await faults.terminate();
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    await faults.allow();

    const exit = await coordinator.exited;
    const out = coordinator.output();
    expect(exit.code, out.slice(-3000)).toBe(0);
    const result = JSON.parse(/^\{.*\}$/m.exec(out)![0]) as { tournament_id: string; games: number; failed: number };
    expect(result).toMatchObject({ games: 4, failed: 0 });
    // It was a real outage: backends died, and the worker, whose game was mid-step, said what it
    // waited for and when the database was back (the coordinator may not have needed it meanwhile).
    expect(killed).toBeGreaterThan(0);
    expect(worker.output()).toMatch(/waiting for the database: \w+ failed \(.*not currently accepting connections|terminating connection/);
    expect(worker.output()).toMatch(/the database is back/);
    for (const g of await db.store.tournaments.games(result.tournament_id)) {
      const game = await db.store.getGame(g.game_id);
      expect(game.status, g.game_id).toBe('ended');
      expect(game.run_failures, g.game_id).toBe(0);
      expect((await verifyGame(db.store, g.game_id)).assertions.filter((a) => a.status !== 'pass'), g.game_id).toEqual([]);
    }
  }, 900_000);
});
