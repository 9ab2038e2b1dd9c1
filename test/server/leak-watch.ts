/**
 * Watches one live game on a real server the way an outside attacker would (every public route
 * polled anonymously, an anonymous socket spectator, the public lobby) and, separately, the way an
 * admin does (the ground truth: the full log, live commit times, the admin's `last_hash`).
 */
import type { GameEvent } from '../../src/protocol/index.js';
import type { RunningServer } from '../../src/server/create-server.js';
import { ADMIN, RESEARCHER, Watcher, createGame, sleep, until } from './spectate-support.js';

/** One HTTP answer with the client's send and receive times (ms, same clock as the server's). */
export type Observation = { path: string; token: 'anonymous' | 'researcher' | 'admin'; status: number; body: unknown; sentAt: number; recvAt: number };

export type GameRow = { game_id: string; status: string; last_seq: number; last_hash: string | null; seed: number | null; placements: unknown; ended_at: string | null; created_at: string; updated_at: string };

export type Watched = {
  id: string;
  delayMs: number;
  /** Every public answer, in order. */
  public: Observation[];
  /** Researcher and admin answers (GET /games/:id, verify) made alongside. */
  privileged: Observation[];
  /** The anonymous socket spectator, the admin's and the anonymous lobby. */
  spectator: Watcher;
  admin: Watcher;
  lobby: Watcher;
  /** The full log (admin, REST) and the public one (anonymous REST), both complete. */
  truth: GameEvent[];
  publicEvents: GameEvent[];
};

const TOKENS = { anonymous: undefined, researcher: RESEARCHER, admin: ADMIN } as const;

async function observe(server: RunningServer, path: string, token: Observation['token']): Promise<Observation> {
  const auth = TOKENS[token];
  const sentAt = Date.now();
  const res = await fetch(`${server.url}${path}`, auth ? { headers: { authorization: `Bearer ${auth}` } } : {});
  const text = await res.text();
  return { path, token, status: res.status, body: JSON.parse(text) as unknown, sentAt, recvAt: Date.now() };
}

/** Every event of a game as one caller sees it, page by page. */
async function allEvents(server: RunningServer, id: string, token: Observation['token']): Promise<GameEvent[]> {
  const out: GameEvent[] = [];
  for (;;) {
    const o = await observe(server, `/games/${id}/events?after=${out.length}&limit=1000`, token);
    const page = (o.body as { events: GameEvent[] }).events;
    if (!page.length) return out;
    out.push(...page);
  }
}

/** How a watched game comes to be: POST /games by default; a fork is POST /games/:id/fork. */
export type Start = { create?: (server: RunningServer) => Promise<string>; also?: readonly string[] };

/** An admin's POST /games/:parentId/fork with `body`: the fork's id. */
export async function forkOver(server: RunningServer, parentId: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${server.url}/games/${parentId}/fork`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /games/${parentId}/fork answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { game_id: string }).game_id;
}

/**
 * Plays a game (`body` for POST /games, or `start.create`) and watches it until anonymous callers
 * see it ended, then reads both logs in full. Polling is a plain loop: every public route (and
 * `start.also`, e.g. a fork's parent) once per round, with no assumption about how fast the game
 * or the machine is.
 */
export async function watchGame(server: RunningServer, body: Record<string, unknown>, keep: (w: Watcher) => Watcher, start: Start = {}): Promise<Watched> {
  const delayMs = Number(body['spectator_delay_ms'] ?? 0);
  const lobby = keep(await Watcher.connect(server.url));
  lobby.socket.emit('lobby');
  await lobby.next('lobby_joined');
  const id = await (start.create ?? ((s: RunningServer) => createGame(s, body)))(server);
  const spectator = keep(await Watcher.connect(server.url)).join({ gameId: id, afterSeq: 0 });
  const admin = keep(await Watcher.connect(server.url)).join({ gameId: id, afterSeq: 0, token: ADMIN });
  const pub: Observation[] = [];
  const privileged: Observation[] = [];
  let after = 0;
  let round = 0;
  for (;;) {
    const g = `/games/${id}`;
    const routes = ['/games', '/games?status=running', '/games?status=ended', g, `${g}/events?after=${after}&limit=1000`, `${g}/snapshot`, `${g}/snapshot?seq=2147483647`, `${g}/analytics`, `${g}/verify`, '/health', ...(start.also ?? [])];
    if (round++ % 10 === 0) routes.push('/agents');
    for (const path of routes) pub.push(await observe(server, path, 'anonymous'));
    const page = pub.findLast((o) => o.path.startsWith(`${g}/events`))!.body as { next_after?: number };
    after = page.next_after ?? after;
    for (const path of [g, `${g}/verify`]) privileged.push(await observe(server, path, 'researcher'));
    privileged.push(await observe(server, g, 'admin'));
    const seen = pub.findLast((o) => o.path === g)!.body as GameRow;
    if (seen.status === 'ended') break;
    await sleep(5);
  }
  await Promise.all([spectator.ended(), admin.ended()]);
  await until(() => lobby.got('game_ended').some((m) => m.data.game_id === id), 'the public lobby to hear the end');
  return { id, delayMs, public: pub, privileged, spectator, admin, lobby, truth: await allEvents(server, id, 'admin'), publicEvents: await allEvents(server, id, 'anonymous') };
}
