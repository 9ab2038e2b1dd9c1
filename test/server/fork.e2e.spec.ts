import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyGame } from '../../src/runner/verify-game.js';
import { serverSettings } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { openStore, type EventStore } from '../../src/store/index.js';
import { until } from './spawn-server.js';

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
    expect(lineage).toMatchObject({ parent_game_id: parentId, reseed: 3 });
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
      { game_id: forkId, seq: forkSeq, round: atFork!.turn, reseed: 3, status: 'ended', seats: fork.body['seats'], placements: fork1, created_at: fork.body['created_at'] },
    ]);
    const forkSeen = (await call('GET', `/games/${forkId}`, null)).body;
    expect(forkSeen).toMatchObject({ parent: { game_id: parentId, seq: forkSeq, round: atFork!.turn, reseed: 3, status: 'ended' }, forks: [], fork_count: 0 });
    // The parent's chain hash at the fork point covers unredacted events: admins (and researchers once over) only.
    expect((forkSeen['options'] as Json)['fork']).toEqual({ parent_game_id: parentId, seq: forkSeq, reseed: 3 });
    expect(((await call('GET', `/games/${forkId}`, ADMIN)).body['options'] as Json)['fork']).toEqual(lineage);
    expect(((await call('GET', `/games?limit=5`, null)).body['games'] as Json[]).map((g) => (g['options'] as Json)['fork'])).not.toContainEqual(lineage);
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
