import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Health } from '../../src/server/docs/api-schemas.js';
import type { RunningServer } from '../../src/server/create-server.js';
import { ADMIN, createGame, startServer, Watcher } from './spectate-support.js';

type ErrorBody = { statusCode: number; error: string; message: string };
const auth = { authorization: `Bearer ${ADMIN}` };

/**
 * Every malformed input the issue lists (and their neighbours) against a real server: each is a
 * 4xx with the API's JSON error shape, never a 500, and the server keeps serving afterwards.
 */
describe('malformed input at every edge', () => {
  let server: RunningServer & { dispose(): Promise<void> };
  let gameId: string;
  beforeAll(async () => {
    server = await startServer({ TILTYARD_PACE_MS: '0' });
    gameId = await createGame(server, { agents: ['random', 'turtle'], pace_ms: 0, rules: { round_cap: 2 } });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  /** The answer to `path` must be `status` with the JSON error shape, its message matching `why`. */
  async function expectError(path: string, status: number, why: RegExp, init: RequestInit = {}): Promise<void> {
    const res = await fetch(`${server.url}${path}`, init);
    const text = await res.text();
    expect(res.status, `${init.method ?? 'GET'} ${path}: ${text}`).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = JSON.parse(text) as ErrorBody;
    expect(body).toEqual({ statusCode: status, error: expect.any(String) as string, message: expect.stringMatching(why) as string });
  }

  it('given a NUL, a control character or invalid UTF-8 in a game id (REST path), then 400 naming it, on every route that takes an id', async () => {
    for (const route of ['', '/events', '/snapshot', '/verify', '/analytics']) {
      await expectError(`/games/game_%00x${route}`, 400, /control character \(U\+0000\)/, { headers: auth });
      await expectError(`/games/game_%1Fx${route}`, 400, /control character \(U\+001F\)/, { headers: auth });
      await expectError(`/games/%FF${route}`, 400, /not valid UTF-8/, { headers: auth });
      await expectError(`/games/%ED%A0%80${route}`, 400, /not valid UTF-8/, { headers: auth });
    }
  });

  it('given raw bytes outside ASCII in the request target, then 400 with the JSON shape', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const { port } = new URL(server.url);
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(Buffer.concat([Buffer.from('GET /games/game_'), Buffer.from([0xff, 0xfe]), Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')]));
      });
      let data = '';
      socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    // Node's own parser may refuse first (a bare 400); if the request got through, it is ours.
    if (raw.includes('{')) expect(JSON.parse(raw.slice(raw.indexOf('{'))) as ErrorBody).toMatchObject({ statusCode: 400 });
  });

  it('given repeated or bracketed query parameters, then 400 (not silently the first, last or an ignored one)', async () => {
    await expectError(`/games/${gameId}/events?after[]=1`, 400, /"after\[\]": brackets/);
    await expectError(`/games/${gameId}/events?view[]=admin`, 400, /"view\[\]": brackets/);
    await expectError(`/games/${gameId}/events?view%5B%5D=admin`, 400, /brackets/);
    await expectError(`/games/${gameId}/snapshot?view[role]=admin`, 400, /brackets/);
    await expectError('/games?limit=1&limit=2', 400, /"limit" is given more than once/);
    await expectError('/games?status=running&status=ended', 400, /"status" is given more than once/);
    await expectError(`/games/${gameId}/events?after=1&after=2`, 400, /more than once/);
    await expectError('/games?cursor=a%00b', 400, /"cursor" contains a control character/);
    // The well-formed forms still work.
    expect((await fetch(`${server.url}/games?status=running,created,ended&limit=2`)).status).toBe(200);
    expect((await fetch(`${server.url}/games/${gameId}/events?after=0&limit=5`)).status).toBe(200);
  });

  it('given POST /games rules outside their ranges or an unknown rules_version, then 400 naming each field', async () => {
    const post = (rules: Record<string, unknown>, agents: unknown = ['random', 'turtle']) =>
      expectError('/games', 400, /./, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ agents, rules }) });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ lives: 1e9 }, /rules\.lives/],
      [{ hand_cap: -5 }, /rules\.hand_cap/],
      [{ opening_hand: 1000 }, /rules\.opening_hand/],
      [{ rules_version: '9.9.9' }, /rules\.rules_version: is not a rules version this build plays/],
      [{ round_cap: 1e6 }, /rules\.round_cap/],
      [{ max_seats: 100 }, /rules\.max_seats/],
      [{ contest: { noise: 1e300 } }, /rules\.contest\.noise/],
      [{ intent_deltas: { fear: { fear: 50 } } }, /rules\.intent_deltas\.fear\.fear/],
      [{ emotion: { decay: 2 } }, /rules\.emotion\.decay/],
    ];
    for (const [rules, why] of cases) {
      const res = await fetch(`${server.url}/games`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ agents: ['random', 'turtle'], rules }) });
      const body = (await res.json()) as ErrorBody;
      expect(res.status, JSON.stringify(rules)).toBe(400);
      expect(body.message).toMatch(why);
    }
    await post({ lives: 1 }, ['random', 'skill:\u0000evil']);
    await post({}, ['random', 'bal\ud800anced']);
    // In range is fine.
    expect((await fetch(`${server.url}/games`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ agents: ['random', 'turtle'], pace_ms: 0, rules: { lives: 10, hand_cap: 30, opening_hand: 20, round_cap: 2, rules_version: '1.0.0' } }) })).status).toBe(201);
  });

  it('given a socket join or lobby message with a NUL or a lone surrogate, then a join/lobby error (not server/unavailable), and the socket still works', async () => {
    const w = await Watcher.connect(server.url);
    try {
      w.join({ gameId: 'game_\u0000x' });
      const nul = await w.next('error');
      expect(nul.data.code).toBe('join/invalid');
      expect(nul.data.message).toMatch(/gameId: contains a control character \(U\+0000\)/);
      w.join({ gameId: 'game_\ud800' });
      await w.next('error', (e) => /lone surrogate/.test(e.message));
      w.join({ gameId, view: 'spec\u0000tator' });
      await w.next('error', (e) => e.code === 'join/invalid' && /view/.test(e.message));
      w.socket.emit('lobby', { token: 'x\u0000' });
      await w.next('error', (e) => e.code === 'lobby/invalid');
      expect(w.all('error').map((e) => e.code)).not.toContain('server/unavailable');
      // The same socket then joins a real game.
      w.join({ gameId });
      await w.next('snapshot');
    } finally {
      w.close();
    }
  });

  it('given GET /health, then exactly what the docs say: 200 {status: "ok", rules_version, backend, uptime_s}', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Health.strict().parse(body)).toMatchObject({ status: 'ok', rules_version: '2.0.0', backend: 'pglite' });
    await expectError('/health?x=1&x=2', 400, /more than once/);
  });
});
