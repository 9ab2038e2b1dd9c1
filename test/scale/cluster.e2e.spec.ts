import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyGame } from '../../src/runner/verify-game.js';
import { ADMIN, Watcher } from '../server/spectate-support.js';
import { openPostgresStore, postgresAvailable, type TestStore } from '../store/support.js';
import { freshPrefix, spawnNode, spawnWorker, stop, until, type Proc } from './support.js';

/**
 * The scaled-out deployment for real: two API nodes (`tiltyard serve`) and three workers
 * (`tiltyard worker`), all spawned over dist/, sharing a fresh PostgreSQL database and the
 * machine's Redis under a queue prefix of their own. Games run only on the workers; spectators
 * may be on either node.
 */
const REDIS = process.env['TILTYARD_TEST_REDIS'] ?? 'redis://127.0.0.1:6379';
const pgUp = await postgresAvailable();

describe.skipIf(!pgUp)('2 API nodes and 3 workers over Redis and PostgreSQL', () => {
  let db: TestStore & { url: string };
  let env: Record<string, string>;
  const nodes: Array<Proc & { url: string }> = [];
  const workers: Proc[] = [];

  beforeAll(async () => {
    db = await openPostgresStore();
    env = { DATABASE_URL: db.url, REDIS_URL: REDIS, TILTYARD_QUEUE_PREFIX: freshPrefix('cluster'), TILTYARD_ADMIN_TOKEN: ADMIN, TILTYARD_PACE_MS: '0' };
    // The database is migrated (openPostgresStore did it): the processes start without racing to.
    nodes.push(...(await Promise.all([spawnNode(env), spawnNode(env)])));
    workers.push(...(await Promise.all([spawnWorker(env, 4), spawnWorker(env, 4), spawnWorker(env, 4)])));
    // Five Node processes starting on a loaded 2-core machine: a hang detector, not a speed check.
  }, 900_000);

  afterAll(async () => {
    const exits = await Promise.all([...workers, ...nodes].map((p) => stop(p)));
    await db?.dispose();
    // SIGTERM: each finished or parked its games and exited cleanly.
    expect(exits.map((e) => e?.code)).toEqual(exits.map(() => 0));
  }, 300_000);

  const post = async (node: { url: string }, path: string, body: unknown) => {
    const res = await fetch(`${node.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    return JSON.parse(text) as Record<string, unknown>;
  };

  it('reports Redis, the queue and the workers on /health and /stats', async () => {
    const health = (await (await fetch(`${nodes[1]!.url}/health`)).json()) as { status: string; scale: { redis: { ok: boolean }; workers: number } };
    expect(health.status).toBe('ok');
    expect(health.scale.redis.ok).toBe(true);
    const stats = await until('3 workers on /stats', async () => {
      const s = (await (await fetch(`${nodes[0]!.url}/stats`)).json()) as { mode: string; workers: number; queue_depth: number; active_games: number };
      return s.workers === 3 ? s : undefined;
    });
    expect(stats).toMatchObject({ mode: 'workers', workers: 3 });
    expect(stats.queue_depth).toBeGreaterThanOrEqual(0);
  });

  it('runs a 60-game tournament to completion on the workers; every game verifies', async () => {
    const t = await post(nodes[0]!, '/tournaments', { format: 'round-robin', entrants: ['balanced', 'aggressor', 'turtle', 'manipulator'], seats: 2, seeds: 5, compact: true, seed: 11, pace_ms: 0 });
    const id = String(t['tournament_id']);
    const view = await until(
      'the tournament to end',
      async () => {
        const v = (await (await fetch(`${nodes[1]!.url}/tournaments/${id}`)).json()) as { status: string; games: Array<{ game_id: string; state: string }> };
        return v.status === 'ended' ? v : undefined;
      },
      900_000,
      1000,
    );
    const games = await db.store.tournaments.games(id);
    expect(games.length).toBe(60);
    // Named with their status and error, so a game the tournament did not count says why.
    expect(games.filter((g) => g.state !== 'ended').map((g) => ({ game_id: g.game_id, status: g.status, state: g.state, error: g.error }))).toEqual([]);
    for (const g of games) expect((await verifyGame(db.store, g.game_id)).assertions.filter((a) => a.status !== 'pass'), g.game_id).toEqual([]);
    // Every game was played by a worker: no API node ran one.
    for (const n of nodes) expect(n.output()).not.toMatch(/"msg":"game (started|resumed)"/);
    expect(view.games.length).toBe(60);
  }, 1_500_000);

  it('a spectator on node A follows a worker-run game with contiguous seqs, moves to node B mid-game, and misses or repeats nothing', async () => {
    const game = await post(nodes[0]!, '/games', { agents: ['balanced', 'aggressor', 'turtle', 'manipulator'], pace_ms: 60 });
    const gameId = String(game['game_id']);
    const a = await Watcher.connect(`${nodes[0]!.url}`);
    a.join({ gameId, afterSeq: 0 });
    await until('a few live steps on node A', () => Promise.resolve(a.last >= 12 ? true : undefined), 120_000, 20);
    const seqsA = a.seqs;
    a.close();
    const moved = seqsA.at(-1)!;
    const b = await Watcher.connect(`${nodes[1]!.url}`);
    b.join({ gameId, afterSeq: moved });
    await b.ended(300_000);
    const all = [...seqsA, ...b.seqs];
    expect(all).toEqual(all.map((_, i) => i + 1));
    const stored = await db.store.getGame(gameId);
    expect(stored.status).toBe('ended');
    expect(all.length).toBe(stored.last_seq);
    expect(b.seqs[0]).toBe(moved + 1);
    // Node B's part was live, not only backfill: the game was still running when it joined.
    expect(b.seqs.length).toBeGreaterThan(0);
    b.close();
  }, 600_000);
});
