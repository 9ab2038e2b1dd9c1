import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceCache } from '../../src/server/games/trace-cache.js';
import type { EventStore, GameRecord } from '../../src/store/index.js';
import { logicalInputClock } from '../../src/runner/input-clock.js';
import { runPersistent } from '../../src/runner/persistent-runner.js';
import { freshGameId, openPgliteStore, type TestStore } from '../store/support.js';

/** A short ended game of built-ins (none of whose traces is stored), played and stored step by step. */
async function storeBuiltinGame(store: EventStore): Promise<GameRecord> {
  const game = { seed: 31, agents: ['balanced', 'trickster', 'random'], gameId: freshGameId('trace_cache'), rules: { round_cap: 2 } };
  expect((await runPersistent(store, game, { clock: logicalInputClock })).status).toBe('ended');
  return store.getGame(game.gameId);
}

/** The store, counting how often traces are read from it (once per remake). */
function countingReads(store: EventStore) {
  let n = 0;
  const counting = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'readTraces') n++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { counting, reads: () => n };
}

describe('TraceCache (ended games\' remade traces)', () => {
  let t: TestStore;
  let store: EventStore;
  let game: GameRecord;
  beforeAll(async () => {
    t = await openPgliteStore();
    store = t.store;
    game = await storeBuiltinGame(store);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('given an ended game, when its traces are asked for twice at once and again later, then they are remade once and read alike', async () => {
    const { counting, reads } = countingReads(store);
    const cache = new TraceCache(counting);
    const [a, b] = await Promise.all([cache.traces(game), cache.traces(game)]);
    const c = await cache.traces(game, 'plr_2');
    expect(reads()).toBe(1);
    expect(a.length).toBeGreaterThan(0);
    expect(b).toBe(a);
    expect(c).toEqual(a.filter((x) => x.player_id === 'plr_2'));
    expect(c.length).toBeGreaterThan(0);
  });

  it('given more ended games than it keeps, then the oldest is remade when asked again', async () => {
    const { counting, reads } = countingReads(store);
    const cache = new TraceCache(counting, 1);
    const other = await storeBuiltinGame(store);
    await cache.traces(game);
    await cache.traces(other);
    await cache.traces(other);
    expect(reads()).toBe(2);
    await cache.traces(game);
    expect(reads()).toBe(3);
  });
});
