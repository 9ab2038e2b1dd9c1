import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { runPersistent } from '../../src/runner/persistent-runner.js';
import { serverSettings } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { JsonLogger } from '../../src/lib/json-logger.js';
import { ReplayFile, parseReplay } from '../../src/view/replay-file.js';

const ADMIN = 'admin-token-for-tests';
const RESEARCHER = 'researcher-token-for-tests';
const LINEUP = ['manipulator', 'trickster', 'balanced', 'aggressor'];
const RULES = { round_cap: 5 };

type Reply<T> = { status: number; body: T };
type EventsPage = { events: GameEvent[]; last_seq: number; next_after: number };

/** Crashes a runner right after a commit, leaving its game in progress. */
class Crash extends Error {}

describe('GET /games/:id/replay and /traces', () => {
  let server: RunningServer;
  let ended: string;
  let running: string;
  let delayed: string;

  async function get<T>(path: string, token?: string): Promise<Reply<T>> {
    const res = await fetch(`${server.url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    return { status: res.status, body: (await res.json()) as T };
  }

  /** What paging /events from 0 and /snapshot?seq=0 give one caller: the file must hold exactly this. */
  async function pagedAs(gameId: string, query: string, token?: string): Promise<{ events: GameEvent[]; base: unknown }> {
    const events: GameEvent[] = [];
    for (let after = 0; ; ) {
      const r = await get<EventsPage>(`/games/${gameId}/events?after=${after}&limit=113${query}`, token);
      expect(r.status).toBe(200);
      if (r.body.events.length === 0) break;
      events.push(...r.body.events);
      after = r.body.next_after;
    }
    const base = (await get<{ state: unknown }>(`/games/${gameId}/snapshot?seq=0${query}`, token)).body.state;
    return { events, base };
  }

  beforeAll(async () => {
    server = await createServer(serverSettings({ PORT: '0', TILTYARD_DATA_DIR: 'memory://', TILTYARD_DEMO: 'off', TILTYARD_ADMIN_TOKEN: ADMIN, TILTYARD_RESEARCHER_TOKEN: RESEARCHER }), { logger: new JsonLogger('error', () => {}) });
    ended = (await runPersistent(server.store, { seed: 5_151_001, agents: LINEUP, rules: RULES })).gameId;
    let commits = 0;
    const crashed = await runPersistent(server.store, { seed: 5_151_002, agents: LINEUP, rules: RULES }, {
      onCommit: () => {
        if (++commits === 60) throw new Crash();
      },
    }).catch((e: unknown) => e);
    expect(crashed).toBeInstanceOf(Crash);
    running = (await server.store.listGames({ status: 'running' })).games[0]!.game_id;
    // The first 40 inputs an hour ago, the rest now: an anonymous caller sees only the old part.
    const hourAgo = Date.now() - 3_600_000;
    let inputs = 0;
    const clock = () => new Date(++inputs <= 40 ? hourAgo + inputs : Date.now()).toISOString();
    delayed = (await runPersistent(server.store, { seed: 5_151_003, agents: LINEUP, rules: RULES, options: { pace_ms: 0, spectator_delay_ms: 60_000 } }, { clock })).gameId;
    await server.store.prisma.$executeRaw`UPDATE games SET created_at = now() - interval '2 hours' WHERE game_id = ${delayed}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('given an anonymous caller, then the replay file holds exactly the anonymous /events and seq-0 snapshot — nothing more — and parses as a version-1 replay', async () => {
    const r = await get<ReplayFile>(`/games/${ended}/replay`);
    expect(r.status).toBe(200);
    const paged = await pagedAs(ended, '');
    expect(JSON.stringify(r.body.events)).toBe(JSON.stringify(paged.events));
    expect(JSON.stringify(r.body.base)).toBe(JSON.stringify(paged.base));
    expect(r.body).toMatchObject({ format: 'tiltyard-replay', version: 1, game_id: ended, view: 'spectator', game_over: true, last_seq: paged.events.length });
    expect(ReplayFile.safeParse(r.body).success).toBe(true);
    // And the file's text carries no key beyond those (nothing hidden rides in the envelope).
    const text = JSON.stringify(r.body);
    expect(text).not.toContain('"raw":');
    expect(text).not.toContain('"rng":');
    expect(text).not.toContain('"secret_plan":{');
    const loaded = parseReplay(text);
    expect(loaded.ok && loaded.replay.events.length).toBe(paged.events.length);
  });

  it('given a spectator delay, then the anonymous file stops at the delayed head, while an admin’s reaches the log’s head', async () => {
    const anon = await get<ReplayFile>(`/games/${delayed}/replay`);
    const paged = await pagedAs(delayed, '');
    expect(anon.body.last_seq).toBe(paged.events.length);
    expect(JSON.stringify(anon.body.events)).toBe(JSON.stringify(paged.events));
    const admin = await get<ReplayFile>(`/games/${delayed}/replay`, ADMIN);
    expect(admin.body.view).toBe('admin');
    expect(admin.body.last_seq).toBeGreaterThan(anon.body.last_seq);
  });

  it('given a running game, then a researcher’s file is the public table its /events gives, and a seat view (admin) is that seat’s own', async () => {
    const researcher = await get<ReplayFile>(`/games/${running}/replay?view=researcher`, RESEARCHER);
    expect(researcher.body.game_over).toBe(false);
    expect(JSON.stringify(researcher.body.events)).toBe(JSON.stringify((await pagedAs(running, '&view=researcher', RESEARCHER)).events));
    const seat = await get<ReplayFile>(`/games/${ended}/replay?view=plr_2`, ADMIN);
    expect(seat.body.view).toBe('plr_2');
    expect(JSON.stringify(seat.body.events)).toBe(JSON.stringify((await pagedAs(ended, '&view=plr_2', ADMIN)).events));
  });

  it('given a view above the role or a malformed one, then 403 and 400 as /events answers them', async () => {
    expect((await get(`/games/${ended}/replay?view=admin`)).status).toBe(403);
    expect((await get(`/games/${running}/replay?view=plr_1`, RESEARCHER)).status).toBe(403);
    expect((await get(`/games/${ended}/replay?view=nobody`)).status).toBe(400);
    expect((await get(`/games/game_nope/replay`)).status).toBe(404);
  });

  it('given decision traces, then admins read them any time, researchers once the game is over, and anonymous callers never; player and turn filter them', async () => {
    const trace = (player_id: string, turn: number) => ({ player_id, turn, window: 'action', request_id: `req_${player_id}_${turn}`, entries: { agent: 'llm:mock', ok: true, latency_ms: 812, retries: 1, validation: ['payload.target: required'], stages: [{ stage: 'reason', payload: { reasoning: 'bo is bluffing' }, metrics: { latency_ms: 800, tokens: 321 } }] } });
    for (const id of [ended, running]) await server.store.recordTraces(id, [trace('plr_1', 1), trace('plr_2', 1), trace('plr_1', 2)]);
    const anon = await get(`/games/${ended}/traces`);
    expect([401, 403]).toContain(anon.status);
    expect((await get(`/games/${running}/traces`, RESEARCHER)).status).toBe(403);
    const researcher = await get<{ traces: Array<{ player_id: string; turn: number; entries: { stages: unknown[] } }> }>(`/games/${ended}/traces?player=plr_1&turn=1`, RESEARCHER);
    expect(researcher.status).toBe(200);
    // The built-in seats' own traces are there too: every one is plr_1's in round 1, ours the last.
    expect(new Set(researcher.body.traces.map((t) => `${t.player_id}@${t.turn}`))).toEqual(new Set(['plr_1@1']));
    expect(JSON.stringify(researcher.body.traces.at(-1)!.entries)).toContain('bo is bluffing');
    const admin = await get<{ traces: Array<{ request_id: string }> }>(`/games/${running}/traces`, ADMIN);
    expect(admin.status).toBe(200);
    expect(admin.body.traces.slice(-3).map((t) => t.request_id)).toEqual(['req_plr_1_1', 'req_plr_2_1', 'req_plr_1_2']);
    expect((await get(`/games/${ended}/traces?player=nobody`, ADMIN)).status).toBe(400);
  });
});
