import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonLogger } from '../../../src/lib/json-logger.js';
import { GameCompactor } from '../../../src/server/games/game-compactor.js';
import type { EventStore } from '../../../src/store/index.js';
import { openPgliteStore, persist, playGame, type Played, type TestStore } from '../../store/support.js';
import { until } from '../spawn-server.js';

const RETRY_MS = 20;

describe('GameCompactor (background compaction of ended games, PGlite)', () => {
  let t: TestStore;
  let store: EventStore;
  const games: Played[] = [];
  const hot = new Map<string, string>();
  const lines: Array<{ level: string; msg: string; failed?: Array<{ game_id: string }> }> = [];
  let sweeps = 0;
  let compactor: GameCompactor;

  const read = async (id: string) => JSON.stringify({ events: await store.read(id, 0, 100_000), actions: await store.readActions(id) });
  const cold = async (id: string) =>
    (await store.prisma.$queryRawUnsafe<Array<{ cold: boolean }>>(`SELECT compacted_at IS NOT NULL AS cold FROM games WHERE game_id = $1`, id))[0]!.cold;
  // One event's ts altered breaks the game's chain (compaction refuses it); the second call restores it.
  const tamper = (id: string, ts: string) => store.prisma.$executeRawUnsafe(`UPDATE events SET ts = $2::timestamptz WHERE game_id = $1 AND seq = 3`, id, ts);

  beforeAll(async () => {
    t = await openPgliteStore();
    store = t.store;
    for (const seed of [41, 42, 43]) {
      const game = playGame(seed, { tag: 'compactor' });
      await persist(store, game);
      games.push(game);
      hot.set(game.gameId, await read(game.gameId));
    }
    // Counts sweeps, so the test waits for a retry rather than for time to pass.
    const counted = { compact: (id: string) => store.compact(id), compactEnded: (o?: Parameters<EventStore['compactEnded']>[0]) => (sweeps++, store.compactEnded(o)) };
    compactor = new GameCompactor(counted, new JsonLogger('debug', (line) => lines.push(JSON.parse(line) as (typeof lines)[number])), RETRY_MS);
  });
  afterAll(async () => {
    await compactor?.close();
    await t?.dispose();
  });

  it('given an ended game queued, then it is compacted in the background and reads the same', async () => {
    const [a] = games;
    compactor.enqueue(a!.gameId);
    await compactor.idle();
    expect(await cold(a!.gameId)).toBe(true);
    expect(await read(a!.gameId)).toBe(hot.get(a!.gameId));
    expect(await store.verifyChain(a!.gameId)).toBeNull();
  });

  it('given a sweep with one game that does not verify, then the others are compacted, the failure is logged and swept again with a backoff until it compacts', async () => {
    const [, b, c] = games;
    const [row] = await store.prisma.$queryRawUnsafe<Array<{ ts: string }>>(`SELECT ts::text AS ts FROM events WHERE game_id = $1 AND seq = 3`, c!.gameId);
    const ts = row!.ts;
    await tamper(c!.gameId, '2001-01-01T00:00:00Z');
    compactor.sweep();
    // A first failed sweep and its retry: the delay doubles per failure in a row.
    await until('a retried sweep that failed again', () => Promise.resolve(lines.filter((l) => l.level === 'error').length >= 2 ? true : undefined), 30_000, 5);
    expect(await cold(b!.gameId)).toBe(true);
    expect(await cold(c!.gameId)).toBe(false);
    const errors = lines.filter((l) => l.level === 'error');
    expect(errors[0]!.msg).toBe(`cannot compact 1 ended game(s); trying again in ${RETRY_MS} ms`);
    expect(errors[0]!.failed?.map((f) => f.game_id)).toEqual([c!.gameId]);
    expect(errors[1]!.msg).toBe(`cannot compact 1 ended game(s); trying again in ${RETRY_MS * 2} ms`);

    await tamper(c!.gameId, ts);
    const before = sweeps;
    await until('the game compacted by a later sweep', async () => ((await cold(c!.gameId)) ? true : undefined), 30_000, 5);
    expect(sweeps).toBeGreaterThan(before);
    for (const g of games) expect(await read(g.gameId), g.gameId).toBe(hot.get(g.gameId));
    expect(await store.verifyChain(c!.gameId)).toBeNull();
  });

  it('given it is closed, then it takes no more work', async () => {
    await compactor.close();
    const before = sweeps;
    compactor.sweep();
    compactor.enqueue(games[0]!.gameId);
    await compactor.idle();
    expect(sweeps).toBe(before);
  });
});
