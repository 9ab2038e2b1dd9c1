import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { ADMIN_URL } from '../store/support.js';
import { spawnServer, until, type ServerProcess } from '../server/spawn-server.js';

export const ADMIN = 'viz-admin-token';
export const RESEARCHER = 'viz-research-token';
export const OUT = join(import.meta.dirname, '..', '..', '.ci', 'out');

export type VizServer = ServerProcess & { dir: string; /** Its database: a CLI run against the same store (`tiltyard ladder run`). */ database_url: string; stop(): Promise<void> };

/**
 * A real `tiltyard serve` (dist/, with dist/visualizer) on a random port over a fresh PostgreSQL
 * database (PGlite's WASM start-up is slow on a loaded machine): demo off, admin and researcher
 * tokens, a state hash every 5 events so pages check often.
 */
export async function startVizServer(env: Record<string, string> = {}): Promise<VizServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tiltyard-viz-'));
  const name = `tiltyard_viz_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const server = await spawnServer({
    DATABASE_URL: url.toString(),
    TILTYARD_DATA_DIR: join(dir, 'data'),
    TILTYARD_DEMO: 'off',
    TILTYARD_ADMIN_TOKEN: ADMIN,
    TILTYARD_RESEARCHER_TOKEN: RESEARCHER,
    TILTYARD_HASH_EVERY: '5',
    TILTYARD_LOG: 'warn',
    ...env,
  });
  return Object.assign(server, {
    dir,
    database_url: url.toString(),
    async stop() {
      server.child.kill('SIGTERM');
      await server.exited;
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** A keep-alive socket the server closed just as it was reused (a race a loaded machine makes likely). */
const droppedSocket = (e: unknown): boolean => {
  const code = (e as { cause?: { code?: string } }).cause?.code;
  return e instanceof TypeError && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET');
};

/** GET a JSON path with an optional token (asked once more if a reused socket was dropped: a GET may be repeated). */
export async function api<T>(server: { url: string }, path: string, token?: string): Promise<T> {
  const get = () => fetch(`${server.url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const res = await get().catch((e: unknown) => (droppedSocket(e) ? get() : Promise.reject(e instanceof Error ? e : new Error(String(e)))));
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** POST /games as admin; the new game's id. */
export async function createGame(server: { url: string }, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${server.url}/games`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /games answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { game_id: string }).game_id;
}

/** Waits (by polling the API, no fixed sleeps) until a game has ended; its last seq. */
export async function waitEnded(server: { url: string }, gameId: string, timeoutMs = 120_000): Promise<number> {
  return until(
    `game ${gameId} to end`,
    async () => {
      const g = await api<{ status: string; last_seq: number }>(server, `/games/${gameId}`);
      return g.status === 'ended' ? g.last_seq : undefined;
    },
    timeoutMs,
    100,
  );
}

/** Every event of a game as a token's view sees it. */
export async function allEvents(server: { url: string }, gameId: string, view: string, token?: string): Promise<Array<{ seq: number; type: string; payload: Record<string, unknown>; visibility: { hidden: { key: string; to: string[] }[] } }>> {
  const out: Array<{ seq: number; type: string; payload: Record<string, unknown>; visibility: { hidden: { key: string; to: string[] }[] } }> = [];
  let after = 0;
  for (;;) {
    const page = await api<{ events: typeof out; next_after: number; last_seq: number }>(server, `/games/${gameId}/events?view=${view}&after=${after}&limit=1000`, token);
    out.push(...page.events);
    if (page.events.length === 0 || page.next_after >= page.last_seq) return out;
    after = page.next_after;
  }
}

/** A page with the token stored for the tab before any script runs (as the token form does). */
export async function withToken(page: Page, token: string): Promise<void> {
  // A string script: this file is typed without the DOM library.
  await page.addInitScript(`sessionStorage.setItem('tiltyard.token', ${JSON.stringify(token)})`);
}

/** Reads an integer from the element with this data-testid. */
export async function num(page: Page, testId: string): Promise<number> {
  return Number(await page.getByTestId(testId).first().textContent());
}

export function outDir(): string {
  mkdirSync(OUT, { recursive: true });
  return OUT;
}

type Probe = { testId: string; op: 'eq' | 'gte'; value: string | number; attr?: string };
type El = { textContent: string | null; getAttribute(name: string): string | null };

/**
 * Waits until the element with `testId` shows `value` (text, or an attribute): equal, or as a
 * number at least. A function predicate (a string one would need eval, which the page's CSP
 * forbids).
 */
export async function waitShown(page: Page, testId: string, op: 'eq' | 'gte', value: string | number, attr?: string, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (p: Probe) => {
      const el = (globalThis as unknown as { document: { querySelector(s: string): El | null } }).document.querySelector(`[data-testid="${p.testId}"]`);
      if (!el) return false;
      const got = p.attr ? el.getAttribute(p.attr) : el.textContent;
      return p.op === 'eq' ? got === String(p.value) : Number(got) >= Number(p.value);
    },
    { testId, op, value, ...(attr ? { attr } : {}) },
    { timeout },
  );
}

/**
 * Clicks a chart's plot (the element `selector` finds: a uPlot chart's `.u-over`, the chances
 * graph's SVG) a quarter of the way along and returns the position the page moves to from `from`
 * (a click seeks to the event under the pointer).
 */
export async function clickQuarterAlong(page: Page, selector: string, from: number): Promise<number> {
  const over = page.locator(selector);
  const box = (await over.boundingBox())!;
  await over.click({ position: { x: box.width / 4, y: box.height / 2 } });
  await page.waitForFunction(`document.querySelector('[data-testid=cursor]').textContent !== '${from}'`);
  return num(page, 'cursor');
}
