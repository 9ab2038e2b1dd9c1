import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyGame } from '../../src/runner/verify-game.js';
import { serverSettings } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { openStore, type EventStore } from '../../src/store/index.js';
import { until } from './spawn-server.js';
import { Watcher } from './spectate-support.js';

const ADMIN = 'admin-secret';
const RESEARCHER = 'research-secret';
type Json = Record<string, unknown>;

describe('POST /games/:id/fork, on a real server', () => {
  let server: RunningServer;
  let store: EventStore;
  const call = async (method: string, path: string, token: string | null, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const ended = (id: string) => until(`${id} ended`, async () => ((await store.getGame(id)).status === 'ended' ? true : undefined), 60_000);

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    const settings = serverSettings({ PORT: '0', TILTYARD_DEMO: 'off', TILTYARD_ADMIN_TOKEN: ADMIN, TILTYARD_RESEARCHER_TOKEN: RESEARCHER, TILTYARD_PACE_MS: '0' });
    server = await createServer(settings, { store });
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });

  it('an admin forks an ended game: 201, the fork plays on like any game, records its lineage and verifies', async () => {
    const created = await call('POST', '/games', ADMIN, { agents: ['balanced', 'turtle', 'aggressor'], seed: 21, rules: { round_cap: 4 } });
    expect(created.status).toBe(201);
    const parentId = created.body['game_id'] as string;
    await ended(parentId);

    const fork = await call('POST', `/games/${parentId}/fork`, ADMIN, { at: 'round:2', agents: ['random', 'turtle', 'trickster'], reseed: 3 });
    expect(fork.status, JSON.stringify(fork.body)).toBe(201);
    const forkId = fork.body['game_id'] as string;
    expect(forkId).not.toBe(parentId);
    const lineage = (fork.body['options'] as Json)['fork'] as Json;
    expect(lineage).toMatchObject({ parent_game_id: parentId, secret: 3 });
    expect((fork.body['seats'] as Json[]).map((s) => s['agent'])).toEqual(['random', 'turtle', 'trickster']);
    await ended(forkId);
    const report = await verifyGame(store, forkId);
    expect(report.assertions.filter((a) => a.status !== 'pass')).toEqual([]);
    expect(report.assertions.map((a) => a.name)).toContain('fork prefix equals the parent');

    // Lineage both ways on GET /games/:id: the parent lists the fork, the fork names the parent.
    const forkSeq = lineage['seq'] as number;
    const [atFork] = await store.read(parentId, forkSeq - 1, 1);
    const parentSeen = (await call('GET', `/games/${parentId}`, null)).body;
    expect(parentSeen).toMatchObject({ parent: null, fork_count: 1 });
    const fork1 = (await store.getGame(forkId)).placements!;
    expect(parentSeen['forks']).toEqual([
      { game_id: forkId, seq: forkSeq, round: atFork!.turn, same_deck: false, reseed: 3, status: 'ended', seats: fork.body['seats'], placements: fork1, created_at: fork.body['created_at'] },
    ]);
    const forkSeen = (await call('GET', `/games/${forkId}`, null)).body;
    expect(forkSeen).toMatchObject({ parent: { game_id: parentId, seq: forkSeq, round: atFork!.turn, same_deck: false, reseed: 3, status: 'ended' }, forks: [], fork_count: 0 });
    // The parent's chain hash at the fork point covers unredacted events: admins (and researchers once over) only;
    // the secret, like a seed, is everyone's once the fork has ended.
    expect((forkSeen['options'] as Json)['fork']).toEqual({ parent_game_id: parentId, seq: forkSeq, secret: 3 });
    expect(((await call('GET', `/games/${forkId}`, ADMIN)).body['options'] as Json)['fork']).toEqual(lineage);
    expect(((await call('GET', `/games?limit=5`, null)).body['games'] as Json[]).map((g) => (g['options'] as Json)['fork'])).not.toContainEqual(lineage);
  });

  it("a same-deck fork is no game to anyone but admins until it ends; a default fork is public, its secret the admin's until it ends", async () => {
    const created = await call('POST', '/games', ADMIN, { agents: ['balanced', 'turtle'], seed: 12, rules: { round_cap: 4 } });
    const parentId = created.body['game_id'] as string;
    await ended(parentId);
    const lobby = await Watcher.connect(server.url);
    const adminLobby = await Watcher.connect(server.url);
    lobby.socket.emit('lobby');
    adminLobby.socket.emit('lobby', { token: ADMIN });
    await Promise.all([lobby.next('lobby_joined'), adminLobby.next('lobby_joined')]);
    // A minute a step: both forks are surely still playing while they are looked at.
    const crawl = { at: 'round:2', pace_ms: 60_000 };
    expect((await call('POST', `/games/${parentId}/fork`, ADMIN, { ...crawl, same_deck: true, reseed: 4 })).status).toBe(400);
    const same = await call('POST', `/games/${parentId}/fork`, ADMIN, { ...crawl, same_deck: true });
    const fresh = await call('POST', `/games/${parentId}/fork`, ADMIN, crawl);
    expect([same.status, fresh.status], JSON.stringify([same.body, fresh.body])).toEqual([201, 201]);
    const [sameId, freshId] = [same.body['game_id'] as string, fresh.body['game_id'] as string];
    expect((same.body['options'] as { fork: Json }).fork['secret']).toBeUndefined();
    const secret = (fresh.body['options'] as { fork: Json }).fork['secret'] as number;
    expect(Number.isSafeInteger(secret)).toBe(true);

    for (const token of [null, RESEARCHER]) {
      // Every route answers as for an id that was never a game.
      const unknown = 'game_000000000000';
      for (const path of ['', '/events', '/snapshot', '/replay', '/analytics', '/verify', '/traces']) {
        const [r, u] = [await call('GET', `/games/${sameId}${path}`, token), await call('GET', `/games/${unknown}${path}`, token)];
        expect([path, r.status, String(r.body['message']).replace(sameId, unknown)]).toEqual([path, u.status, u.body['message']]);
      }
      expect((await call('GET', `/games/${sameId}`, token)).status).toBe(404);
      const listed = (await call('GET', '/games?limit=100', token)).body['games'] as Json[];
      expect(listed.map((g) => g['game_id'])).not.toContain(sameId);
      expect(listed.map((g) => g['game_id'])).toContain(freshId);
      const parent = (await call('GET', `/games/${parentId}`, token)).body;
      expect(parent['fork_count']).toBe(1);
      expect(parent['forks']).toEqual([expect.objectContaining({ game_id: freshId, same_deck: false, status: expect.stringMatching(/^(created|running)$/) as string })]);
      // The default fork: public, its reseed a secret until it ends.
      const seen = (await call('GET', `/games/${freshId}`, token)).body;
      expect(JSON.stringify([seen, parent, listed])).not.toContain(String(secret));
      expect(seen['parent']).toEqual({ game_id: parentId, seq: expect.any(Number) as number, round: 2, same_deck: false, status: 'ended' });
    }
    // The lobby: admins hear both start; the public lobby the default fork only. (A round trip after
    // the admins heard them: whatever the public lobby was sent before has arrived.)
    await adminLobby.next('game_started', (n) => n.game_id === sameId);
    await adminLobby.next('game_started', (n) => n.game_id === freshId);
    lobby.socket.emit('lobby');
    await until('a second lobby_joined', () => Promise.resolve(lobby.got('lobby_joined').length === 2 ? true : undefined), 60_000);
    expect(lobby.all('game_started').map((n) => n.game_id)).toContain(freshId);
    expect(lobby.all('game_started').map((n) => n.game_id)).not.toContain(sameId);
    lobby.close();
    adminLobby.close();
    // The socket: no such game to anyone but an admin, who follows it.
    const anon = await Watcher.connect(server.url);
    const admin = await Watcher.connect(server.url);
    try {
      anon.join({ gameId: sameId, afterSeq: 0 });
      expect((await anon.next('error')).data).toEqual({ code: 'game/not_found', message: `no game ${sameId}` });
      admin.join({ gameId: sameId, afterSeq: 0, token: ADMIN });
      expect((await admin.next('snapshot')).data.seq).toBe(0);
    } finally {
      anon.close();
      admin.close();
    }
    // Admins see both, everywhere.
    expect((await call('GET', `/games/${sameId}`, ADMIN)).status).toBe(200);
    expect((await call('GET', `/games/${parentId}`, ADMIN)).body['fork_count']).toBe(2);
    expect((await call('GET', `/games/${parentId}`, ADMIN)).body['forks']).toContainEqual(expect.objectContaining({ game_id: freshId, same_deck: false, reseed: secret }));
    // A hidden fork is not forked (its prefix would show).
    expect((await call('POST', `/games/${sameId}/fork`, ADMIN, { at: 'round:2' })).status).toBe(409);
  });

  it('a same-deck fork that has ended is everyone’s game, with the same draws', async () => {
    const created = await call('POST', '/games', ADMIN, { agents: ['balanced', 'turtle'], seed: 13, rules: { round_cap: 3 } });
    const parentId = created.body['game_id'] as string;
    await ended(parentId);
    const same = await call('POST', `/games/${parentId}/fork`, ADMIN, { at: 'round:2', same_deck: true });
    expect(same.status, JSON.stringify(same.body)).toBe(201);
    const sameId = same.body['game_id'] as string;
    await ended(sameId);
    expect((await call('GET', `/games/${sameId}`, null)).body).toMatchObject({ status: 'ended', parent: { game_id: parentId, same_deck: true } });
    expect((await call('GET', `/games/${sameId}/events`, null)).status).toBe(200);
    expect((await call('GET', `/games/${parentId}`, null)).body['forks']).toEqual([expect.objectContaining({ game_id: sameId, same_deck: true, status: 'ended' })]);
    expect(((await call('GET', '/games?limit=100', null)).body['games'] as Json[]).map((g) => g['game_id'])).toContain(sameId);
  });

  it('a spectator of a delayed game learns of no fork branching past the delayed head', async () => {
    const created = await call('POST', '/games', ADMIN, { agents: ['balanced', 'turtle'], seed: 4, rules: { round_cap: 2 }, spectator_delay_ms: 600_000 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body['game_id'] as string;
    await ended(id);
    const fork = await call('POST', `/games/${id}/fork`, ADMIN, { at: 'round:2' });
    expect(fork.status, JSON.stringify(fork.body)).toBe(201);
    const forkId = fork.body['game_id'] as string;
    const admin = (await call('GET', `/games/${id}`, ADMIN)).body;
    expect(admin).toMatchObject({ fork_count: 1, forks: [{ game_id: forkId }] });
    // Ten minutes' delay: the anonymous head is far behind round 2, so the fork is not even counted.
    const anon = (await call('GET', `/games/${id}`, null)).body;
    expect(anon['last_seq']).toBeLessThan((fork.body['options'] as { fork: { seq: number } }).fork.seq);
    expect(anon).toMatchObject({ fork_count: 0, forks: [] });
    // The fork hides its prefix as long as the parent hides its log.
    expect(fork.body['options']).toMatchObject({ spectator_delay_ms: 600_000, spectators: 'public' });
    expect((await call('GET', `/games/${forkId}`, null)).body['last_seq']).toBe(0);
    await ended(forkId);
  });

  it('refuses to fork a game still running behind a delay or as a broadcast (409), and a broadcast fork of an ended one stays a broadcast', async () => {
    const slow = { rules: { round_cap: 30 }, pace_ms: 200 };
    for (const hold of [{ spectator_delay_ms: 60_000 }, { spectators: 'broadcast' }]) {
      const created = await call('POST', '/games', ADMIN, { agents: ['balanced', 'turtle'], seed: 5, ...slow, ...hold });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body['game_id'] as string;
      await until(`${id} past its first decision`, async () => ((await store.getGame(id)).last_seq > 20 ? true : undefined), 60_000);
      const refused = await call('POST', `/games/${id}/fork`, ADMIN, { at: 1 });
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body['message']).toMatch(/fork it once it has ended/);
      expect((await call('GET', `/games/${id}`, ADMIN)).body['fork_count']).toBe(0);
    }
    const broadcast = await call('POST', '/games', ADMIN, { agents: ['balanced', 'turtle'], seed: 6, rules: { round_cap: 2 }, spectators: 'broadcast' });
    const id = broadcast.body['game_id'] as string;
    await ended(id);
    const safe = await call('POST', `/games/${id}/fork`, ADMIN, { at: 'round:2' });
    expect(safe.status, JSON.stringify(safe.body)).toBe(201);
    expect(safe.body['options']).toMatchObject({ spectators: 'broadcast', broadcast_held: false });
    await ended(safe.body['game_id'] as string);
  });

  it('refuses non-admins, bad bodies, unknown games and fork points past the last decision', async () => {
    const created = await call('POST', '/games', ADMIN, { agents: ['balanced', 'turtle'], seed: 8, rules: { round_cap: 2 } });
    const id = created.body['game_id'] as string;
    await ended(id);
    expect((await call('POST', `/games/${id}/fork`, null, { at: 10 })).status).toBe(403);
    expect((await call('POST', `/games/${id}/fork`, 'guess', { at: 10 })).status).toBe(401);
    expect((await call('POST', `/games/${id}/fork`, RESEARCHER, { at: 10 })).status).toBe(403);
    expect((await call('POST', `/games/${id}/fork`, ADMIN, { at: 'later' })).status).toBe(400);
    expect((await call('POST', `/games/${id}/fork`, ADMIN, { at: 10, agents: ['nobody-such'] })).status).toBe(400);
    expect((await call('POST', `/games/${id}/fork`, ADMIN, { at: 10, agents: ['random'] })).status).toBe(400);
    expect((await call('POST', `/games/${id}/fork`, ADMIN, { at: 999_999 })).status).toBe(400);
    expect((await call('POST', '/games/game_nosuch/fork', ADMIN, { at: 10 })).status).toBe(404);
  });
});
