import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type EventStore } from '../../src/store/index.js';
import { createTournament } from '../../src/tournament/create.js';
import { runTournament } from '../../src/tournament/runner.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';
import { Watcher } from './spectate-support.js';

const ADMIN = 'hold-admin';
const RESEARCHER = 'hold-research';
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-dup-hold-'));
const dataDir = join(tmp, 'data');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const env = {
  TILTYARD_DATA_DIR: dataDir,
  DATABASE_URL: undefined,
  TILTYARD_ADMIN_TOKEN: ADMIN,
  TILTYARD_RESEARCHER_TOKEN: RESEARCHER,
  TILTYARD_DEMO: 'off',
  TILTYARD_LOG: 'warn',
};
/**
 * Two deals (sets) of one table of two, each in both seat rotations. The games' stored pace (the
 * server resumes a tournament at its stored options) makes every game the server plays last
 * minutes (5 s between steps): a game it resumed is certainly still running while the test looks.
 */
const CONFIG = { format: 'round-robin', entrants: ['random', 'balanced'], seats: 2, seeds: 2, compact: true, seed: 5, rules: { round_cap: 3 } };
const SLOW = { pace_ms: 5_000, spectator_delay_ms: 0, demo: false };

const withStore = async <T>(fn: (s: EventStore) => Promise<T>): Promise<T> => {
  const s = await openStore({ dataDir });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
};

/** Plays the tournament in this process until `stopAfter` more games have ended. */
const playSome = (id: string, stopAfter: number) =>
  withStore(async (store) => {
    const stop = new AbortController();
    let ended = 0;
    await runTournament(id, { store, concurrency: 1, gameOptions: SLOW, signal: stop.signal, onEvent: (e) => e.type === 'game_ended' && ++ended >= stopAfter && stop.abort() });
    return store.tournaments.games(id);
  });

const get = (server: ServerProcess, path: string, token?: string) => fetch(`${server.url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

type TGame = { game_id: string; key: string; status: string };

/** A game of the tournament as the server lists it, once the server's runner has created it. */
async function gameOf(server: ServerProcess, id: string, key: string): Promise<TGame> {
  for (let i = 0; i < 600; i++) {
    const t = (await (await get(server, `/tournaments/${id}`, ADMIN)).json()) as { games: TGame[] };
    const g = t.games.find((x) => x.key === key);
    if (g) return g;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server never created ${key}`);
}

async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

describe('duplicate seeds: a set stays hidden until every rotation of its deal is over', () => {
  it('given one rotation ended and its sibling still being played, then its public log, snapshots, analytics and socket answer 403 tournament/duplicate_set_running (admins see it); once the set ends they open, while the next set is held', async () => {
    const id = await withStore(async (store) => {
      const created = await createTournament(store, CONFIG);
      if (!created.ok) throw new Error(created.message);
      return created.tournament.tournament_id;
    });
    // Set 1, rotation p0 ends here; its sibling p1 is left to the server.
    const games = await playSome(id, 1);
    const a = games.find((g) => g.state === 'ended')!;
    expect(a.key).toMatch(/^r0000-t0000-d0000-p0$/);

    let server = await spawnServer(env);
    try {
      const routes = [`/games/${a.game_id}/events`, `/games/${a.game_id}/snapshot`, `/games/${a.game_id}/analytics`, `/games/${a.game_id}/verify`];
      for (const path of routes) {
        for (const token of [undefined, RESEARCHER]) {
          const res = await get(server, path, token);
          expect(res.status, `${path} as ${token ?? 'anonymous'}`).toBe(403);
          // Analytics and verify are never an anonymous caller's (a 403 for the role, as today).
          if (!token && (path.endsWith('/analytics') || path.endsWith('/verify'))) continue;
          const body = (await res.json()) as { statusCode: number; error: string; message: string };
          expect(body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
          expect(body.message).toMatch(/^tournament\/duplicate_set_running: game game_t_\w+ is one of 2 seat rotations .* 1 of them is not over yet; .* open .* when the whole set has ended/);
        }
        expect((await get(server, path, ADMIN)).status, `${path} as admin`).toBe(200);
      }
      // The game's record stays public, with the seed and the chain's head withheld.
      const record = (await (await get(server, `/games/${a.game_id}`, RESEARCHER)).json()) as { status: string; seed: unknown; last_hash: unknown };
      expect(record).toMatchObject({ status: 'ended', seed: null, last_hash: null });

      // The sibling the server is playing (slowly) cannot be watched either, live or from seq 0.
      const b = await gameOf(server, id, 'r0000-t0000-d0000-p1');
      expect(b.status).not.toBe('ended');
      for (const token of [undefined, RESEARCHER]) {
        const w = await Watcher.connect(server.url, token ? { auth: { token } } : {});
        try {
          w.join({ gameId: b.game_id, afterSeq: 0 });
          const refused = await w.next('error');
          expect(refused.data).toMatchObject({ code: 'tournament/duplicate_set_running' });
          w.join({ gameId: a.game_id, afterSeq: 0 });
          expect((await w.next('error', (m) => m.message.includes(a.game_id))).data.code).toBe('tournament/duplicate_set_running');
          expect(w.all('snapshot')).toHaveLength(0);
        } finally {
          w.close();
        }
      }
      const admin = await Watcher.connect(server.url, { auth: { token: ADMIN } });
      try {
        admin.join({ gameId: b.game_id, afterSeq: 0 });
        expect((await admin.next('snapshot')).data).toMatchObject({ game_id: b.game_id, seq: 0, view: 'admin' });
      } finally {
        admin.close();
      }
    } finally {
      await stopServer(server);
    }

    // Finish set 1 here (the sibling the server paused), then let the server play set 2.
    const after = await playSome(id, 1);
    expect(after.filter((g) => g.key.startsWith('r0000-')).map((g) => g.state)).toEqual(['ended', 'ended']);
    server = await spawnServer(env);
    try {
      for (const path of [`/games/${a.game_id}/events`, `/games/${a.game_id}/snapshot`]) expect((await get(server, path)).status, path).toBe(200);
      const page = (await (await get(server, `/games/${a.game_id}/events`)).json()) as { events: { seq: number }[] };
      expect(page.events[0]!.seq).toBe(1);
      expect((await get(server, `/games/${a.game_id}/analytics`, RESEARCHER)).status).toBe(200);
      // Set 2 is now being played: its games are held as set 1's were.
      const next = await gameOf(server, id, 'r0001-t0000-d0000-p0');
      expect(next.status).not.toBe('ended');
      const held = await get(server, `/games/${next.game_id}/events`);
      expect(held.status).toBe(403);
      expect(((await held.json()) as { message: string }).message).toMatch(/^tournament\/duplicate_set_running: .* 2 of them are not over yet/);
    } finally {
      await stopServer(server);
    }
  }, 900_000);
});
