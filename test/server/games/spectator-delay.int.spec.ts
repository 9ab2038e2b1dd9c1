import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delayedHead, holdBackOfGame } from '../../../src/server/games/spectator-delay.js';
import type { EventStore, GameRecord } from '../../../src/store/index.js';
import { openPgliteStore, playGame, type TestStore } from '../../store/support.js';
import { GameLogService } from '../../../src/server/games/game-log.service.js';
import { GameBus } from '../../../src/live/game-bus.js';

/**
 * The delayed head of a game hot and after compaction: its rows leave `events` when it is
 * compacted, and the rules must still find its late events (in cold_segments).
 */
describe('delayedHead over hot and compacted games', () => {
  let t: TestStore;
  let store: EventStore;
  beforeAll(async () => {
    t = await openPgliteStore();
    store = t.store;
  });
  afterAll(async () => {
    await t?.dispose();
  });

  /** A short ended game stored with wall-clock stamps from `start`, one ms apart, with these options. */
  async function stored(options: Record<string, unknown>, tag: string): Promise<GameRecord> {
    const game = playGame(3, { tag, rules: { round_cap: 3 } });
    const start = Date.now();
    let n = 0;
    await store.createGame({ seed: game.seed, config: game.config, options });
    for (const s of game.steps) {
      const events = s.events.map((e) => ({ ...e, ts: new Date(start + n).toISOString() }));
      n++;
      await store.append(game.gameId, s.expected, events);
    }
    return store.getGame(game.gameId);
  }

  it('given an ended game ten minutes behind, then its delayed audience sees none of it, hot or compacted', async () => {
    const game = await stored({ spectator_delay_ms: 600_000 }, 'delay_cold');
    const hold = holdBackOfGame(game);
    expect(await delayedHead(store, game, hold, Date.now())).toBe(0);
    expect(await store.compact(game.game_id)).toBe('compacted');
    const cold = await store.getGame(game.game_id);
    expect(await delayedHead(store, cold, hold, Date.now())).toBe(0);
    // Past the delay, all of it.
    expect(await delayedHead(store, cold, hold, Date.now() + 700_000)).toBe(cold.last_seq);
  });

  it('given a running broadcast held a round back, then the round rule cuts at the same seq hot and compacted-alike reads', async () => {
    const game = await stored({ spectators: 'broadcast' }, 'round_cold');
    // As a still-running game: the round rule applies (an ended one releases everything).
    const running = { ...game, status: 'running' as const };
    const hot = await delayedHead(store, running, holdBackOfGame(game), Date.now());
    expect(hot).toBeLessThan(game.last_seq);
    await store.compact(game.game_id);
    expect(await delayedHead(store, { ...(await store.getGame(game.game_id)), status: 'running' }, holdBackOfGame(game), Date.now())).toBe(hot);
  });

  it('given a delayed ended game, then an anonymous win-probability curve is empty within the delay and whole after it, hot and compacted alike, while an admin’s is whole at once', async () => {
    const game = await stored({ spectator_delay_ms: 600_000 }, 'wp_cold');
    const at = (now: number) => new GameLogService(store, new GameBus(), () => now);
    const within = await at(Date.now()).winProbability(game.game_id, 'spectator', {});
    expect(within).toMatchObject({ last_seq: 0, form: 'public', points: [] });
    const after = await at(Date.now() + 700_000).winProbability(game.game_id, 'spectator', {});
    expect(after.last_seq).toBe(game.last_seq);
    expect(after.points.at(-1)?.seq).toBe(game.last_seq);
    const admin = await at(Date.now()).winProbability(game.game_id, 'admin', {});
    expect(admin).toMatchObject({ last_seq: game.last_seq, form: 'omniscient' });
    expect(await store.compact(game.game_id)).toBe('compacted');
    expect(await at(Date.now()).winProbability(game.game_id, 'spectator', {})).toMatchObject({ last_seq: 0, points: [] });
    expect(await at(Date.now() + 700_000).winProbability(game.game_id, 'spectator', {})).toEqual(after);
    expect(await at(Date.now()).winProbability(game.game_id, 'admin', {})).toEqual(admin);
  });
});
