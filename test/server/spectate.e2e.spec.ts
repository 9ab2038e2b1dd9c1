import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessages } from '../../src/server/spectate/messages.js';
import { canonicalJson } from '../../src/store/index.js';
import { ADMIN, RESEARCHER, Watcher, contiguous, createGame, gameEnded, startServer, until } from './spectate-support.js';

const FOUR = ['balanced', 'aggressor', 'manipulator', 'trickster'];
const HASH_EVERY = 25;
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
type Line = { type: string; seq?: number; state_hash?: string; code?: string };

/** Runs the child-process spectator to its exit; its JSON lines. */
function childClient(url: string, gameId: string, afterSeq?: number, stopAt?: number): Promise<{ code: number | null; lines: Line[] }> {
  const script = join(import.meta.dirname, 'fixtures', 'spectate-client.mjs');
  const args = [script, url, gameId, afterSeq === undefined ? '-' : String(afterSeq), ...(stopAt === undefined ? [] : [String(stopAt)])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, lines: out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line) })));
}

describe('/spectate on a real server: snapshot, backlog and live stream', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  const watchers: Watcher[] = [];
  const watch = async (options?: Parameters<typeof Watcher.connect>[1]) => {
    const w = await Watcher.connect(server.url, options);
    watchers.push(w);
    return w;
  };
  const headOf = async (id: string) => (await server.store.getGame(id)).last_seq;

  beforeAll(async () => {
    // The state_hash test joins a fresh probe per hash, faster than one address may by default.
    server = await startServer({ TILTYARD_HASH_EVERY: String(HASH_EVERY), TILTYARD_JOINS_PER_MIN: '100000' });
  });
  afterAll(async () => {
    for (const w of watchers) w.close();
    await server?.dispose();
  });

  it('given a game under way, when a spectator joins mid-game, then it gets a snapshot at the head and every later seq once, in order, to the end', async () => {
    const id = await createGame(server, { agents: FOUR, pace_ms: 2 });
    await until(async () => (await headOf(id)) >= 100, 'seq 100');
    const w = await watch();
    w.join({ gameId: id });
    await w.ended();
    const [snap] = w.all('snapshot');
    expect(w.all('snapshot')).toHaveLength(1);
    if (!snap) throw new Error('no snapshot');
    expect(snap.seq).toBeGreaterThanOrEqual(100);
    expect(w.seqs).toEqual(range(snap.seq + 1, await headOf(id)));
    expect(w.all('error')).toEqual([]);
  });

  it('given a spectator that disconnects, when it joins again with its last seq, then it continues with no gap and no duplicate', async () => {
    const id = await createGame(server, { agents: FOUR, pace_ms: 2 });
    const first = await watch();
    first.join({ gameId: id, afterSeq: 0 });
    await first.reached(150);
    first.close();
    const last = first.last;
    await until(async () => (await headOf(id)) > last + 50, 'the game to move on');
    const second = await watch();
    second.join({ gameId: id, afterSeq: last });
    await second.ended();
    expect(second.all('snapshot').map((s) => s.seq)).toEqual([last]);
    const all = [...first.seqs, ...second.seqs];
    expect(all).toEqual(range(1, await headOf(id)));
  });

  it('given spectators in child processes, when one leaves mid-game and another resumes from its last seq, then together they saw every seq exactly once', async () => {
    const id = await createGame(server, { agents: FOUR, pace_ms: 3 });
    await until(async () => (await headOf(id)) >= 60, 'seq 60');
    const start = await headOf(id);
    const a = await childClient(server.url, id, undefined, start + 120);
    expect(a.code).toBe(0);
    const aSnap = a.lines.find((l) => l.type === 'snapshot')!;
    const aSeqs = a.lines.filter((l) => l.type === 'event').map((l) => l.seq!);
    expect(contiguous(aSeqs, aSnap.seq! + 1)).toBe(true);
    const b = await childClient(server.url, id, aSeqs.at(-1));
    expect(b.code).toBe(0);
    const bSeqs = b.lines.filter((l) => l.type === 'event').map((l) => l.seq!);
    expect(b.lines.find((l) => l.type === 'snapshot')?.seq).toBe(aSeqs.at(-1));
    expect([...aSeqs, ...bSeqs]).toEqual(range(aSnap.seq! + 1, await headOf(id)));
    // The hashes the child saw agree with the server's snapshots there (checked in depth below).
    expect(b.lines.filter((l) => l.type === 'state_hash').every((l) => l.seq! % HASH_EVERY === 0)).toBe(true);
  });

  it('given whole games, then a state_hash follows every multiple of the interval and equals the hash of a snapshot taken at that seq (and of the REST snapshot), for the public, admin and after-the-end researcher views', async () => {
    const id = await createGame(server, { agents: ['balanced', 'turtle', 'manipulator'], pace_ms: 1 });
    const pub = await watch();
    const admin = await watch();
    pub.join({ gameId: id, afterSeq: 0 });
    admin.join({ gameId: id, afterSeq: 0, token: ADMIN });
    await Promise.all([pub.ended(), admin.ended()]);
    // A researcher replaying the finished game sees private details at every seq.
    const researcher = await watch();
    researcher.join({ gameId: id, afterSeq: 0, token: RESEARCHER });
    await researcher.ended();
    const early = await watch();
    early.join({ gameId: id, afterSeq: HASH_EVERY, token: RESEARCHER });
    expect((await early.next('snapshot')).data.state.private.map((p) => p.player_id)).toEqual(['plr_1', 'plr_2', 'plr_3']);
    for (const [w, token] of [[pub, undefined], [admin, ADMIN], [researcher, RESEARCHER]] as const) {
      const multiples = w.seqs.filter((s) => s % HASH_EVERY === 0);
      const hashes = w.all('state_hash');
      expect(hashes.map((h) => h.seq)).toEqual(multiples);
      // Each right after its event.
      for (const h of hashes) {
        const i = w.log.findIndex((m) => m.name === 'state_hash' && (m.data as { seq: number }).seq === h.seq);
        expect(w.log[i - 1]).toMatchObject({ name: 'event', data: { seq: h.seq } });
      }
      for (const h of hashes) {
        const probe = await watch();
        probe.join({ gameId: id, afterSeq: h.seq, ...(token ? { token } : {}) });
        const snap = (await probe.next('snapshot')).data;
        probe.close();
        expect(snap).toMatchObject({ seq: h.seq, view: h.view, state_hash: h.state_hash });
        // A client can check it itself: sha256 of the canonical JSON of the state it received.
        expect(createHash('sha256').update(canonicalJson(snap.state)).digest('hex')).toBe(h.state_hash);
      }
    }
    // The REST snapshot of the same seq and view hashes the same.
    for (const [w, token] of [[pub, undefined], [researcher, RESEARCHER]] as const) {
      const h = w.all('state_hash')[1]!;
      const headers = token ? { authorization: `Bearer ${token}` } : undefined;
      const rest = (await (await fetch(`${server.url}/games/${id}/snapshot?seq=${h.seq}`, { headers })).json()) as { state_hash: string };
      expect(rest.state_hash).toBe(h.state_hash);
    }
  });

  it('given the lobby, then its members hear games start and end', async () => {
    const pub = await watch();
    const admin = await watch();
    pub.socket.emit('lobby');
    admin.socket.emit('lobby', { token: ADMIN });
    expect((await pub.next('lobby_joined')).data).toEqual({ role: 'spectator' });
    expect((await admin.next('lobby_joined')).data).toEqual({ role: 'admin' });
    const id = await createGame(server, { agents: ['random', 'turtle'], pace_ms: 0, rules: { round_cap: 3 } });
    for (const w of [pub, admin]) {
      await w.next('game_started', (n) => n.game_id === id);
      const ended = await w.next('game_ended', (n) => n.game_id === id);
      expect(ended.data).toMatchObject({ type: 'game_ended', game_id: id, placements: expect.any(Array) });
    }
  });

  it('given a client that stops reading, then it is dropped with a resync once its queue passes the bound, and rejoining with that seq continues without a gap', async () => {
    const id = await createGame(server, { agents: FOUR, pace_ms: 1 });
    const stuck = await PollingClient.open(server.url);
    // Without afterSeq it starts at the head, so it is in the live room right after its snapshot.
    await stuck.send(['join', { gameId: id }]);
    const got: Packet[] = [];
    await until(async () => (got.push(...(await stuck.poll())), got.some((p) => p[0] === 'snapshot')), 'the stuck client’s snapshot');
    // It stops polling: engine.io queues everything for it from here on.
    await gameEnded(server.store, id);
    await until(async () => (got.push(...(await stuck.poll())), got.some((p) => p[0] === 'resync')), 'a resync');
    const snap = got.find((p) => p[0] === 'snapshot')![1] as ServerMessages['snapshot'];
    const events = got.filter((p) => p[0] === 'event').map((p) => (p[1] as ServerMessages['event']).seq);
    const resync = got.find((p) => p[0] === 'resync')![1] as ServerMessages['resync'];
    expect(resync.seq).toBe(events.at(-1));
    expect(got.at(-1)![0]).toBe('resync'); // nothing after it
    expect(resync.seq).toBeLessThan(await headOf(id));
    const again = await watch();
    again.join({ gameId: id, afterSeq: resync.seq });
    await again.ended();
    expect([...events, ...again.seqs]).toEqual(range(snap.seq + 1, await headOf(id)));
  });
});

/** A socket.io event as it travels: [name, payload]. */
type Packet = [string, unknown];

/**
 * A bare engine.io long-polling client: it receives only when it asks (`poll`), so between polls
 * the server queues for it exactly as for a client on a slow link.
 */
class PollingClient {
  private constructor(
    private readonly base: string,
    private readonly sid: string,
  ) {}

  static async open(url: string): Promise<PollingClient> {
    const base = `${url}/socket.io/?EIO=4&transport=polling`;
    const open = await (await fetch(base)).text();
    const { sid } = JSON.parse(open.slice(1)) as { sid: string };
    const c = new PollingClient(base, sid);
    await c.post('40/spectate,');
    await until(async () => (await c.packets()).some((p) => p.startsWith('40/spectate')), 'the namespace to connect');
    return c;
  }

  send(message: unknown[]): Promise<void> {
    return this.post(`42/spectate,${JSON.stringify(message)}`);
  }

  /** Socket.io events received in one poll. */
  async poll(): Promise<Packet[]> {
    return (await this.packets()).filter((p) => p.startsWith('42/spectate,')).map((p) => JSON.parse(p.slice('42/spectate,'.length)) as Packet);
  }

  private async packets(): Promise<string[]> {
    const body = await (await fetch(`${this.base}&sid=${this.sid}`)).text();
    const packets = body.split('\x1e');
    if (packets.includes('2')) await this.post('3'); // engine.io ping → pong
    return packets;
  }

  private async post(body: string): Promise<void> {
    await fetch(`${this.base}&sid=${this.sid}`, { method: 'POST', body, headers: { 'content-type': 'text/plain;charset=UTF-8' } });
  }
}
