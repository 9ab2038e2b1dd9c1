import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyGame } from '../../src/runner/verify-game.js';
import { openStore, type EventStore } from '../../src/store/index.js';
import { parseTournamentConfig } from '../../src/tournament/config.js';
import { nextGames } from '../../src/tournament/formats.js';
import { resultsOf } from '../../src/tournament/results.js';
import { standings } from '../../src/tournament/standings.js';
import { spawnServer, until, type ServerProcess } from './spawn-server.js';
import { Watcher } from './spectate-support.js';

const ADMIN = 'trn-admin';
const RESEARCHER = 'trn-research';
/** Short games: compact windows and three rounds are plenty to exercise the server. */
const SMALL = { format: 'round-robin', entrants: ['random', 'balanced', 'aggressor'], seats: 2, seeds: 1, compact: true, rules: { round_cap: 3 } };

type Json = Record<string, unknown>;
type Standing = { agent: string; games: number; wins: number; mu: number; rating_ci: { low: number; high: number } | null; win_rate: { low: number; high: number } | null; placement_ci: unknown; wpa?: { value: number; low: number; high: number } | null; wpa_decisions?: number };
type TGame = { game_id: string; link: string; key: string; seats: string[]; status: string; placements: number[] | null };
type Tournament = Json & { tournament_id: string; status: string; config: Json & { seed: number | null }; seed_hidden: boolean; progress: { played: number; scheduled: number; running: number; failed: number; planned: number | null; stopped: number }; standings: Standing[]; games: TGame[] };

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-tournaments-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const envFor = (dataDir: string) => ({
  TILTYARD_DATA_DIR: dataDir,
  DATABASE_URL: undefined,
  TILTYARD_ADMIN_TOKEN: ADMIN,
  TILTYARD_RESEARCHER_TOKEN: RESEARCHER,
  TILTYARD_DEMO: 'off',
  TILTYARD_MAX_GAMES: '2',
  TILTYARD_PACE_MS: '0',
  TILTYARD_LOG: 'warn',
});

/** A transport failure of a reused keep-alive connection the server closed at that very moment. */
const resetSocket = (e: unknown): boolean => (e as { cause?: { code?: string } } | null)?.cause?.code === 'ECONNRESET';

function client(server: ServerProcess) {
  const api = async (path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<Response> => {
    const send = () =>
      fetch(`${server.url}${path}`, {
        method: init.method ?? 'GET',
        headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      });
    try {
      return await send();
    } catch (e) {
      // Only a GET is safe to send again (a POST might have been applied).
      if ((init.method ?? 'GET') !== 'GET' || !resetSocket(e)) throw e;
      return send();
    }
  };
  const json = async <T = Json>(path: string, token?: string): Promise<T> => {
    const res = await api(path, token ? { token } : {});
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    return (await res.json()) as T;
  };
  const create = async (body: Json): Promise<Tournament> => {
    const res = await api('/tournaments', { method: 'POST', token: ADMIN, body });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Tournament;
  };
  return { api, json, create };
}

/** A lobby listener: a real socket.io client that joined the lobby (with a token, or anonymously). */
async function lobby(server: ServerProcess, token?: string): Promise<Watcher> {
  const w = await Watcher.connect(server.url, token ? { auth: { token } } : {});
  w.socket.emit('lobby', {});
  await w.next('lobby_joined');
  return w;
}

const withStore = async <T>(dataDir: string, fn: (s: EventStore) => Promise<T>): Promise<T> => {
  const s = await openStore({ dataDir });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
};

/** The standings a fresh computation gives from the stored games: what the API must agree with. */
async function recomputed(store: EventStore, id: string) {
  const t = await store.tournaments.get(id);
  const parsed = parseTournamentConfig(t.config);
  if (!parsed.ok) throw new Error(parsed.message);
  const games = await store.tournaments.games(id);
  return { config: parsed.config, games, standings: standings(parsed.config, resultsOf(games)) };
}

describe('tournaments over REST and in the lobby, on a real server process', () => {
  const dataDir = join(tmp, 'main');
  let server: ServerProcess;
  let api: ReturnType<typeof client>;
  let publicLobby: Watcher;
  let researchLobby: Watcher;
  let spectator: Watcher | null = null;
  let id = '';

  beforeAll(async () => {
    server = await spawnServer(envFor(dataDir));
    api = client(server);
    [publicLobby, researchLobby] = await Promise.all([lobby(server), lobby(server, RESEARCHER)]);
  }, 180_000);
  afterAll(async () => {
    for (const w of [publicLobby, researchLobby, spectator]) w?.close();
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('given an admin token, when a tournament is posted, then 201, its games run in the server, the lobby follows it to the end and a spectator watches one of its games', async () => {
    const t = await api.create({ ...SMALL, name: 'three built-ins', pace_ms: 15 });
    id = t.tournament_id;
    expect(t).toMatchObject({
      tournament_id: expect.stringMatching(/^trn_[0-9a-f]{12}$/),
      name: 'three built-ins',
      status: expect.stringMatching(/^(created|running)$/),
      config: { format: 'round-robin', entrants: SMALL.entrants, seats: 2, seeds: 1, duplicate: true, compact: true, seed: expect.any(Number) },
      seed_hidden: false, // the caller is an admin
    });
    expect(Number.isSafeInteger(t.config.seed)).toBe(true);

    // The lobby hears it start, then each of its games start (as any game), so one can be watched live.
    const started = await researchLobby.next('tournament_started', (n) => n.tournament_id === id);
    expect(started.data).toMatchObject({ type: 'tournament_started', name: 'three built-ins', format: 'round-robin', entrants: SMALL.entrants, seats: 2, resumed: false });
    const first = await researchLobby.next('game_started', (n) => n.game_id.startsWith('game_t_'));
    expect((await api.json<Tournament>(`/tournaments/${id}`)).games.map((g) => g.game_id)).toContain(first.data.game_id);
    // Duplicate seeds: the public may not watch a rotation while its deal's other rotation is
    // unfinished (test/server/duplicate-hold.e2e.spec.ts), so this watcher is an admin.
    spectator = await Watcher.connect(server.url, { auth: { token: ADMIN } });
    spectator.join({ gameId: first.data.game_id, afterSeq: 0 });
    const snapshot = await spectator.next('snapshot');
    expect(snapshot.data).toMatchObject({ game_id: first.data.game_id, seq: 0, view: 'admin' });

    // Anonymous callers get the seed only once the tournament is over (every deal derives from it),
    // and the standings count ended games only. (Whether it is still running by now depends on the
    // machine's speed: the rule is checked either way; test/server/tournament-view.unit.spec.ts pins both cases.)
    const mid = await api.json<Tournament>(`/tournaments/${id}`);
    expect(mid.seed_hidden).toBe(mid.status !== 'ended');
    expect(mid.config.seed).toBe(mid.seed_hidden ? null : t.config.seed);
    expect(mid.standings.reduce((n, s) => n + s.games, 0)).toBe(mid.progress.played * 2);
    for (const g of mid.games) if (g.status !== 'ended') expect(g.placements).toBeNull();
    expect((await api.json<Tournament>(`/tournaments/${id}`, ADMIN)).config.seed).toBe(t.config.seed);

    const ended = await researchLobby.next('tournament_ended', (n) => n.tournament_id === id);
    const gameEnds = researchLobby.all('tournament_game_ended').filter((n) => n.tournament_id === id);
    // 3 tables × 1 seed × 2 seat rotations.
    expect(gameEnds).toHaveLength(6);
    expect(new Set(gameEnds.map((n) => n.game_id)).size).toBe(6);
    expect(gameEnds.map((n) => n.progress.played).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const n of gameEnds) {
      expect(n.agents).toHaveLength(2);
      expect(n.placements.every((p) => p === 1 || p === 2)).toBe(true);
    }
    expect(ended.data).toMatchObject({ type: 'tournament_ended', status: 'ended', played: 6, leader: expect.any(String) });
    // Each game was announced as a game too, before the tournament counted it.
    const gameEnded = researchLobby.all('game_ended').map((n) => n.game_id);
    for (const n of gameEnds) expect(gameEnded).toContain(n.game_id);
    // The public lobby (no delay on these games) heard the same, in the same order.
    await publicLobby.next('tournament_ended', (n) => n.tournament_id === id);
    const order = (w: Watcher) => w.log.filter((m) => m.name.startsWith('tournament_') && (m.data as { tournament_id: string }).tournament_id === id).map((m) => `${m.name}:${(m.data as { game_id?: string }).game_id ?? ''}`);
    expect(order(publicLobby)).toEqual(order(researchLobby));
    expect(order(researchLobby)[0]).toBe('tournament_started:');
    expect(order(researchLobby).at(-1)).toBe('tournament_ended:');

    // The spectator saw the whole game from seq 1 to its game_ended, contiguous.
    const end = await spectator.ended();
    expect(spectator.seqs).toEqual(Array.from({ length: end.data.seq }, (_, i) => i + 1));

    const final = await api.json<Tournament>(`/tournaments/${id}`);
    expect(final).toMatchObject({ status: 'ended', seed_hidden: false, config: { seed: t.config.seed }, progress: { played: 6, scheduled: 6, running: 0, failed: 0 } });
    expect(final.standings.map((s) => s.agent).sort()).toEqual([...SMALL.entrants].sort());
    for (const s of final.standings) {
      expect(s.games).toBe(4); // two tables, each in both seats
      expect(s.win_rate).toMatchObject({ low: expect.any(Number), high: expect.any(Number) });
      expect(s.placement_ci).not.toBeNull();
    }
    expect(final.standings[0]!.agent).toBe(ended.data.leader);
    expect(final.games).toHaveLength(6);
    for (const g of final.games) {
      expect(g.link).toBe(`/games/${g.game_id}`);
      expect(g.status).toBe('ended');
      expect(g.placements).toHaveLength(2);
      const game = await api.json<Json>(g.link);
      // The tournament is over: its seeds are everyone's, to re-run any game.
      expect(game).toMatchObject({ game_id: g.game_id, status: 'ended', seed: expect.any(Number), seed_hidden: false, seats: [{ agent: g.seats[0] }, { agent: g.seats[1] }] });
      expect(gameEnds.find((n) => n.game_id === g.game_id)).toMatchObject({ agents: g.seats, placements: g.placements });
    }
  }, 180_000);

  it('given the ended tournament, then GET /tournaments/:id/report is the research report of its games (JSON or CSV), for researchers and admins only', async () => {
    expect((await api.api(`/tournaments/${id}/report`)).status).toBe(403);
    expect((await api.api(`/tournaments/${id}/report`, { token: 'guess' })).status).toBe(401);
    type Report = Json & { report: { games: number; overall: { games: number; byAgent: Record<string, { games: number; wins: number }> }; agents: Array<{ agent: string }>; pairs: Array<Json> } };
    const report = await api.json<Report>(`/tournaments/${id}/report`, RESEARCHER);
    expect(report).toMatchObject({ tournament_id: id, status: 'ended', games_counted: 6, report: { games: 6, overall: { games: 6 } } });
    expect(report.report.agents.map((a) => a.agent).sort()).toEqual([...SMALL.entrants].sort());
    // Its per-agent games and wins are the standings' (both fold the same six ended games).
    const table = (await api.json<Tournament>(`/tournaments/${id}`)).standings;
    for (const s of table) expect(report.report.overall.byAgent[s.agent]).toMatchObject({ games: s.games, wins: s.wins });
    // The skill figure beside the rating reads every hand and plan (the omniscient model): a
    // researcher's standings carry each agent's mean WPA per decision (the report's, over the same
    // games; its interval drawn with the tournament seed), an anonymous caller's none.
    const wpa = (report.report as unknown as { wpa: Array<{ agent: string; kind: string; decisions: number; mean: { value: number } }> }).wpa.filter((r) => r.kind === 'all');
    const seen = (await api.json<Tournament>(`/tournaments/${id}`, RESEARCHER)).standings;
    expect(seen.map((s) => s.agent)).toEqual(table.map((s) => s.agent));
    for (const s of seen) {
      const row = wpa.find((r) => r.agent === s.agent)!;
      expect(s.wpa_decisions).toBe(row.decisions);
      expect(s.wpa!.value).toBe(row.mean.value);
    }
    for (const s of table) expect(s).not.toHaveProperty('wpa');
    expect(await api.json(`/tournaments/${id}/report`, ADMIN)).toEqual(report);
    // The who-manipulated-whom matrix: anyone may have it (public facts of ended games), and it is
    // the report's own, folded from the games as a spectator sees them.
    const attacks = await api.json<{ games_counted: number; cells: Json[] }>(`/tournaments/${id}/attacks`);
    expect(attacks.games_counted).toBe(6);
    expect(attacks.cells).toEqual((report.report as unknown as { attacks: Json[] }).attacks);

    const csv = await api.api(`/tournaments/${id}/report?format=csv`, { token: RESEARCHER });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split('\n');
    expect(lines[0]).toMatch(/^agent,games,wins,/);
    expect(lines.slice(1).map((l) => l.split(',')[0]).sort()).toEqual([...SMALL.entrants].sort());
    const pairs = await api.api(`/tournaments/${id}/report?format=csv&table=pairs`, { token: RESEARCHER });
    const pairRows = (await pairs.text()).trim().split('\n').slice(1).map((l) => l.split(','));
    expect(pairRows.length).toBeGreaterThan(0); // aggressor attacks someone in every game
    for (const [agent, target] of pairRows) expect(SMALL.entrants).toEqual(expect.arrayContaining([agent, target]));
    expect(report.report.pairs).toHaveLength(pairRows.length);
    // The emotion → choice shifts: six intents pooled, then each entrant × intent.
    const shifts = (await (await api.api(`/tournaments/${id}/report?format=csv&table=shifts`, { token: RESEARCHER })).text()).trim().split('\n');
    expect(shifts[0]).toMatch(/^target,emotional_intent,samples,/);
    expect(shifts).toHaveLength(1 + 6 + SMALL.entrants.length * 6);

    const bad = await api.api(`/tournaments/${id}/report?format=xml`, { token: RESEARCHER });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).message).toMatch(/format/);
    expect((await api.api('/tournaments/trn_nope/report', { token: RESEARCHER })).status).toBe(404);
  });

  it('given tournaments, then GET /tournaments pages through them newest first (status filter, cursor) and an unknown id is a 404 naming it', async () => {
    const second = await api.create({ ...SMALL, entrants: ['turtle', 'random'], seeds: 1, pace_ms: 0 });
    await until('the second tournament to end', async () => ((await api.json<Tournament>(`/tournaments/${second.tournament_id}`)).status === 'ended' ? true : undefined), 60_000);

    const all = await api.json<{ tournaments: Tournament[]; next_cursor: string | null }>('/tournaments');
    expect(all.tournaments.map((t) => t.tournament_id)).toEqual([second.tournament_id, id]);
    expect(all.next_cursor).toBeNull();
    expect(all.tournaments[1]).toMatchObject({ status: 'ended', progress: { played: 6, scheduled: 6, failed: 0 } });
    expect(all.tournaments[1]).not.toHaveProperty('games');

    const page1 = await api.json<{ tournaments: Tournament[]; next_cursor: string }>('/tournaments?limit=1&status=ended');
    expect(page1.tournaments.map((t) => t.tournament_id)).toEqual([second.tournament_id]);
    const page2 = await api.json<{ tournaments: Tournament[]; next_cursor: string | null }>(`/tournaments?limit=1&status=ended&cursor=${page1.next_cursor}`);
    expect(page2.tournaments.map((t) => t.tournament_id)).toEqual([id]);
    expect(page2.next_cursor).toBeNull();
    expect((await api.json<{ tournaments: Tournament[] }>('/tournaments?status=running,created')).tournaments).toEqual([]);

    const bad = await api.api('/tournaments?status=paused');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).message).toMatch(/status/);
    expect((await api.api('/tournaments?cursor=not-a-cursor')).status).toBe(400);
    const missing = await api.api('/tournaments/trn_nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'no tournament trn_nope (GET /tournaments lists them)' });
  }, 90_000);

  it('given the ended tournament, when POST /tournaments/:id/resume, then 202 with nothing to play again; a non-admin gets 403 and an unknown id 404', async () => {
    const res = await api.api(`/tournaments/${id}/resume`, { method: 'POST', token: ADMIN });
    expect(res.status, await res.clone().text()).toBe(202);
    expect(((await res.json()) as Tournament).tournament_id).toBe(id);
    await until('the resumed runner to find nothing left', async () => {
      const t = await api.json<Tournament & { progress: { played: number; failed: number } }>(`/tournaments/${id}`);
      return t.status === 'ended' ? t : undefined;
    }, 60_000);
    expect((await api.json<{ progress: Json }>(`/tournaments/${id}`)).progress).toMatchObject({ played: 6, scheduled: 6, failed: 0 });
    expect((await api.api(`/tournaments/${id}/resume`, { method: 'POST', token: RESEARCHER })).status).toBe(403);
    expect((await api.api(`/tournaments/${id}/resume`, { method: 'POST' })).status).toBe(403);
    const missing = await api.api('/tournaments/trn_nope/resume', { method: 'POST', token: ADMIN });
    expect(missing.status).toBe(404);
  });

  it('given no, a researcher or a wrong token, when a tournament is posted, then 403 / 403 / 401 and nothing is created', async () => {
    const count = async () => (await api.json<{ tournaments: unknown[] }>('/tournaments?limit=500')).tournaments.length;
    const before = await count();
    const none = await api.api('/tournaments', { method: 'POST', body: SMALL });
    expect(none.status).toBe(403);
    expect(((await none.json()) as Json).message).toMatch(/admin token/);
    expect((await api.api('/tournaments', { method: 'POST', body: SMALL, token: RESEARCHER })).status).toBe(403);
    const wrong = await api.api('/tournaments', { method: 'POST', body: SMALL, token: 'guess' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'unknown token' });
    expect((await api.api('/tournaments', { token: 'guess' })).status).toBe(401);
    expect((await api.api(`/tournaments/${id}`, { token: 'guess' })).status).toBe(401);
    expect(await count()).toBe(before);
  });

  it('given malformed bodies, when posted, then each is a 400 naming the field, and nothing is created', async () => {
    const count = async () => (await api.json<{ tournaments: unknown[] }>('/tournaments?limit=500')).tournaments.length;
    const before = await count();
    const cases: Array<[unknown, RegExp]> = [
      [{}, /format: must be one of round-robin, swiss, gauntlet/],
      [{ ...SMALL, format: 'knockout' }, /format/],
      [{ ...SMALL, entrants: ['random'] }, /entrants: needs at least 2 entrants/],
      [{ ...SMALL, seats: 4 }, /entrants: needs at least 4 entrants for 4 seats/],
      [{ ...SMALL, entrants: ['random', 'nobody'] }, /entrants: .*nobody/],
      [{ ...SMALL, entrants: ['random', 'random'] }, /entrants: names "random" twice/],
      [{ ...SMALL, seats: 1 }, /seats/],
      [{ ...SMALL, seed: 1.5 }, /seed: must be a whole number/],
      [{ ...SMALL, seed: -1 }, /seed: must be a whole number from 0 to 9007199254740991 \(2\^53 − 1\), got -1/],
      [{ ...SMALL, max_games: 1 }, /max_games: must be at least 2/],
      [{ ...SMALL, challenger: 'random' }, /challenger: only a gauntlet/],
      [{ ...SMALL, rules: { livez: 3 } }, /rules/],
      [{ ...SMALL, pace_ms: -1 }, /pace_ms: must not be negative/],
      [{ ...SMALL, spectator_delay_ms: 600_001 }, /spectator_delay_ms: must be at most 600000 ms/],
      [{ ...SMALL, seat: 2 }, /Unrecognized key: "seat"/],
      [[], /\(root\)/],
    ];
    for (const [body, message] of cases) {
      const res = await api.api('/tournaments', { method: 'POST', token: ADMIN, body });
      const answer = (await res.json()) as Json;
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(answer, JSON.stringify(body)).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(answer.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await count()).toBe(before);
  });

  it('given ladders, then POST /ladders and /ladders/:id/entrants are admin-only and validated, GET /ladders lists them and GET /ladders/:id shows entrants and standings', async () => {
    const body = { name: 'rest', entrants: [{ agent: 'random' }, { agent: 'balanced' }, { agent: 'aggressor' }], seats: 3, compact: true };
    expect((await api.api('/ladders', { method: 'POST', body })).status).toBe(403);
    expect((await api.api('/ladders', { method: 'POST', token: RESEARCHER, body })).status).toBe(403);
    for (const [bad, message] of [
      [{ ...body, seats: 4 }, /3 entrants cannot fill 4 seats/],
      [{ ...body, entrants: [{ agent: 'random' }, { agent: 'nobody' }] }, /nobody/],
      [{ ...body, entrants: [{ agent: 'random', max_usd_total: 1 }, { agent: 'balanced' }] }, /only LLM entrants/],
      [{ ...body, colour: 'red' }, /colour/],
    ] as const) {
      const res = await api.api('/ladders', { method: 'POST', token: ADMIN, body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(((await res.json()) as Json).message).toMatch(message);
    }
    const created = await api.api('/ladders', { method: 'POST', token: ADMIN, body });
    expect(created.status).toBe(201);
    const ladder = (await created.json()) as { ladder_id: string; deals: number; standings: Standing[]; entrants: { agent: string; newcomer: boolean }[] };
    expect(ladder).toMatchObject({ deals: 0, standings: expect.arrayContaining([expect.objectContaining({ agent: 'random', games: 0, rating_ci: null })]) });
    expect((await api.api(`/ladders/${ladder.ladder_id}/entrants`, { method: 'POST', body: { agent: 'turtle' } })).status).toBe(403);
    const added = await api.api(`/ladders/${ladder.ladder_id}/entrants`, { method: 'POST', token: ADMIN, body: { agent: 'turtle' } });
    expect(added.status).toBe(201);
    expect((await api.api(`/ladders/${ladder.ladder_id}/entrants`, { method: 'POST', token: ADMIN, body: { agent: 'turtle' } })).status).toBe(400);
    const shown = await api.json<{ entrants: { agent: string; newcomer: boolean; status: string }[] }>(`/ladders/${ladder.ladder_id}`);
    // In the order they joined (those joining together by name), the newcomer last.
    expect(shown.entrants.map((e) => e.agent)).toEqual(['aggressor', 'balanced', 'random', 'turtle']);
    expect(shown.entrants.every((e) => e.newcomer && e.status === 'active')).toBe(true);
    expect((await api.json<{ ladders: { ladder_id: string }[] }>('/ladders')).ladders.map((l) => l.ladder_id)).toContain(ladder.ladder_id);
    const missing = await api.api('/ladders/lad_nope');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Json).message).toMatch(/no ladder lad_nope/);
  });

  it('given the server stopped, then the stored standings are those a fresh computation gives from the stored games, and every game verifies', async () => {
    const shown = await api.json<Tournament>(`/tournaments/${id}`);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await withStore(dataDir, async (store) => {
      const again = await recomputed(store, id);
      expect(shown.standings).toEqual(JSON.parse(JSON.stringify(again.standings)));
      for (const g of again.games) expect((await verifyGame(store, g.game_id)).assertions.filter((a) => a.status === 'fail'), g.game_id).toEqual([]);
    });
  }, 60_000);
});

describe('a tournament on a server process killed mid-run', () => {
  it('given a tournament under way, when the process is SIGKILLed and started again on the same data, then it resumes and ends with every game played once', async () => {
    const dataDir = join(tmp, 'killed');
    const body = { ...SMALL, seeds: 2, seed: 99, pace_ms: 10 };
    const first = await spawnServer(envFor(dataDir));
    const watch1 = await lobby(first, RESEARCHER);
    const t = await client(first).create(body);
    // Kill it once two games counted and more are under way.
    await watch1.next('tournament_game_ended', (n) => n.tournament_id === t.tournament_id && n.progress.played >= 2, 60_000);
    first.child.kill('SIGKILL');
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
    watch1.close();
    const before = await withStore(dataDir, async (s) => s.tournaments.get(t.tournament_id));
    expect(before.status).toBe('running');
    expect(before.progress.ended).toBeLessThan(12);

    const ladderId = await withStore(dataDir, async (s) => (await s.ladders.create({ name: 'served', seed: 3, seats: 2, compact: true, entrants: [{ agent: 'random' }, { agent: 'turtle' }] })).ladder_id);
    // Info logs this time: the resume happens at boot, before any lobby listener can connect.
    const second = await spawnServer({ ...envFor(dataDir), TILTYARD_LOG: 'info', TILTYARD_LADDER: ladderId, TILTYARD_LADDER_EVERY_MS: '60000' });
    try {
      const api = client(second);
      await until('the resumed tournament to end', async () => ((await api.json<Tournament>(`/tournaments/${t.tournament_id}`)).status === 'ended' ? true : undefined), 120_000, 100);
      const final = await api.json<Tournament>(`/tournaments/${t.tournament_id}`);
      expect(final.progress).toEqual({ played: 12, scheduled: 12, running: 0, failed: 0, planned: 12, stopped: 0 }); // 3 tables × 2 seeds × 2 rotations
      const logged = second.output().stdout.split('\n').filter((l) => l.includes(t.tournament_id)).map((l) => JSON.parse(l) as Json);
      expect(logged).toContainEqual(expect.objectContaining({ msg: 'tournament resumed', tournament_id: t.tournament_id }));
      // `serve --ladder` (here TILTYARD_LADDER) runs the ladder created before the start: a deal at
      // once, then one a minute (so it hardly competes with the tournament for the CPU).
      await until('the served ladder to count a deal', async () => ((await api.json<{ deals_done: number }>(`/ladders/${ladderId}`)).deals_done >= 1 ? true : undefined), 120_000, 100);
      second.child.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });

      await withStore(dataDir, async (store) => {
        const again = await recomputed(store, t.tournament_id);
        // Exactly the schedule: every game of round-robin's one batch, once.
        const schedule = nextGames(again.config, []);
        if (schedule === 'done') throw new Error('an empty schedule');
        expect(again.games.map((g) => g.key).sort()).toEqual(schedule.map((g) => g.key).sort());
        expect(final.standings).toEqual(JSON.parse(JSON.stringify(again.standings)));
        for (const g of again.games) expect((await verifyGame(store, g.game_id)).assertions.filter((a) => a.status === 'fail'), g.game_id).toEqual([]);
      });
    } finally {
      if (second.child.exitCode === null) second.child.kill('SIGKILL');
    }
  }, 300_000);
});

describe('a tournament whose games have a spectator delay', () => {
  const dataDir = join(tmp, 'delayed');
  let server: ServerProcess;
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('given its games ended inside their delay, then an anonymous GET /tournaments/:id shows them as still playing (no placements, no standings, no head-to-head) while an admin sees them ended', async () => {
    server = await spawnServer(envFor(dataDir));
    const api = client(server);
    // The longest delay there is (10 min): far beyond this test's own 300 s timeout, so every
    // anonymous read below falls inside it however slow the machine is.
    const t = await api.create({ ...SMALL, duplicate: false, pace_ms: 0, spectator_delay_ms: 600_000 });
    const ended = await until('the tournament to end', async () => {
      const seen = await api.json<Tournament>(`/tournaments/${t.tournament_id}`, ADMIN);
      return seen.status === 'ended' ? seen : undefined;
    }, 240_000);
    expect(ended.progress).toMatchObject({ played: 3, scheduled: 3 });
    expect(ended.games.every((g) => g.placements !== null)).toBe(true);
    expect(ended.standings.reduce((n, s) => n + s.games, 0)).toBe(6);
    expect((ended as Tournament & { head_to_head: unknown[] }).head_to_head.length).toBeGreaterThan(0);

    const anon = await api.json<Tournament & { head_to_head: unknown[] }>(`/tournaments/${t.tournament_id}`);
    // Nor has the tournament ended for them: its status would tell that its last game is over.
    expect(anon.status).toBe('running');
    expect(anon.ended_at).toBeNull();
    expect(anon.progress).toMatchObject({ played: 0, scheduled: 3 });
    // The list's counters and status say no more than the tournament's own page.
    const listed = await api.json<{ tournaments: Tournament[] }>('/tournaments');
    const row = listed.tournaments.find((x) => x.tournament_id === t.tournament_id);
    expect(row).toMatchObject({ status: 'running', ended_at: null, progress: { played: 0, scheduled: 3, failed: 0 } });
    const adminRow = (await api.json<{ tournaments: Tournament[] }>('/tournaments', ADMIN)).tournaments.find((x) => x.tournament_id === t.tournament_id);
    expect(adminRow).toMatchObject({ status: 'ended', progress: { played: 3, scheduled: 3 } });
    expect(anon.games.map((g) => g.placements)).toEqual([null, null, null]);
    expect(anon.standings.reduce((n, s) => n + s.games, 0)).toBe(0);
    expect(anon.head_to_head).toEqual([]);
    const attacks = await api.json<{ games_counted: number }>(`/tournaments/${t.tournament_id}/attacks`);
    expect(attacks.games_counted).toBe(0);
  }, 300_000);
});
