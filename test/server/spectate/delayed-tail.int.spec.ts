import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/protocol/index.js';
import { createPersistentGame, resumePersistent } from '../../../src/runner/persistent-runner.js';
import { serverSettings } from '../../../src/server/config.js';
import { GameBus } from '../../../src/live/game-bus.js';
import { JsonLogger } from '../../../src/lib/json-logger.js';
import type { SpectateNamespace } from '../../../src/server/spectate/messages.js';
import { SpectateService } from '../../../src/server/spectate/spectate.service.js';
import { GameLogService } from '../../../src/server/games/game-log.service.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { RESEARCHER, until } from '../spectate-support.js';
import { serveSpectate, type ServedSpectate } from './serve-spectate.js';

const SIX = ['balanced', 'aggressor', 'manipulator', 'trickster', 'turtle', 'balanced'];
const DELAY = 1_500;
let n = 0;

/** The namespace, with `spend` called for every frame sent to a room (the feeds' fan-out). */
function sendingCosts(ns: SpectateNamespace, spend: () => void): SpectateNamespace {
  return new Proxy(ns, {
    get(target, key) {
      if (key !== 'to') return Reflect.get(target, key, target) as unknown;
      return (room: string) => {
        const to = target.to(room);
        return new Proxy(to, {
          get(op, k) {
            if (k !== 'emit') return Reflect.get(op, k, op) as unknown;
            return (...args: unknown[]) => (spend(), (op.emit as (...a: unknown[]) => boolean).apply(op, args));
          },
        });
      };
    },
  });
}

/**
 * The end of a delayed game reaches its delayed audience. Found once in the field: every anonymous
 * socket of a 6-seat game with a 1,500 ms delay stopped one step short of the end (no game_ended),
 * and so did a fresh join after the end, while admins and researchers had it all. The feed had
 * released the step before the last one and, busy fanning it out, let the last one's due time pass
 * before it asked when to look again; the queue answered with the next step due *after* now, of
 * which there was none, so no timer was set and, the game being over, no commit came to kick it.
 *
 * Time here is the test's clock. It stands still except that sending a frame to a room costs it
 * 1 ms (fanning out takes time, as it does on a loaded server), and it jumps when the test says.
 * Every step commits at T0 but the last, at T0 + 1: once the clock reaches T0 + DELAY, the feed
 * releases all but the last step, and sending those carries the clock past the last one's due.
 */
describe('a delayed game: the last step reaches every delayed reader', () => {
  let store: EventStore;
  const bus = new GameBus();
  let clock = Date.now();
  let served: ServedSpectate;
  let rest: GameLogService;

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    const settings = serverSettings({ TILTYARD_HASH_EVERY: '10', TILTYARD_LOG: 'silent', TILTYARD_STALE_MS: '3600000', TILTYARD_RESEARCHER_TOKEN: RESEARCHER });
    const service = new SpectateService(store, settings, new JsonLogger('silent'), bus, { pageSize: 50, retainEvents: 20 }, () => clock);
    rest = new GameLogService(store, bus, () => clock);
    served = await serveSpectate(service, (ns) => sendingCosts(ns, () => (clock += 1)));
  });
  afterAll(async () => {
    await served?.close();
    await store?.close();
  });

  /** REST's anonymous `/events`, paged from 0 to the head it allows. */
  async function restSeqs(gameId: string): Promise<number[]> {
    const seqs: number[] = [];
    for (let after = 0; ; ) {
      const page = await rest.events(gameId, 'spectator', { after, limit: 1000 });
      seqs.push(...page.events.map((e) => e.seq));
      if (page.next_after === after) return seqs;
      after = page.next_after;
    }
  }

  it.each([
    ['public', {}],
    ['broadcast', { spectators: 'broadcast' }],
  ])('given a %s 6-seat game delayed 1,500 ms, when its last step comes due while the feed sends the one before, then every anonymous socket, a fresh join after the end, a researcher and REST all end with game_ended', async (_mode, options) => {
    const gameId = `game_tail${String(++n).padStart(9, '0')}`;
    await createPersistentGame(store, { gameId, seed: 4_200 + n, agents: SIX, rules: { round_cap: 3 }, options: { pace_ms: 0, spectator_delay_ms: DELAY, ...options } });
    bus.commits.retain(gameId, DELAY);
    const live = await Promise.all(SIX.map(() => served.watch()));
    for (const w of live) w.join({ gameId, afterSeq: 0 });
    await Promise.all(live.map((w) => w.next('snapshot')));
    const t0 = clock;
    let lastStep: GameEvent[] = [];
    const out = await resumePersistent(store, gameId, {
      paceMs: 0,
      onCommit: (seq, _state, events) => {
        lastStep = structuredClone(events) as GameEvent[];
        // The final step commits a moment after the rest.
        clock = events.some((e) => e.type === 'game_ended') ? t0 + 1 : t0;
        bus.publish({ game_id: gameId, events: structuredClone(events) as GameEvent[], last_seq: seq, committed_at: clock });
      },
    });
    expect(out.status).toBe('ended');
    const head = out.lastSeq;
    const beforeLast = lastStep[0]!.seq - 1;
    // Every step but the last is DELAY old now: the feed's next look releases them.
    clock = t0 + DELAY;
    await Promise.all(live.map((w) => w.reached(beforeLast)));
    // Long after the end: a fresh anonymous join and a researcher.
    clock = t0 + 10 * 60_000;
    const fresh = await served.watch();
    fresh.join({ gameId, afterSeq: 0 });
    const researcher = await served.watch({ auth: { token: RESEARCHER } });
    researcher.join({ gameId, afterSeq: 0 });
    const readers = [...live, fresh, researcher];
    // A hang detector: a reader left short never gets there, and the assertion below says where it stopped.
    await until(() => readers.every((w) => w.last === head), 'every reader at the last seq').catch(() => undefined);
    const whole = Array.from({ length: head }, (_, k) => k + 1);
    expect(readers.map((w) => w.last)).toEqual(readers.map(() => head));
    for (const w of readers) {
      expect(w.seqs).toEqual(whole);
      expect(w.events.at(-1)?.event.type).toBe('game_ended');
    }
    expect(await restSeqs(gameId)).toEqual(whole);
  });
});
