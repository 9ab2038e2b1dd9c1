/**
 * `npm run docs:screenshots`: regenerates the pictures in docs/img from a real server (dist/, the
 * embedded database in a temp folder, the broadcast demo table on) and Debian's Chromium, so the
 * README and docs/visualizer.md show what the current build draws. Needs `npm run build` first.
 *
 * lobby · a live broadcast game as anyone sees it · an ended game's result · its move list · its
 * charts · a seat's beliefs beside the truth (admin, "What a seat knew") · an attack in flight with
 * its plan (admin replay) · a tournament's page · a ladder's page (docs/img/ladder.png) · a person's seat page with a decision open; and on
 * a phone (390×844, touch): the lobby, the live game, the ended game and the seat page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { spawnServer, until } from '../test/server/spawn-server.js';
import { CHROMIUM, CHROMIUM_ARGS, launchBrowser } from '../test/visualizer/browser.js';
import { playLadder } from './ladder-shots.js';
import { seatPageShot } from './seat-shots.js';

const IMG = join(import.meta.dirname, '..', 'docs', 'img');
const ADMIN = 'screenshots-admin';
const dir = mkdtempSync(join(tmpdir(), 'tiltyard-shots-'));
// Played before the server opens the same embedded database.
const ladder = await playLadder(join(dir, 'data'));
const server = await spawnServer({ TILTYARD_DATA_DIR: join(dir, 'data'), DATABASE_URL: undefined, TILTYARD_ADMIN_TOKEN: ADMIN, TILTYARD_PACE_MS: '120', TILTYARD_LOG: 'warn' });
const browser = await launchBrowser({ width: 1440, height: 1000 });

const json = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
  const res = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};
const shot = async (page: Page, name: string, selector?: string) => {
  const path = join(IMG, name);
  if (selector) await page.locator(selector).first().screenshot({ path });
  else await page.screenshot({ path, fullPage: false });
  console.log(`wrote docs/img/${name}`);
};

/** The lobby with its featured game's small table and the list of games drawn. */
const lobbyDrawn = async (page: Page) => {
  await page.getByTestId('featured').waitFor();
  await page.getByTestId('mini-table').first().waitFor();
  await page.getByTestId('games-list').waitFor();
};

try {
  const { game_id: ended } = await json<{ game_id: string }>('/games', { method: 'POST', body: JSON.stringify({ agents: ['balanced', 'aggressor', 'manipulator', 'trickster'], pace_ms: 0, seed: 20261127, spectators: 'broadcast' }) });
  const { tournament_id: tournament } = await json<{ tournament_id: string }>('/tournaments', {
    method: 'POST',
    body: JSON.stringify({ name: 'Four built-ins', format: 'round-robin', entrants: ['balanced', 'aggressor', 'manipulator', 'trickster'], seats: 3, seeds: 1, duplicate: false, seed: 11, pace_ms: 0 }),
  });
  await until('the ended game', async () => ((await json<{ status: string }>(`/games/${ended}`)).status === 'ended' ? true : undefined), 300_000, 250);
  const demo = await until('the demo game a few rounds in', async () => {
    // The only game running besides ours is the demo table's.
    const { games } = await json<{ games: Array<{ game_id: string; last_seq: number }> }>('/games?status=running&limit=20');
    const g = games.find((x) => x.game_id !== ended);
    return g && g.last_seq > 400 ? g.game_id : undefined;
  }, 300_000, 500);

  const anon = await browser.page();
  await anon.goto(`${server.url}/`);
  await lobbyDrawn(anon);
  await shot(anon, 'visualizer-lobby.png');

  await anon.goto(`${server.url}/watch/games/${demo}`);
  await anon.getByTestId('move-list').waitFor();
  await anon.waitForTimeout(1500);
  await shot(anon, 'visualizer-live.png');

  await anon.goto(`${server.url}/watch/games/${ended}`);
  await anon.getByTestId('result').waitFor();
  await shot(anon, 'visualizer-result.png');
  await anon.getByTestId('win-panel').scrollIntoViewIfNeeded();
  await shot(anon, 'visualizer-chances.png', '[data-testid="win-panel"]');
  await anon.getByTestId('move-list').scrollIntoViewIfNeeded();
  await shot(anon, 'visualizer-moves.png', '[data-testid="move-list"]');
  await anon.getByTestId('tab-charts').click();
  await anon.waitForTimeout(800);
  await shot(anon, 'visualizer-charts.png', '[role="tabpanel"]');

  const admin = await browser.page();
  await admin.addInitScript(`sessionStorage.setItem('tiltyard.token', ${JSON.stringify(ADMIN)})`);
  await admin.goto(`${server.url}/watch/games/${ended}?view=admin`);
  await admin.getByTestId('tab-knew').click();
  await admin.waitForTimeout(800);
  await shot(admin, 'visualizer-seat-knew.png', '[role="tabpanel"]');

  // An attack in flight: the first submitted attack with a plan, drawn as an arrow with its card.
  const { events } = await json<{ events: Array<{ seq: number; type: string; payload: Record<string, unknown> }> }>(`/games/${ended}/events?after=0&limit=1000&view=admin`);
  const attack = events.find((e) => e.type === 'action_submitted' && e.payload['attack_plan'] && e.payload['card'] && e.seq > 300);
  if (attack) {
    await admin.goto(`${server.url}/watch/games/${ended}?view=admin&seq=${attack.seq}`);
    await admin.getByTestId('attack-arrow').first().waitFor();
    await admin.waitForTimeout(500);
    await shot(admin, 'visualizer-replay.png');
  }

  await until('the tournament', async () => ((await json<{ status: string }>(`/tournaments/${tournament}`)).status === 'ended' ? true : undefined), 300_000, 250);
  await anon.goto(`${server.url}/watch/tournaments/${tournament}`);
  await anon.getByTestId('standings').waitFor();
  await anon.waitForTimeout(500);
  await shot(anon, 'visualizer-tournament.png');
  await anon.goto(`${server.url}/watch/ladders/${ladder}`);
  await anon.getByTestId('rating-chart').waitFor();
  await shot(anon, 'ladder.png', 'main');
  const seat = await seatPageShot(server.url, json, anon, shot);
  if (browser.errors.length) console.warn(`page errors: ${browser.errors.join('; ')}`);

  // A phone: a touch screen of 390×844 CSS pixels at twice the density.
  const phone = await chromium.launchPersistentContext(join(dir, 'phone-profile'), { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  try {
    const p = await phone.newPage();
    await p.goto(`${server.url}/`);
    await lobbyDrawn(p);
    await shot(p, 'visualizer-phone-lobby.png');
    await p.goto(`${server.url}/watch/games/${demo}`);
    await p.getByTestId('move-list').waitFor();
    await p.waitForTimeout(1500);
    await shot(p, 'visualizer-phone-live.png');
    await p.goto(`${server.url}/watch/games/${ended}`);
    await p.getByTestId('result').waitFor();
    await shot(p, 'visualizer-phone-result.png');
    await p.goto(seat);
    await p.getByTestId('decision').waitFor();
    await shot(p, 'visualizer-phone-seat.png');
  } finally {
    await phone.close();
  }
} finally {
  await browser.close();
  server.child.kill('SIGTERM');
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
}
