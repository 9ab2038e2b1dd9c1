import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersistentGame, MAX_RUN_FAILURES, resumePersistent, runPersistent } from '../../src/runner/persistent-runner.js';
import { GameFailedError } from '../../src/runner/runner-errors.js';
import { logicalClock } from '../../src/runner/clock.js';
import type { EventStore } from '../../src/store/index.js';
import { openPostgresStore, postgresAvailable, type TestStore } from '../store/support.js';

const pgUp = await postgresAvailable();

/** The fault boundary's bookkeeping on a real PostgreSQL: failures in a row, then `failed`. */
describe.skipIf(!pgUp)('runner failures in a row', () => {
  let t: TestStore;
  let store: EventStore;
  beforeAll(async () => {
    t = await openPostgresStore();
    store = t.store;
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('given a game whose stored config no longer parses, then each resume fails and is counted with its reason, the third marks it failed, and a fourth refuses to run it', async () => {
    const gameId = await createPersistentGame(store, { seed: 11, agents: ['balanced', 'turtle'] });
    await store.prisma.$executeRaw`UPDATE games SET config = jsonb_set(config, '{rules}', '{"lives": "many"}') WHERE game_id = ${gameId}`;

    for (let attempt = 1; attempt <= MAX_RUN_FAILURES; attempt++) {
      await expect(resumePersistent(store, gameId, { seats: { trace: false } })).rejects.toThrow();
      const g = await store.getGame(gameId);
      expect(g.run_failures).toBe(attempt);
      expect(g.failure_reason).toMatch(/lives/);
      expect(g.status).toBe(attempt < MAX_RUN_FAILURES ? 'created' : 'failed');
    }
    const failed = await store.getGame(gameId);
    expect(failed.ended_at).not.toBeNull();
    const again = resumePersistent(store, gameId);
    await expect(again).rejects.toBeInstanceOf(GameFailedError);
    await expect(again).rejects.toThrow(/failed \(.*lives.*\); it is not resumed/);
    expect((await store.getGame(gameId)).run_failures).toBe(MAX_RUN_FAILURES);
    const listed = await store.listGames({ status: 'failed' });
    expect(listed.games.map((g) => g.game_id)).toContain(gameId);
  });

  it('given failures recorded before an attempt that commits a step, then the count goes back to 0 (they were not in a row) and the reason stays as history', async () => {
    const gameId = await createPersistentGame(store, { seed: 12, agents: ['balanced', 'turtle'] });
    await store.recordRunFailure(gameId, 'a database hiccup', MAX_RUN_FAILURES);
    await store.recordRunFailure(gameId, 'another hiccup', MAX_RUN_FAILURES);
    expect((await store.getGame(gameId)).run_failures).toBe(2);
    const out = await runPersistent(store, { gameId, seed: 12, agents: ['balanced', 'turtle'] }, { clock: logicalClock() });
    expect(out.status).toBe('ended');
    const g = await store.getGame(gameId);
    expect(g).toMatchObject({ status: 'ended', run_failures: 0, failure_reason: 'another hiccup' });
  });

  it('given a game that has ended, then recording a failure leaves it alone', async () => {
    const gameId = await createPersistentGame(store, { seed: 13, agents: ['random', 'random'] });
    await resumePersistent(store, gameId, { clock: logicalClock() });
    for (let i = 0; i < MAX_RUN_FAILURES; i++) await store.recordRunFailure(gameId, 'late', MAX_RUN_FAILURES);
    expect(await store.getGame(gameId)).toMatchObject({ status: 'ended', run_failures: 0, failure_reason: null });
  });
});
