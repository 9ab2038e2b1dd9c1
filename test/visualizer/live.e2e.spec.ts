import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser } from './browser.js';
import { EVIL_SPEECH, writeEvilSkill } from './evil-skill.js';
import { until } from '../server/spawn-server.js';
import { winChances } from '../../src/eval/model.js';
import { chanceLeader, pct } from '../../src/eval/chance-words.js';
import type { StateView } from '../../src/view/index.js';
import { ADMIN, RESEARCHER, api, createGame, num, outDir, startVizServer, waitShown, withToken, type VizServer } from './support.js';

/**
 * The visualizer in Chromium against a real `tiltyard serve`, following a live game: the lobby,
 * live events, a forced socket drop and resume, roles, and untrusted speech. Every wait is on a
 * DOM condition; the game is paced so it stays live while the tests run.
 */
describe('visualizer: a live game', () => {
  let server: VizServer;
  let browser: Browser;
  let skills: string;
  let gameId: string;

  beforeAll(async () => {
    skills = mkdtempSync(join(tmpdir(), 'tiltyard-viz-skill-'));
    const evil = writeEvilSkill(skills);
    server = await startVizServer();
    browser = await launchBrowser();
    gameId = await createGame(server, { agents: ['balanced', `skill:${evil}`, 'aggressor'], pace_ms: 150 });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(skills, { recursive: true, force: true });
  });

  const gamePage = async (token?: string, query = ''): Promise<Page> => {
    const page = await browser.page();
    if (token) await withToken(page, token);
    await page.goto(`${server.url}/watch/games/${gameId}${query}`);
    return page;
  };
  const whenLive = (page: Page) => page.getByTestId('connection').filter({ hasText: /^live$/ }).waitFor();
  const headAtLeast = (page: Page, n: number) => waitShown(page, 'head', 'gte', n, undefined, 60_000);

  it('serves the app at / under a strict CSP, and leaves the JSON API where it was', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(await res.text()).not.toMatch(/<script>(?!<\/script>)/);
    const json = await fetch(`${server.url}/games/${gameId}`);
    expect(json.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await json.json()) as { game_id: string }).game_id).toBe(gameId);
    const nav = await fetch(`${server.url}/games/${gameId}?seq=3`, { headers: { 'sec-fetch-dest': 'document' }, redirect: 'manual' });
    expect(nav.status).toBe(302);
    expect(nav.headers.get('location')).toBe(`/watch/games/${gameId}?seq=3`);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('lists the live game in the lobby, with its agents, and links to its page', async () => {
    const page = await browser.page();
    await page.goto(`${server.url}/`);
    const link = page.locator(`a[data-game-id="${gameId}"]`);
    await link.waitFor();
    await expect(link.textContent()).resolves.toMatch(/LIVE/);
    await expect(link.textContent()).resolves.toMatch(/balanced · evil-talker · aggressor|balanced · .* · aggressor/);
    await page.locator('.conn.ok').waitFor();
    await page.screenshot({ path: join(outDir(), 'visualizer-lobby.png') });
    await link.click();
    await page.getByTestId('table').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/watch/games/${gameId}`);
    await page.close();
  });

  it('draws the live game in the lobby as a small table (seat names, lives, who leads) that moves on with the game', async () => {
    const page = await browser.page();
    await page.goto(`${server.url}/`);
    // The only live game here is the featured one: drawn large, from the public spectator snapshot.
    const table = page.locator(`[data-testid=featured] .mini-tables[data-game-id="${gameId}"] [data-testid=mini-table]`);
    await table.waitFor();
    const record = await api<{ seats: { seat: number; player_id: string; display_name?: string; agent: string }[] }>(server, `/games/${gameId}`);
    const names = [...record.seats].sort((a, b) => a.seat - b.seat).map((s) => s.display_name ?? s.agent);
    expect(await table.getByTestId('mini-name').allTextContents()).toEqual(names);
    const seq0 = Number(await table.getAttribute('data-seq'));
    const shown = await api<{ state: { world: { players: { player_id: string; lives: number; alive: boolean }[] } } }>(server, `/games/${gameId}/snapshot?view=spectator&seq=${seq0}`);
    const lives = shown.state.world.players.filter((p) => p.alive).map((p) => String(p.lives));
    expect(await Promise.all((await table.locator('[data-testid=mini-lives]').all()).map((l) => l.getAttribute('data-lives')))).toEqual(lives);
    expect(await table.getAttribute('aria-label')).toMatch(new RegExp(`${names[0]} (\\d+ li(fe|ves)|out)`));
    // Its row names the leader with the public model's chance, as of the snapshot the table shows.
    const said = await until(
      'the lobby to name a leader with a chance',
      async () => {
        const r = await page.evaluate<{ seq: number; text: string | null }>(`(() => ({ seq: Number(document.querySelector('[data-testid=featured] [data-testid=mini-table]').getAttribute('data-seq')), text: document.querySelector('[data-testid=featured] [data-testid=live-leader]')?.textContent ?? null }))()`);
        return r.text ? r : undefined;
      },
      60_000,
      100,
    );
    const at = await api<{ state: StateView }>(server, `/games/${gameId}/snapshot?view=spectator&seq=${said.seq}`);
    const top = chanceLeader(winChances(at.state, 'public'))!;
    const lead = at.state.world.players.find((p) => p.player_id === top.player_id)!;
    expect(said.text).toBe(`${lead.display_name || lead.player_id} leads · ${pct(top.p)}`);
    // It follows the game: a later refresh shows a later position.
    const featuredSeq = async () => Number(await page.locator('[data-testid=featured] [data-testid=mini-table]').getAttribute('data-seq'));
    await until('the lobby table to move on', async () => ((await featuredSeq()) > seq0 ? true : undefined), 60_000, 100);
    await page.close();
  });

  it('receives events live, and after a forced socket drop resumes with no gap, duplicate or hash mismatch', async () => {
    const page = await gamePage();
    await whenLive(page);
    const h0 = await num(page, 'head');
    await headAtLeast(page, h0 + 5);
    await waitShown(page, 'h-checks', 'gte', 1, undefined, 60_000);
    // The diagnostics (and their drop button) are behind a toggle for anyone but admins.
    await page.getByText('diagnostics', { exact: true }).click();
    await page.getByTestId('drop-connection').click();
    await waitShown(page, 'h-reconnects', 'gte', 1);
    await whenLive(page);
    const h1 = await num(page, 'head');
    await headAtLeast(page, h1 + 5);
    expect(await num(page, 'h-gaps')).toBe(0);
    expect(await num(page, 'h-dups')).toBe(0);
    expect(await num(page, 'h-mismatches')).toBe(0);
    // The folded state after the resume is the server's: stop at a seq and compare hashes.
    await page.getByTestId('step-back').click();
    const hashEl = page.getByTestId('cursor-hash');
    await hashEl.waitFor();
    const seq = Number(await hashEl.getAttribute('data-seq'));
    const snap = await api<{ state_hash: string }>(server, `/games/${gameId}/snapshot?seq=${seq}&view=spectator`);
    expect(await hashEl.getAttribute('data-hash')).toBe(snap.state_hash);
    await page.getByTestId('go-live').click();
    await headAtLeast(page, (await num(page, 'head')) + 1);
    await page.screenshot({ path: join(outDir(), 'visualizer-live.png'), fullPage: true });
    await page.close();
  }, 180_000);

  it('renders agent speech that is markup as text: no element is created and no dialog fires', async () => {
    const page = await gamePage();
    const feed = page.getByTestId('speech-feed');
    for (const line of EVIL_SPEECH) await feed.getByText(line, { exact: true }).first().waitFor({ timeout: 60_000 });
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.locator('#app script').count()).toBe(0);
    expect(browser.dialogs).toEqual([]);
    await page.close();
  }, 120_000);

  it('offers each role only its views: anonymous cannot switch to admin, admin can take a seat', async () => {
    const anon = await gamePage(undefined, '?view=admin');
    await anon.getByTestId('view-notice').waitFor();
    expect(await anon.getByTestId('view-select').locator('option').allTextContents()).toEqual(['spectator']);
    expect(new URL(anon.url()).searchParams.get('view')).toBe('spectator');
    await anon.close();

    const researcher = await gamePage(RESEARCHER);
    await researcher.getByTestId('table').waitFor();
    expect(await researcher.getByTestId('view-select').locator('option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value))).toEqual(['spectator', 'researcher']);
    await researcher.close();

    const admin = await gamePage(ADMIN);
    await admin.getByTestId('table').waitFor();
    const values = await admin.getByTestId('view-select').locator('option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
    expect(values).toEqual(['spectator', 'researcher', 'admin', 'plr_1', 'plr_2', 'plr_3']);
    await admin.getByTestId('view-select').selectOption('plr_2');
    await whenLive(admin);
    expect(new URL(admin.url()).searchParams.get('view')).toBe('plr_2');
    await admin.close();
  }, 180_000);

  it('changes its labels when the game ends while the page is open: ended, not live, no longer "a round behind"', async () => {
    // A game of its own that ends during the test, broadcast so the badge says it is behind. Paced
    // so it lasts ~100 decision windows × 250 ms, an order of magnitude past a slow page load (the
    // check below fails, never passes falsely, if the game ended first).
    const quick = await createGame(server, { agents: ['balanced', 'aggressor'], pace_ms: 250, spectators: 'broadcast' });
    const page = await browser.page();
    await page.goto(`${server.url}/watch/games/${quick}`);
    await page.getByTestId('table').waitFor();
    await whenLive(page);
    expect(await page.getByTestId('go-live').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('broadcast-badge').textContent()).toMatch(/a round/);
    expect(await page.locator('#view-help').textContent()).toMatch(/a round behind/);
    expect((await api<{ status: string }>(server, `/games/${quick}`)).status).not.toBe('ended');
    // The end arrives over the socket.
    await page.getByTestId('connection').filter({ hasText: /^ended$/ }).waitFor({ timeout: 240_000 });
    expect(await page.getByTestId('go-live').count()).toBe(0);
    expect(await page.getByTestId('broadcast-badge').textContent()).not.toMatch(/behind/);
    expect(await page.locator('.game-head').textContent()).not.toMatch(/a round behind/);
    await page.getByTestId('result').waitFor();
    await page.close();
  }, 300_000);

  it('logged no console errors and opened no dialog on any page', () => {
    expect(browser.errors).toEqual([]);
    expect(browser.dialogs).toEqual([]);
  });
});
