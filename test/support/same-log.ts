import { expect } from 'vitest';
import { logicalInputClock } from '../../src/runner/input-clock.js';
import { createPersistentGame, resumePersistent } from '../../src/runner/persistent-runner.js';
import { configOf, seatAgentNames } from '../../src/runner/stored-game.js';
import type { GameEvent } from '../../src/protocol/index.js';
import type { EventStore } from '../../src/store/index.js';
import { openPgliteStore } from '../store/support.js';

/** A game's whole log, hot or cold, in seq order. */
export async function logOf(store: EventStore, gameId: string): Promise<GameEvent[]> {
  const events: GameEvent[] = [];
  for (let page = await store.read(gameId, 0, 1000); page.length; page = await store.read(gameId, events.at(-1)!.seq, 1000)) events.push(...page);
  return events;
}

/**
 * Each game played again uninterrupted from its seed under the same id, with the logical clock, in
 * a fresh in-memory store: the stored log must be that one byte for byte (its events as JSON and
 * its head hash). What a game killed, resumed, taken over or disturbed any other way must come to.
 */
export async function expectSameAsUninterrupted(store: EventStore, gameIds: readonly string[]): Promise<void> {
  const ref = await openPgliteStore();
  try {
    for (const id of gameIds) {
      const game = await store.getGame(id);
      await createPersistentGame(ref.store, { gameId: id, seed: game.seed, agents: seatAgentNames(game), rules: configOf(game).rules ?? {} });
      await resumePersistent(ref.store, id, { clock: logicalInputClock });
      const again = await ref.store.getGame(id);
      expect({ id, seq: game.last_seq, hash: game.last_hash }).toEqual({ id, seq: again.last_seq, hash: again.last_hash });
      expect(JSON.stringify(await logOf(store, id)), id).toBe(JSON.stringify(await logOf(ref.store, id)));
    }
  } finally {
    await ref.dispose();
  }
}
