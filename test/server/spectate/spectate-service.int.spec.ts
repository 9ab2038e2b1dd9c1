import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/protocol/index.js';
import { createPersistentGame, resumePersistent } from '../../../src/runner/persistent-runner.js';
import { serverSettings } from '../../../src/server/config.js';
import { GameBus } from '../../../src/live/game-bus.js';
import { JsonLogger } from '../../../src/lib/json-logger.js';
import { SpectateService } from '../../../src/server/spectate/spectate.service.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { Watcher, sleep, until } from '../spectate-support.js';
import { serveSpectate, type ServedSpectate } from './serve-spectate.js';

const AGENTS = ['balanced', 'aggressor', 'trickster'];
let n = 0;

/**
 * The service without Nest, on a real socket.io server, fed by a GameBus the test owns and a store
 * whose reads are slow, with a tiny page and memory: clients joining mid-game have to read many
 * pages from the store while live steps keep arriving, which is where a gap or a duplicate would hide.
 */
describe('SpectateService over a bus the test publishes on', () => {
  let store: EventStore;
  let served: ServedSpectate;
  let url: string;
  const bus = new GameBus();
  let service: SpectateService;
  const watchers: Watcher[] = [];
  let reads = 0;

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    const slow = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'read') return async (...args: Parameters<EventStore['read']>) => (reads++, await sleep(15), target.read(...args));
        const v: unknown = Reflect.get(target, key, receiver);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const settings = serverSettings({ TILTYARD_HASH_EVERY: '10', TILTYARD_LOG: 'silent' });
    service = new SpectateService(slow, settings, new JsonLogger('silent'), bus, { pageSize: 7, retainEvents: 20 });
    served = await serveSpectate(service);
    url = served.url;
  });
  afterAll(async () => {
    for (const w of watchers) w.close();
    await served?.close();
    await store?.close();
  });

  /** Plays a game at a pace, publishing each committed step on the bus (except those `skip` names) as GameService does. */
  async function play(options: { paceMs: number; spectatorDelayMs?: number; skip?: (seq: number) => boolean; announce?: boolean; pause?: (ms: number) => Promise<void> }) {
    const gameId = `game_svc${String(++n).padStart(9, '0')}`;
    await createPersistentGame(store, { gameId, seed: 1000 + n, agents: AGENTS, options: { pace_ms: options.paceMs, spectator_delay_ms: options.spectatorDelayMs ?? 0 } });
    const commits = new Map<number, number>();
    if (options.announce !== false) bus.announce({ type: 'game_started', game_id: gameId, agents: AGENTS, at: new Date().toISOString() });
    const done = resumePersistent(store, gameId, {
      paceMs: options.paceMs,
      ...(options.pause ? { pause: options.pause } : {}),
      onCommit: (seq, _state, events) => {
        const at = Date.now();
        for (const e of events) commits.set(e.seq, at);
        if (!options.skip?.(seq)) bus.publish({ game_id: gameId, events: structuredClone(events) as GameEvent[], last_seq: seq, committed_at: at });
      },
    });
    return { gameId, commits, done };
  }

  const watch = async () => {
    const w = await Watcher.connect(url);
    watchers.push(w);
    return w;
  };

  it('given clients joining all through a game (from the start, mid-backlog, at the head), then each gets contiguous seqs from its snapshot to the end', async () => {
    // The game moves STEPS steps per join, then waits for the next: every client joins while it
    // is still running (~240 steps), however slowly the machine connects them; the last one at the head.
    const STEPS = 12;
    let budget = 0;
    const game = await play({
      paceMs: 2,
      pause: async (ms) => {
        while (budget <= 0) await sleep(5);
        budget--;
        await sleep(ms);
      },
    });
    const readsBefore = reads;
    const clients: Watcher[] = [];
    for (let i = 0; i < 12; i++) {
      const head = await store.lastSeq(game.gameId);
      const w = await watch();
      w.join({ gameId: game.gameId, ...(i % 3 === 2 ? {} : { afterSeq: Math.floor((head * (i % 3)) / 2) }) });
      clients.push(w);
      budget += STEPS;
      await sleep(40);
    }
    budget = Infinity;
    const out = await game.done;
    expect(out.status).toBe('ended');
    await Promise.all(clients.map((w) => w.ended()));
    for (const w of clients) {
      const [snap] = w.all('snapshot');
      if (!snap) throw new Error('no snapshot');
      expect(w.seqs).toEqual(Array.from({ length: out.lastSeq - snap.seq }, (_, i) => snap.seq + 1 + i));
      expect(w.all('state_hash').map((h) => h.seq)).toEqual(w.seqs.filter((s) => s % 10 === 0));
    }
    // The backlog really came (slowly) from the store, page by page, while the game went on.
    expect(reads - readsBefore).toBeGreaterThan(10);
  });

  it('given the bus skips steps, then the feed reads them from the store and its members get every seq once, in order, with no resync', async () => {
    // A bus between processes is at most once (a node that lost its Redis link misses what was
    // published meanwhile): the store has every committed step, so the feed fills the gap itself.
    const game = await play({ paceMs: 2, skip: (seq) => seq > 60 && seq < 70 });
    const w = await watch();
    w.join({ gameId: game.gameId, afterSeq: 0 });
    await w.ended();
    const out = await game.done;
    expect(out.lastSeq).toBeGreaterThan(70);
    expect(w.got('resync')).toEqual([]);
    expect(w.seqs).toEqual(Array.from({ length: out.lastSeq }, (_, i) => i + 1));
  });

  it('given a delayed game whose feed starts late (no game_started heard, as after a restart), then a spectator still never sees a step before the delay has passed since its commit', async () => {
    const DELAY = 600;
    const game = await play({ paceMs: 5, spectatorDelayMs: DELAY, announce: false });
    await until(async () => (await store.lastSeq(game.gameId)) >= 80, 'seq 80');
    const w = await watch();
    w.join({ gameId: game.gameId });
    // When it arrived, not when the join was sent: a loaded machine then only widens the margin. The
    // server cannot have released a step whose delay had not passed by then (against the join time,
    // with a 20 ms allowance, a slow server was a failure).
    const { data: snap, at: receivedAt } = await w.next('snapshot');
    expect(snap.seq === 0 || game.commits.get(snap.seq)! + DELAY <= receivedAt).toBe(true);
    await w.ended();
    for (const m of w.got('event')) expect(m.at - game.commits.get(m.data.seq)!).toBeGreaterThanOrEqual(DELAY);
    const out = await game.done;
    expect(w.seqs).toEqual(Array.from({ length: out.lastSeq - snap.seq }, (_, i) => snap.seq + 1 + i));
  });
});
