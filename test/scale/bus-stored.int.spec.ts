import { afterEach, describe, expect, it } from 'vitest';
import { decodeBusMessage, encodeBusMessage, type StoredBatch } from '../../src/scale/bus-channel.js';
import { RedisGameBus } from '../../src/scale/redis-bus.js';
import type { GameEvent } from '../../src/protocol/index.js';
import type { CommittedStep } from '../../src/live/game-bus.js';
import { freshPrefix } from './support.js';

/**
 * A game stored whole crosses the Redis bus as a notice without its events: a node reads the
 * events from the store only for games its spectators follow, and delivers them to them as one
 * step; a coordinator only hears the notice. On the machine's Redis, under a prefix of its own.
 * Messages on one channel arrive in publish order, so "not read" is checked by a later message
 * having arrived, never by waiting.
 */
const REDIS = process.env['TILTYARD_TEST_REDIS'] ?? 'redis://127.0.0.1:6379';
const buses: RedisGameBus[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((b) => b.close()));
});

const event = (gameId: string, seq: number): GameEvent => ({ game_id: gameId, seq, type: 'test_event', event_id: `evt_${seq}` }) as unknown as GameEvent;
const batch = (gameId: string, last: number): StoredBatch => ({ game_id: gameId, first_seq: 1, last_seq: last, committed_at: 1_700_000_000_000, ended: true });

async function pair(readStored?: (gameId: string, afterSeq: number, lastSeq: number) => Promise<GameEvent[]>) {
  const settings = { redisUrl: REDIS, prefix: freshPrefix('stored') };
  const problems: string[] = [];
  const node = new RedisGameBus(settings, { listen: true, onProblem: (m) => problems.push(m), ...(readStored ? { readStored } : {}) });
  const worker = new RedisGameBus(settings, { listen: false });
  buses.push(node, worker);
  await Promise.all([node.start(), worker.start()]);
  return { node, worker, problems };
}

/** The next step the bus delivers for the game. */
const nextStep = (bus: RedisGameBus, gameId: string) =>
  new Promise<CommittedStep>((resolve) => {
    const off = bus.subscribe(gameId, (s) => {
      off();
      resolve(s);
    });
  });

describe('stored batches on the Redis bus', () => {
  it('a watched game gets its events read from the store and delivered as one step; an unwatched one is never read', async () => {
    const reads: string[] = [];
    const { node, worker } = await pair((gameId, after, last) => {
      reads.push(`${gameId} ${after}..${last}`);
      return Promise.resolve(Array.from({ length: last - after }, (_, i) => event(gameId, after + i + 1)));
    });
    const heard: StoredBatch[] = [];
    node.onStored('game_watched', (b) => heard.push(b));
    const step = nextStep(node, 'game_watched');
    worker.publishStored(batch('game_unwatched', 700));
    worker.publishStored(batch('game_watched', 3));
    const got = await step;
    expect(got).toEqual({ game_id: 'game_watched', last_seq: 3, committed_at: 1_700_000_000_000, events: [1, 2, 3].map((s) => event('game_watched', s)) });
    expect(heard).toEqual([batch('game_watched', 3)]);
    // The unwatched game's notice came first on the channel: it was handled, and not read.
    expect(reads).toEqual(['game_watched 0..3']);
  });

  it('a read that fails (or comes back short) makes every feed resync from the store, with a problem logged', async () => {
    const { node, worker, problems } = await pair((gameId) => Promise.resolve([event(gameId, 1)]));
    const unwatch = node.subscribe('game_short', () => {
      throw new Error('a short read must not be delivered');
    });
    const resynced = new Promise<void>((resolve) => node.onResync(resolve));
    worker.publishStored(batch('game_short', 2));
    await resynced;
    unwatch();
    expect(problems).toEqual(['cannot read a stored batch announced on the bus; feeds backfill from the store']);
  });

  it('without a reader (a coordinator), step listeners hear nothing and stored listeners hear the notice', async () => {
    const { node, worker } = await pair();
    const steps: CommittedStep[] = [];
    node.subscribe('game_a', (s) => steps.push(s));
    const heard = new Promise<StoredBatch>((resolve) => node.onStored('game_a', resolve));
    worker.publishStored(batch('game_a', 9));
    expect(await heard).toEqual(batch('game_a', 9));
    expect(steps).toEqual([]);
  });

  it('decoding checks the notice: a batch that ends before it starts is refused', () => {
    expect(decodeBusMessage(encodeBusMessage({ kind: 'stored', ...batch('game_a', 4) }))).toEqual({ kind: 'stored', ...batch('game_a', 4) });
    expect(decodeBusMessage(JSON.stringify({ kind: 'stored', ...batch('game_a', 4), first_seq: 5 }))).toEqual({ error: 'first_seq 5 is after last_seq 4' });
    expect(decodeBusMessage(JSON.stringify({ kind: 'stored', game_id: 'game_a', first_seq: 1, last_seq: 4, committed_at: 1 }))).toHaveProperty('error');
  });
});
