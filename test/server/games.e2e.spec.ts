import type { Server as HttpServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumePersistent } from '../../src/runner/persistent-runner.js';
import { verifyGame } from '../../src/runner/verify-game.js';
import { serverSettings } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { GameBus, type CommittedStep, type LobbyNotice } from '../../src/live/game-bus.js';
import { GameService } from '../../src/server/games/game.service.js';
import { JsonLogger } from '../../src/lib/json-logger.js';
import { openStore, type EventStore } from '../../src/store/index.js';
import { playSeat } from './human-seat-client.js';
import { exportGame } from '../../src/research/export-game.js';

const ADMIN = 'admin-secret';
const RESEARCHER = 'research-secret';
/** Short games: two or three rounds are plenty to exercise the server. */
const SHORT = { round_cap: 3 };

type Json = Record<string, unknown>;

describe('games over REST, on a real server', () => {
  let server: RunningServer;
  let store: EventStore;
  let bus: GameBus;
  let service: GameService;
  const logLines: Json[] = [];
  const lobby: LobbyNotice[] = [];
  /** Every committed step of every game, as the bus delivered it (subscribed on game_started). */
  const steps = new Map<string, CommittedStep[]>();
  /** The most games the lobby ever saw playing at once, and the scheduler's own count then. */
  let live = 0;
  let peakLive = 0;
  let peakRunning = 0;
  let sawQueue = false;

  beforeAll(async () => {
    // The test owns the store, so it can inspect what a shut-down server left behind.
    store = await openStore({ dataDir: 'memory://' });
    const settings = serverSettings({
      PORT: '0',
      TILTYARD_DEMO: 'off',
      TILTYARD_ADMIN_TOKEN: ADMIN,
      TILTYARD_RESEARCHER_TOKEN: RESEARCHER,
      TILTYARD_PACE_MS: '0',
      TILTYARD_MAX_GAMES: '2',
    });
    const logger = new JsonLogger('info', (line) => logLines.push(JSON.parse(line) as Json));
    server = await createServer(settings, { store, logger });
    bus = server.app.get(GameBus);
    service = server.app.get(GameService);
    bus.onLobby((n) => {
      lobby.push(n);
      if (n.type === 'game_started') {
        live++;
        peakLive = Math.max(peakLive, live);
        steps.set(n.game_id, []);
        bus.subscribe(n.game_id, (s) => {
          steps.get(s.game_id)!.push(s);
          const a = service.activity();
          peakRunning = Math.max(peakRunning, a.running.length);
          if (a.queued.length > 0) sawQueue = true;
        });
      } else live--;
    });
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });

  const api = (path: string, init: { method?: string; token?: string; body?: unknown; raw?: string } = {}) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body !== undefined || init.raw !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : init.raw !== undefined ? { body: init.raw } : {}),
    });
  const create = async (body: Json) => {
    const res = await api('/games', { method: 'POST', token: ADMIN, body });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Json & { game_id: string };
  };
  const gameCount = async () => (await store.listGames({}, { limit: 500 })).games.length;
  const ended = (id: string) =>
    new Promise<void>((resolve) => {
      if (lobby.some((n) => n.type === 'game_ended' && n.game_id === id)) return resolve();
      const off = bus.onLobby((n) => {
        if (n.type === 'game_ended' && n.game_id === id) {
          off();
          resolve();
        }
      });
    });

  it('keeps idle connections open 65 s and says so (Keep-Alive: timeout=65), so a client never reuses one the server has just dropped', async () => {
    const res = await api('/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
    const http = server.app.getHttpServer() as HttpServer;
    expect([http.keepAliveTimeout, http.headersTimeout]).toEqual([65_000, 66_000]);
  });

  it('given an admin token, when a game is posted, then it answers 201 with the record, plays to the end, and the log verifies', async () => {
    const body = { agents: ['balanced', 'aggressor', 'turtle'], seed: 4242, rules: SHORT, spectator_delay_ms: 1500, pace_ms: 0 };
    const game = await create(body);
    expect(game).toMatchObject({
      game_id: expect.stringMatching(/^game_[0-9a-f]{12}$/),
      seed: 4242,
      seed_hidden: false,
      status: expect.stringMatching(/^(created|running)$/),
      seats: [
        { seat: 0, player_id: 'plr_1', agent: 'balanced' },
        { seat: 1, player_id: 'plr_2', agent: 'aggressor' },
        { seat: 2, player_id: 'plr_3', agent: 'turtle' },
      ],
      options: { pace_ms: 0, spectator_delay_ms: 1500, demo: false },
    });
    await ended(game.game_id);
    const report = await verifyGame(store, game.game_id);
    expect(report.assertions.filter((a) => a.status === 'fail')).toEqual([]);
    const stored = await store.getGame(game.game_id);
    expect(stored.status).toBe('ended');
    expect(stored.options).toEqual({ pace_ms: 0, spectator_delay_ms: 1500, demo: false, spectators: 'public', broadcast_held: false });

    // The bus delivered every committed step, whole, with contiguous seqs from 1 to the head.
    const delivered = steps.get(game.game_id)!;
    const seqs = delivered.flatMap((s) => s.events.map((e) => e.seq));
    expect(seqs).toEqual(Array.from({ length: stored.last_seq }, (_, i) => i + 1));
    for (const s of delivered) {
      expect(s.last_seq).toBe(s.events[s.events.length - 1]!.seq);
      expect(typeof s.committed_at).toBe('number');
    }
    expect(delivered.at(-1)!.events.at(-1)!.type).toBe('game_ended');

    // Start and end are structured log lines naming the game.
    expect(logLines).toContainEqual(expect.objectContaining({ level: 'info', msg: 'game started', game_id: game.game_id }));
    expect(logLines).toContainEqual(expect.objectContaining({ level: 'info', msg: 'game ended', game_id: game.game_id, turn: expect.any(Number), phase: expect.any(String) }));
  });

  it('given a seat whose agent fails, then the game still ends and each failure is a warn line naming the game, turn, phase and player', async () => {
    const game = await create({ agents: ['skill:test/agents/fixtures/skills/crasher', 'random'], seed: 77, rules: SHORT, pace_ms: 0 });
    await ended(game.game_id);
    const warns = logLines.filter((l) => l['msg'] === 'agent gave no usable answer; the rules fallback applies' && l['game_id'] === game.game_id);
    expect(warns.length).toBeGreaterThan(0);
    expect(warns[0]).toMatchObject({ level: 'warn', player_id: 'plr_1', turn: expect.any(Number), phase: expect.any(String), failure: { code: 'protocol/exit_code' } });
  });

  it('given games, when listed and fetched, then GET /games pages through them (status filter, cursor) and GET /games/:id returns one', async () => {
    const a = await create({ agents: ['random', 'turtle'], rules: SHORT });
    const b = await create({ agents: ['random', 'balanced'], rules: SHORT });
    await Promise.all([ended(a.game_id), ended(b.game_id)]);

    const all = (await (await api('/games?limit=500')).json()) as { games: Json[]; next_cursor: string | null };
    expect(all.games.map((g) => g.game_id)).toEqual(expect.arrayContaining([a.game_id, b.game_id]));
    expect(all.next_cursor).toBeNull();

    const first = (await (await api('/games?limit=1&status=ended')).json()) as { games: Json[]; next_cursor: string };
    expect(first.games).toHaveLength(1);
    expect(first.games[0]!.game_id).toBe(b.game_id); // newest first
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = (await (await api(`/games?limit=1&status=ended&cursor=${first.next_cursor}`)).json()) as { games: Json[] };
    expect(second.games[0]!.game_id).toBe(a.game_id);

    const none = (await (await api('/games?status=aborted')).json()) as { games: Json[] };
    expect(none.games).toEqual([]);
    const bad = await api('/games?status=paused');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).message).toMatch(/status/);
    expect((await api('/games?cursor=not-a-cursor')).status).toBe(400);

    const one = await api(`/games/${a.game_id}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ game_id: a.game_id, status: 'ended', seed: expect.any(Number) });
  });

  it('given an unknown id, when fetched, then 404 names it', async () => {
    const res = await api('/games/game_nope');
    expect(res.status).toBe(404);
    expect(((await res.json()) as Json).message).toMatch(/no game game_nope/);
  });

  it('given no, a researcher or a wrong token, when a game is posted, then 403 / 403 / 401 and nothing is created', async () => {
    const before = await gameCount();
    const body = { agents: ['random', 'random'] };
    const none = await api('/games', { method: 'POST', body });
    expect(none.status).toBe(403);
    expect(((await none.json()) as Json).message).toMatch(/admin token/);
    expect((await api('/games', { method: 'POST', body, token: RESEARCHER })).status).toBe(403);
    const wrong = await api('/games', { method: 'POST', body, token: 'guess' });
    expect(wrong.status).toBe(401);
    expect((await api('/games', { token: 'guess' })).status).toBe(401);
    expect(await gameCount()).toBe(before);
  });

  it('given malformed bodies, when posted, then each is a 400 naming the field, and nothing is created', async () => {
    const before = await gameCount();
    const cases: Array<[unknown, RegExp]> = [
      [{}, /agents: must be a list of 2–6 agents/],
      [{ agents: ['balanced'] }, /agents: needs at least 2/],
      [{ agents: Array(7).fill('random') }, /agents: takes at most 6/],
      [{ agents: ['balanced', 'nobody'] }, /agents\.1: unknown agent "nobody"/],
      [{ agents: ['balanced', 'random'], seed: 1.5 }, /seed: must be a whole number/],
      [{ agents: ['balanced', 'random'], seed: 2 ** 60 }, /seed/],
      [{ agents: ['balanced', 'random'], rules: { lives: 'three' } }, /rules\.lives/],
      [{ agents: ['balanced', 'random'], rules: { livez: 3, contest: { nois: 1 } } }, /rules\.livez: is not a rule.*rules\.contest\.nois: is not a rule/],
      [{ agents: ['balanced', 'random'], rules: [] }, /rules/],
      [{ agents: ['balanced', 'random', 'turtle'], rules: { max_seats: 2 } }, /agents: a game has 2–2 seats, got 3/],
      [{ agents: ['balanced', 'random'], spectator_delay_ms: 600_001 }, /spectator_delay_ms: must be at most 600000 ms/],
      [{ agents: ['balanced', 'random'], pace_ms: -1 }, /pace_ms: must not be negative/],
      [{ agents: ['balanced', 'random'], seats: 2 }, /Unrecognized key: "seats"/],
      [[], /\(root\)/],
    ];
    for (const [body, message] of cases) {
      const res = await api('/games', { method: 'POST', token: ADMIN, body });
      const answer = (await res.json()) as Json;
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(answer.message, JSON.stringify(body)).toMatch(message);
    }
    const notJson = await api('/games', { method: 'POST', token: ADMIN, raw: '{"agents": [' });
    expect(notJson.status).toBe(400);
    expect(await gameCount()).toBe(before);
  });

  it('given settings.maxGames = 2, when five games are posted at once, then at most two play at a time, the rest wait, and all finish', async () => {
    const games = await Promise.all(Array.from({ length: 5 }, () => create({ agents: ['random', 'turtle', 'aggressor'], rules: SHORT, pace_ms: 2 })));
    await Promise.all(games.map((g) => ended(g.game_id)));
    expect(peakLive).toBeLessThanOrEqual(2);
    expect(peakRunning).toBeLessThanOrEqual(2);
    expect(peakLive).toBe(2);
    expect(sawQueue).toBe(true);
    for (const g of games) expect((await store.getGame(g.game_id)).status).toBe('ended');
  });

  it('given games without a seed, then each draws a distinct 53-bit one, hidden from non-admins until the game ends', async () => {
    const slow = await create({ agents: ['balanced', 'manipulator'], pace_ms: 40 });
    const quick = await Promise.all([1, 2, 3].map(() => create({ agents: ['random', 'random'], rules: SHORT })));
    const seeds = [slow, ...quick].map((g) => g.seed as number);
    for (const s of seeds) expect(Number.isSafeInteger(s) && s >= 0 && s < 2 ** 53).toBe(true);
    expect(new Set(seeds).size).toBe(seeds.length);
    expect(seeds.some((s) => s > 2 ** 32)).toBe(true); // all four below 2^32: odds 2^-84

    // Wait until the slow game is running, then look at it as each role.
    for (let i = 0; i < 100 && (await store.getGame(slow.game_id)).status !== 'running'; i++) await new Promise((r) => setTimeout(r, 20));
    const as = async (token?: string) => (await (await api(`/games/${slow.game_id}`, token ? { token } : {})).json()) as Json;
    expect(await as()).toMatchObject({ status: 'running', seed: null, seed_hidden: true });
    expect(await as(RESEARCHER)).toMatchObject({ seed: null, seed_hidden: true });
    expect(await as(ADMIN)).toMatchObject({ seed: slow.seed, seed_hidden: false });
    const listed = (await (await api('/games?status=running')).json()) as { games: Json[] };
    expect(listed.games.find((g) => g.game_id === slow.game_id)).toMatchObject({ seed: null });

    await ended(quick[0]!.game_id);
    expect(await (await api(`/games/${quick[0]!.game_id}`)).json()).toMatchObject({ status: 'ended', seed: quick[0]!.seed, seed_hidden: false });
  });

  describe('human seats over HTTP (issue 40)', () => {
    type Ticket = { player_id: string; token: string; url: string };
    const isOver = (id: string) => () => lobby.some((n) => (n.type === 'game_ended' || n.type === 'game_failed') && n.game_id === id);

    it('given 2 human seats and 2 built-ins, when test clients answer each request with its first legal choice, then the game ends, verifies, and each decision is stored', async () => {
      const game = (await create({ agents: ['human:Ada', 'balanced', 'human', 'turtle'], seed: 77, rules: SHORT, pace_ms: 0 })) as Json & { game_id: string; human_seats: Ticket[] };
      expect(game.human_seats.map((t) => t.player_id)).toEqual(['plr_1', 'plr_3']);
      for (const t of game.human_seats) {
        expect(t.token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
        expect(t.url).toBe(`/seat/${game.game_id}/${t.player_id}#token=${t.token}`);
      }
      expect((await store.getGame(game.game_id)).seats.map((s) => s.display_name)).toEqual(['Ada', 'balanced', 'human', 'turtle']);
      // Only hashes are stored, and no log line carries a token.
      const stored = await store.readSeatTokens(game.game_id);
      expect(stored.map((r) => r.token_hash)).not.toContain(game.human_seats[0]!.token);
      expect(JSON.stringify(logLines)).not.toContain(game.human_seats[0]!.token);
      const [a, b] = game.human_seats as [Ticket, Ticket];
      const over = isOver(game.game_id);
      const [playA, playB] = await Promise.all([playSeat(server.url, game.game_id, a.player_id, a.token, over, { illegalOnce: true }), playSeat(server.url, game.game_id, b.player_id, b.token, over)]);
      await ended(game.game_id);
      expect(playA.answered).toBeGreaterThan(0);
      expect(playB.answered).toBeGreaterThan(0);
      // The request is exactly what an agent process receives: the envelope and the TurnPlanRequest for this seat.
      expect(playA.requests[0]).toMatchObject({ requestId: expect.any(String), tool: 'human', operation: expect.any(String), input: { player_id: 'plr_1' } });
      expect(playB.requests.every((r) => (r.input as { player_id: string }).player_id === 'plr_3')).toBe(true);
      // The illegal card was refused with the engine's code and reason in words; the seat stayed pending.
      expect(playA.refused).toEqual([{ code: expect.stringMatching(/\//), message: expect.stringMatching(/\w+ \w+/) }]);
      const report = await verifyGame(store, game.game_id);
      expect(report.assertions.filter((x) => x.status === 'fail')).toEqual([]);
      const actions = await store.readActions(game.game_id);
      expect(actions.filter((x) => x.player_id === 'plr_1' && x.accepted).length).toBe(playA.answered);
      expect(actions.filter((x) => x.player_id === 'plr_3' && x.accepted).length).toBe(playB.answered);
      expect(actions.some((x) => x.raw === undefined || x.raw === null)).toBe(false);
      // Export replays the stored answers unchanged; a person's decisions are marked by the seat's agent spec.
      const exported = await exportGame(store, await store.getGame(game.game_id));
      expect(new Set(exported.filter((x) => x.player_id === 'plr_1').map((x) => x.agent))).toEqual(new Set(['human:Ada']));
      // …and as a person's, by kind: human seats `human`, the agents `agent`.
      expect(Object.fromEntries(exported.map((x) => [x.player_id, x.agent_kind]))).toEqual({ plr_1: 'human', plr_2: 'agent', plr_3: 'human', plr_4: 'agent' });
      expect(exported.filter((x) => x.player_id === 'plr_3' && x.answered).length).toBe(playB.answered);
      // After the end, nothing is pending.
      expect((await api(`/games/${game.game_id}/seats/plr_1/request`, { token: a.token })).status).toBe(204);
      expect((await api(`/games/${game.game_id}/seats/plr_1/decision`, { method: 'POST', token: a.token, body: { requestId: 'req_x', decision: {} } })).status).toBe(409);
    });

    it('given seat tokens, then a seat reads only its own routes: another seat 403, admin routes 403, a wrong or missing token 401, a bad body 400', async () => {
      const game = (await create({ agents: ['human', 'human', 'balanced'], seed: 78, rules: SHORT, pace_ms: 0, human_timeout_ms: 50 })) as Json & { game_id: string; human_seats: Ticket[] };
      const [one, two] = game.human_seats as [Ticket, Ticket];
      const seatRoute = (p: string) => `/games/${game.game_id}/seats/${p}/request`;
      expect((await api(seatRoute('plr_2'), { token: one.token })).status).toBe(403);
      expect((await api(seatRoute('plr_1'), { token: two.token })).status).toBe(403);
      expect((await api(seatRoute('plr_1'), { token: ADMIN })).status).toBe(403);
      expect((await api(seatRoute('plr_1'), { token: 'not-a-token' })).status).toBe(401);
      expect((await api(seatRoute('plr_1'))).status).toBe(401);
      expect([200, 204]).toContain((await api(seatRoute('plr_1'), { token: one.token })).status);
      expect((await api(`/games/${game.game_id}/traces`, { token: one.token })).status).toBe(403);
      expect((await api(`/games/${game.game_id}/verify`, { token: one.token })).status).toBe(403);
      // Its own seat's view of the log and the state, and no other view.
      const events = await api(`/games/${game.game_id}/events`, { token: one.token });
      expect(events.status).toBe(200);
      expect(((await events.json()) as { events: unknown[] }).events.length).toBeGreaterThan(0);
      for (const view of ['plr_2', 'admin', 'researcher']) expect((await api(`/games/${game.game_id}/events?view=${view}`, { token: one.token })).status).toBe(403);
      expect((await api(`/games/${game.game_id}/snapshot?view=plr_2`, { token: one.token })).status).toBe(403);
      // The seat's snapshot is exactly what an admin's plr_1 view of the same seq shows.
      const mine = (await (await api(`/games/${game.game_id}/snapshot`, { token: one.token })).json()) as { seq: number; state: unknown };
      const asAdmin = (await (await api(`/games/${game.game_id}/snapshot?view=plr_1&seq=${mine.seq}`, { token: ADMIN })).json()) as { state: unknown };
      expect(mine.state).toEqual(asAdmin.state);
      expect((await api('/games', { method: 'POST', token: one.token, body: { agents: ['balanced', 'turtle'] } })).status).toBe(401);
      expect((await api(`/games/${game.game_id}/seats/plr_1/decision`, { method: 'POST', token: one.token, body: { decision: {} } })).status).toBe(400);
      expect((await api('/games/game_000000000000/seats/plr_1/request', { token: one.token })).status).toBe(404);
      await ended(game.game_id);
      // The replay file and the win chances: its own seat's view only, and the chances in the
      // public form even after the end (the omniscient ones are read off every hand).
      const replay = await api(`/games/${game.game_id}/replay`, { token: one.token });
      expect(replay.status).toBe(200);
      const file = (await replay.json()) as { view: string; events: unknown[] };
      const adminFile = (await (await api(`/games/${game.game_id}/replay?view=plr_1`, { token: ADMIN })).json()) as { view: string; events: unknown[] };
      expect(file.view).toBe('plr_1');
      expect(file.events).toEqual(adminFile.events);
      const chances = await api(`/games/${game.game_id}/win-probability`, { token: one.token });
      expect(chances.status).toBe(200);
      expect(await chances.json()).toMatchObject({ view: 'plr_1', form: 'public' });
      for (const view of ['plr_2', 'admin', 'researcher']) {
        expect((await api(`/games/${game.game_id}/replay?view=${view}`, { token: one.token })).status, view).toBe(403);
        expect((await api(`/games/${game.game_id}/win-probability?view=${view}`, { token: one.token })).status, view).toBe(403);
      }
    });

    it('given human_timeout_ms and a seat nobody answers, then each of its requests times out, the default is taken and the trace says so', async () => {
      const game = await create({ agents: ['human', 'balanced'], seed: 79, rules: { round_cap: 2 }, pace_ms: 0, human_timeout_ms: 5 });
      await ended(game.game_id);
      const report = await verifyGame(store, game.game_id);
      expect(report.assertions.filter((x) => x.status === 'fail')).toEqual([]);
      const mine = (await store.readActions(game.game_id)).filter((x) => x.player_id === 'plr_1');
      const traces = (await store.readTraces(game.game_id)).filter((t) => t.player_id === 'plr_1');
      expect(mine.length).toBeGreaterThan(0);
      // Every request of the seat went unanswered: one time-out trace per stored decision, no answer in either.
      expect(mine.every((x) => x.raw === null || x.raw === undefined)).toBe(true);
      expect(traces.length).toBe(mine.length);
      for (const t of traces) expect(t.entries).toMatchObject({ ok: false, failure: { code: 'process/timeout' }, fallback: 'engine', agent: 'human' });
      expect(logLines).toContainEqual(expect.objectContaining({ level: 'warn', game_id: game.game_id, player_id: 'plr_1', failure: expect.objectContaining({ code: 'process/timeout' }) }));
    });

    it('given a human seat, then a broadcast is held to the end by default and refused with broadcast_unsafe: refuse; forks and tournaments refuse human seats', async () => {
      const held = await create({ agents: ['human', 'balanced'], seed: 80, rules: { round_cap: 1 }, pace_ms: 0, human_timeout_ms: 5, spectators: 'broadcast' });
      expect(held.options).toMatchObject({ spectators: 'broadcast', broadcast_held: true, human_timeout_ms: 5 });
      const refused = await api('/games', { method: 'POST', token: ADMIN, body: { agents: ['balanced', 'human:Bo'], spectators: 'broadcast', broadcast_unsafe: 'refuse' } });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toMatch(/plr_2 \(human:Bo\) could act on the broadcast/);
      await ended(held.game_id);
      // Paced for a person to follow by default (1.5 s a step), as given otherwise.
      const paced = await create({ agents: ['human', 'balanced'], seed: 81, rules: { round_cap: 1, windows: 'compact' }, human_timeout_ms: 1 });
      expect(paced.options).toMatchObject({ pace_ms: 1500 });
      expect((await create({ agents: ['balanced', 'turtle'], seed: 82, rules: { round_cap: 1 } })).options).toMatchObject({ pace_ms: 0 });
      await ended(paced.game_id);
      const stray = await api('/games', { method: 'POST', token: ADMIN, body: { agents: ['balanced', 'turtle'], human_timeout_ms: 1000 } });
      expect([stray.status, await stray.text()]).toEqual([400, expect.stringMatching(/human_timeout_ms: only applies to a game with a human seat/)]);
      // Tokens are only given out by POST /games: a fork or a tournament cannot seat a person.
      const fork = await api(`/games/${held.game_id}/fork`, { method: 'POST', token: ADMIN, body: { at: 1 } });
      expect([fork.status, await fork.text()]).toEqual([400, expect.stringMatching(/a fork takes no human seats \(plr_1\)/)]);
      const trn = await api('/tournaments', { method: 'POST', token: ADMIN, body: { format: 'round-robin', entrants: ['human', 'balanced'], seats: 2 } });
      expect([trn.status, await trn.text()]).toEqual([400, expect.stringMatching(/a tournament takes no human seats/)]);
    });
  });

  it('given a game mid-play, when the server closes, then its runner stops between steps and the game resumes to a verified end', async () => {
    const slow = service.activity().running[0] ?? (await create({ agents: ['balanced', 'turtle'], pace_ms: 40 })).game_id;
    await new Promise((r) => setTimeout(r, 200));
    const t0 = performance.now();
    await server.close();
    // Reported, not asserted (a loaded machine is slower): that close did not wait for the game to
    // end is the 'running' status and the pause in the log below.
    const closeMs = performance.now() - t0;
    const left = await store.getGame(slow);
    expect(left.status).toBe('running');
    expect(await store.verifyChain(slow)).toBeNull();
    expect(logLines).toContainEqual(expect.objectContaining({ msg: expect.stringMatching(/^game paused for shutdown/), game_id: slow }));
    const out = await resumePersistent(store, slow);
    expect(out).toMatchObject({ status: 'ended', fromSeq: left.last_seq });
    const report = await verifyGame(store, slow);
    expect(report.assertions.filter((a) => a.status === 'fail')).toEqual([]);
    console.info(`shutdown with a game mid-play took ${closeMs.toFixed(0)} ms; stopped at seq ${left.last_seq}, resumed to ${out.lastSeq}`);
  });
});
