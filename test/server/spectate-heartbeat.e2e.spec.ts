import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Watcher, createGame, gameEnded, startServer, until } from './spectate-support.js';

const HEARTBEAT_MS = 100;
// Stale after 30 beats: a client that answers every beat stays connected even when a loaded machine
// stalls the server or the client for a few seconds (at 400 ms, such a stall dropped it).
const STALE_MS = 3_000;
/** Beats that span twice the stale limit. */
const BEATS = (2 * STALE_MS) / HEARTBEAT_MS;

describe('/spectate heartbeats and stale clients (heartbeat 100 ms, stale after 3 s)', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let gameId: string;
  const watchers: Watcher[] = [];
  const watch = async (options?: Parameters<typeof Watcher.connect>[1]) => {
    const w = await Watcher.connect(server.url, options);
    watchers.push(w);
    return w;
  };
  const disconnected = (w: Watcher) =>
    new Promise<{ reason: string; at: number }>((resolve) =>
      w.socket.once('disconnect', (reason) => resolve({ reason, at: Date.now() })),
    );

  beforeAll(async () => {
    server = await startServer({
      TILTYARD_HEARTBEAT_MS: String(HEARTBEAT_MS),
      TILTYARD_STALE_MS: String(STALE_MS),
    });
    gameId = await createGame(server, {
      agents: ['random', 'turtle'],
      pace_ms: 0,
      rules: { round_cap: 3 },
    });
    await gameEnded(server.store, gameId);
  });
  afterAll(async () => {
    for (const w of watchers) w.close();
    await server?.dispose();
  });

  it('given joined clients that answer, then each gets heartbeat {ts, seq} every interval (seq: its last seq, null in the lobby only) and stays connected', async () => {
    const head = (await server.store.getGame(gameId)).last_seq;
    const game = await watch();
    const lobby = await watch();
    game.join({ gameId });
    lobby.socket.emit('lobby');
    const start = Date.now();
    // Beats spanning twice the stale limit each, however slow the machine.
    await until(
      () => game.all('heartbeat').length >= BEATS && lobby.all('heartbeat').length >= BEATS,
      `${BEATS} heartbeats each`,
    );
    for (const w of [game, lobby]) expect(w.socket.connected).toBe(true);
    const beats = game.all('heartbeat');
    for (const b of beats) expect(b).toEqual({ ts: expect.any(Number), seq: head });
    expect(beats[0]!.ts).toBeGreaterThanOrEqual(start);
    const gaps = beats.slice(1).map((b, i) => b.ts - beats[i]!.ts);
    expect(Math.min(...gaps)).toBeGreaterThan(0);
    expect(lobby.all('heartbeat').every((b) => b.seq === null)).toBe(true);
  });

  it('given a joined client that stops answering, then it is disconnected once silent for the stale limit, not before', async () => {
    const silent = await watch({ ackHeartbeats: false });
    const gone = disconnected(silent);
    const joinedAt = Date.now();
    silent.join({ gameId });
    const { reason, at } = await gone;
    expect(reason).toBe('io server disconnect');
    // Not before the stale limit (a client that answers stays, above); how soon after it depends
    // on the machine, and a missing disconnect would outlast the test's timeout.
    expect(at - joinedAt).toBeGreaterThanOrEqual(STALE_MS);
    // Whether a heartbeat reached it first is not asserted: a server stalled past the stale limit
    // (a loaded machine) may find it stale on its first tick, and that is still the right answer.
  });

  it('given a client that never joins or says anything, then it is disconnected as stale too', async () => {
    const idle = await watch();
    const { reason } = await disconnected(idle);
    expect(reason).toBe('io server disconnect');
    expect(idle.all('heartbeat')).toEqual([]);
  });
});
