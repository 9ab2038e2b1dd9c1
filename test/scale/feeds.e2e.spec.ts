import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonLogger } from '../../src/lib/json-logger.js';
import { startGameWorker, type GameWorker } from '../../src/scale/worker.js';
import { serverSettings } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { ADMIN, createGame, Watcher } from '../server/spectate-support.js';
import { openPostgresStore, postgresAvailable, type TestStore } from '../store/support.js';
import { freshPrefix, until } from './support.js';

/**
 * Two API nodes over one PostgreSQL and one Redis (a queue prefix of their own), games played by a
 * worker: a spectator gets the same bytes for every event whichever node it watches from and
 * whichever way the node got the event. Node A's spectators join before the worker starts, so they
 * hear every event across the Redis bus; node B starts mid-game, so its spectators read the first
 * part from the store and hear the rest on the bus. The raw socket.io frames each client receives
 * are compared byte for byte (all but the per-node `committed_at` and `sent_at` of event frames),
 * and the events in them against the REST log's bytes for the same role.
 */
const REDIS = process.env['TILTYARD_TEST_REDIS'] ?? 'redis://127.0.0.1:6379';
const pgUp = await postgresAvailable();
const silent = new JsonLogger('silent');

/** A Watcher that also keeps the raw frames of its game (socket.io packets as engine.io delivered them, before any parsing). */
class FrameWatcher {
  readonly frames: string[] = [];

  private constructor(readonly watcher: Watcher) {
    watcher.socket.io.engine.on('packet', (p: { type: string; data?: unknown }) => {
      if (p.type === 'message' && typeof p.data === 'string' && /^2\/spectate,\["(event|state_hash|snapshot)"/.test(p.data)) this.frames.push(p.data);
    });
  }

  static async join(url: string, gameId: string, token?: string): Promise<FrameWatcher> {
    const w = new FrameWatcher(await Watcher.connect(url, token ? { auth: { token } } : {}));
    w.watcher.join({ gameId, afterSeq: 0 });
    await w.watcher.next('snapshot');
    return w;
  }

  /** The frames with what each node stamps on an event frame itself (committed_at, sent_at) cut off. */
  get stream(): string[] {
    return this.frames.map((f) => (f.startsWith('2/spectate,["event"') ? f.slice(0, f.lastIndexOf(',"committed_at":')) : f));
  }

  /** Each event as the bytes the frame carried. */
  get events(): string[] {
    const marker = ',"event":';
    return this.frames.filter((f) => f.startsWith('2/spectate,["event"')).map((f) => f.slice(f.indexOf(marker) + marker.length, f.lastIndexOf(',"committed_at":')));
  }
}

/** The game's log as REST gives it to a role (anonymous: the public), each event as the bytes of the response. */
async function restEvents(node: RunningServer, gameId: string, lastSeq: number, token?: string): Promise<string[]> {
  const out: string[] = [];
  for (let after = 0; after < lastSeq; ) {
    const res = await fetch(`${node.url}/games/${gameId}/events?after=${after}&limit=1000`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const page = JSON.parse(text) as { events: Array<{ seq: number }>; next_after: number };
    if (page.events.length === 0) return out;
    // Split the response's own text at the events' boundaries (their JSON lengths), so these are its bytes.
    let at = text.indexOf('"events":[') + '"events":['.length;
    for (const e of page.events) {
      const n = JSON.stringify(e).length;
      out.push(text.slice(at, at + n));
      at += n + 1;
    }
    after = page.next_after;
  }
  return out;
}

describe.skipIf(!pgUp)('two API nodes send every spectator the same bytes', () => {
  let db: TestStore & { url: string };
  let env: Record<string, string>;
  const nodes: RunningServer[] = [];
  const watchers: FrameWatcher[] = [];
  let worker: GameWorker | undefined;

  const startNode = async () => {
    const node = await createServer(serverSettings(env), { logger: silent });
    nodes.push(node);
    return node;
  };

  beforeAll(async () => {
    db = await openPostgresStore();
    env = {
      PORT: '0',
      DATABASE_URL: db.url,
      REDIS_URL: REDIS,
      TILTYARD_QUEUE_PREFIX: freshPrefix('feeds'),
      TILTYARD_DEMO: 'off',
      TILTYARD_ADMIN_TOKEN: ADMIN,
      TILTYARD_LOG: 'silent',
      TILTYARD_HASH_EVERY: '10',
    };
  }, 300_000);

  afterAll(async () => {
    for (const w of watchers) w.watcher.close();
    await worker?.close();
    for (const n of nodes) await n.close();
    await db?.dispose();
  }, 300_000);

  it('a live game and a delayed one: public and admin streams on node A (all from the bus) and node B (store, then bus) are byte-identical, and their events are the REST log’s bytes', async () => {
    const a = await startNode();
    const games = {
      live: await createGame(a, { agents: ['balanced', 'aggressor', 'turtle', 'manipulator'], seed: 21, pace_ms: 20, rules: { round_cap: 3 } }),
      delayed: await createGame(a, { agents: ['trickster', 'balanced', 'aggressor'], seed: 22, pace_ms: 20, spectator_delay_ms: 300, rules: { round_cap: 3 } }),
    };
    const roles = { public: undefined, admin: ADMIN };
    const onA = new Map<string, FrameWatcher>();
    for (const [g, id] of Object.entries(games)) for (const [r, token] of Object.entries(roles)) onA.set(`${g} ${r}`, await FrameWatcher.join(a.url, id, token));
    watchers.push(...onA.values());

    // Nothing has played yet: node A's spectators hear every event on the bus.
    worker = await startGameWorker({ settings: { redisUrl: REDIS, prefix: env['TILTYARD_QUEUE_PREFIX']! }, store: db.store, logger: silent, concurrency: 2, lockMs: 30_000 });
    await until('20 events of each game on node A', () => Promise.resolve([...onA.values()].every((w) => w.watcher.last >= 20) ? true : undefined), 300_000, 20);

    // Node B knows nothing of the games until its spectators join: what was played so far comes from the store.
    const b = await startNode();
    const onB = new Map<string, FrameWatcher>();
    for (const [g, id] of Object.entries(games)) for (const [r, token] of Object.entries(roles)) onB.set(`${g} ${r}`, await FrameWatcher.join(b.url, id, token));
    watchers.push(...onB.values());
    await Promise.all([...onA.values(), ...onB.values()].map((w) => w.watcher.ended()));

    for (const [key, wa] of onA) {
      const wb = onB.get(key)!;
      const [g, r] = key.split(' ') as [keyof typeof games, keyof typeof roles];
      const { last_seq } = await db.store.getGame(games[g]);
      // Which way each side got its events: A all on the bus (a commit time), B its first from the store (none).
      expect(wa.watcher.events.map((e) => e.committed_at === null), key).toEqual(wa.watcher.events.map(() => false));
      expect(wb.watcher.events[0]?.committed_at, key).toBeNull();
      expect(wa.watcher.seqs, key).toEqual(Array.from({ length: last_seq }, (_, i) => i + 1));
      expect(wb.stream, key).toEqual(wa.stream);
      expect(wb.stream.filter((f) => f.startsWith('2/spectate,["state_hash"')).length, key).toBe(Math.floor(last_seq / 10));
      // A delayed page releases the last steps once their delay has passed on that node's clock: wait
      // for the whole log (a loaded machine may read within the delay of the last commit), then compare bytes.
      for (const node of [a, b]) {
        const rest = await until(`${key} REST on ${node.url} to reach seq ${last_seq}`, async () => {
          const events = await restEvents(node, games[g], last_seq, roles[r]);
          return events.length >= wa.events.length ? events : undefined;
        }, 60_000, 100);
        expect(rest, `${key} REST`).toEqual(wa.events);
      }
    }
  }, 900_000);
});
