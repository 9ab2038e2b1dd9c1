import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createGame, startServer, until, Watcher, type WatcherOptions } from './spectate-support.js';

type ConnectError = Error & { data?: { code?: string } };
type Server = Awaited<ReturnType<typeof startServer>>;

/** The connect_error of a connection the server refuses (fails if it is accepted). */
async function refused(url: string, options: WatcherOptions = {}): Promise<ConnectError> {
  const w = await Watcher.connect(url, options).catch((e: unknown) => e as ConnectError);
  if (w instanceof Watcher) {
    w.close();
    throw new Error(`a connection from ${options.from ?? '127.0.0.1'} was accepted`);
  }
  return w;
}

/** A server with these settings for the tests of the enclosing describe. */
function serverWith(env: Parameters<typeof startServer>[0]): () => Server {
  let server: Server | undefined;
  beforeAll(async () => {
    server = await startServer(env);
  });
  afterAll(async () => {
    await server?.dispose();
  });
  return () => server!;
}

/**
 * Connections and joins are limited by client address. Every client here is on loopback: other
 * clients connect from 127.0.0.2 and 127.0.0.3 (the server listens on 127.0.0.1; Linux routes all
 * of 127/8 to lo), and the limits are configured low.
 */
describe('/spectate limits by client address', () => {
  const watchers: Watcher[] = [];
  const keep = (w: Watcher) => (watchers.push(w), w);
  afterAll(() => {
    for (const w of watchers) w.close();
  });

  describe('connections: 3 per address, 5 in all', () => {
    const server = serverWith({ TILTYARD_SOCKETS_PER_IP: '3', TILTYARD_SOCKETS_MAX: '5' });

    it('given 3 connections from one address, then a 4th from it is refused with why, another address still connects, and past 5 in all the server is full', async () => {
      const mine = [];
      for (let i = 0; i < 3; i++) mine.push(keep(await Watcher.connect(server().url)));
      const fourth = await refused(server().url);
      expect(fourth.message).toBe('too many connections from 127.0.0.1: at most 3 at once per address; close one and connect again');
      expect(fourth.data?.code).toBe('connect/address_limit');
      keep(await Watcher.connect(server().url, { from: '127.0.0.2' }));
      keep(await Watcher.connect(server().url, { from: '127.0.0.2' }));
      const full = await refused(server().url, { from: '127.0.0.3' });
      expect(full.message).toBe('the server is full: at most 5 connections at once; try again later');
      expect(full.data?.code).toBe('connect/server_full');
      // The admitted ones still work.
      mine[0]!.join({ gameId: 'game_missing' });
      await mine[0]!.next('error', (e) => e.code === 'game/not_found');
      // A closed connection frees its place (once the server saw it close).
      mine[0]!.close();
      let again: Watcher | null = null;
      await until(async () => (again = await Watcher.connect(server().url).catch(() => null)) !== null, 'a place from 127.0.0.1 to free');
      keep(again!);
    });
  });

  describe('joins', () => {
    // One join a minute per address, none at once beyond the first.
    const server = serverWith({ TILTYARD_JOINS_PER_MIN: '1' });

    it('given an address that used its joins, then its next join is refused with when to retry, its subscription goes on, and another address joins', async () => {
      const gameId = await createGame(server(), { agents: ['balanced', 'aggressor'], pace_ms: 500 });
      const w = keep(await Watcher.connect(server().url));
      w.join({ gameId });
      await w.next('snapshot');
      w.join({ gameId });
      const error = await w.next('error');
      expect(error.data).toEqual({ code: 'join/rate_limited', message: expect.stringMatching(/^too many joins from 127\.0\.0\.1: at most 1 at once, then 1 a minute; try again in \d+ s$/) });
      // Nothing else changed: the game keeps coming.
      const seen = w.last;
      await w.reached(seen + 1);
      const other = keep(await Watcher.connect(server().url, { from: '127.0.0.2', auth: { token: ADMIN } }));
      other.join({ gameId });
      await other.next('snapshot');
    });
  });

  describe('joins on one connection', () => {
    const server = serverWith({ TILTYARD_JOINS_PER_MIN: '100000' });

    it('given 20 joins at once on one socket, then the first 10 are answered and the rest refused (at 1 a second, at most a few more in between)', async () => {
      const w = keep(await Watcher.connect(server().url));
      for (let i = 0; i < 20; i++) w.join({ bad: i });
      await until(() => w.all('error').length === 20, '20 answers');
      const codes = w.all('error').map((e) => e.code);
      expect(codes.slice(0, 10)).toEqual(Array(10).fill('join/invalid'));
      expect(codes.filter((c) => c === 'join/rate_limited').length).toBeGreaterThan(0);
      expect(w.all('error').find((e) => e.code === 'join/rate_limited')?.message).toMatch(/^too many joins on this connection: at most 10 at once, then 60 a minute; try again in 1 s$/);
    });
  });
});
