import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/create-server.js';
import { bin } from '../cli/run-cli.js';
import { ADMIN, createGame, gameEnded, RESEARCHER, startServer } from './spectate-support.js';

type ErrorBody = { statusCode: number; error: string; message: string };

/** The rough edges a first user met at the REST API, each against a real server. */
describe('REST rough edges', () => {
  let server: RunningServer & { dispose(): Promise<void> };
  beforeAll(async () => {
    server = await startServer({ TILTYARD_PACE_MS: '0' });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  const post = (body: string, contentType: string) =>
    fetch(`${server.url}/games`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': contentType }, body });
  const error = async (res: Response) => ({ status: res.status, body: (await res.json()) as ErrorBody });

  it('seeds: the range the CLI takes (0 to 2^53 − 1), nothing else', async () => {
    for (const seed of [-1, 2 ** 53, 1.5]) {
      const { status, body } = await error(await post(JSON.stringify({ agents: ['random', 'turtle'], seed }), 'application/json'));
      expect(status).toBe(400);
      expect(body.message).toBe(`invalid body: seed: must be a whole number from 0 to 9007199254740991 (2^53 − 1), got ${seed}`);
    }
    const top = await createGame(server, { agents: ['random', 'turtle'], seed: Number.MAX_SAFE_INTEGER, pace_ms: 0 });
    expect(top).toMatch(/^game_/);
  });

  it('a form-encoded POST /games: one 415 saying to send JSON', async () => {
    const { status, body } = await error(await post('agents=random&agents=turtle', 'application/x-www-form-urlencoded'));
    expect(status).toBe(415);
    expect(body).toEqual({ statusCode: 415, error: 'Unsupported Media Type', message: 'request bodies must be JSON: send Content-Type: application/json (got "application/x-www-form-urlencoded")' });
    const plain = await error(await post('{"agents":["random","turtle"]}', 'text/plain'));
    expect(plain.status).toBe(415);
  });

  it('GET /games?limit=0 names the allowed range', async () => {
    for (const limit of ['0', '501', 'ten']) {
      const { status, body } = await error(await fetch(`${server.url}/games?limit=${limit}`));
      expect(status).toBe(400);
      expect(body.message).toMatch(/^invalid query: limit: must be a whole number from 1 to 500 \(games per page\), got /);
    }
    expect((await fetch(`${server.url}/games?limit=500`)).status).toBe(200);
  });

  it('/verify: anonymous callers get 403, as the reference says; researchers once the game is over', async () => {
    const id = await createGame(server, { agents: ['random', 'turtle'], pace_ms: 0, rules: { round_cap: 2 } });
    await gameEnded(server.store, id);
    const anon = await error(await fetch(`${server.url}/games/${id}/verify`));
    expect(anon.status).toBe(403);
    const researcher = await fetch(`${server.url}/games/${id}/verify`, { headers: { authorization: `Bearer ${RESEARCHER}` } });
    expect(researcher.status).toBe(200);
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'reference.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain('`/games/:id/verify` is not projected');
    expect(readme).toContain('anonymous callers get 403');
    // Over, the analytics hide nothing: no unknown figures, attacks counted.
    const a = (await (await fetch(`${server.url}/games/${id}/analytics`, { headers: { authorization: `Bearer ${RESEARCHER}` } })).json()) as { private_details: boolean; unknown_figures: string[]; figures: { byAgent: Record<string, { attacks: number | null }> } };
    expect(a.private_details).toBe(true);
    expect(a.unknown_figures).toEqual([]);
    for (const agent of Object.values(a.figures.byAgent)) expect(typeof agent.attacks).toBe('number');
  });
});

describe('serve on a busy port', () => {
  let busy: Server;
  let port = 0;
  const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-busy-port-'));
  beforeAll(async () => {
    busy = createNetServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    port = (busy.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => busy.close(resolve));
    rmSync(tmp, { recursive: true, force: true });
  });

  it('exits 1 with one line before opening the store: no demo game is left behind to resume', async () => {
    const dataDir = join(tmp, 'data');
    const child = spawn(process.execPath, [bin, 'serve', '--port', String(port)], {
      env: { ...process.env, TILTYARD_DATA_DIR: dataDir, DATABASE_URL: '', TILTYARD_DEMO: 'on', TILTYARD_LOG: 'silent', TILTYARD_DEBUG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toBe(`tiltyard: 127.0.0.1:${port} is in use (choose another with --port or PORT)\n`);
    // The store was never opened: no data dir, so no game in it.
    expect(existsSync(dataDir)).toBe(false);
  });
});
