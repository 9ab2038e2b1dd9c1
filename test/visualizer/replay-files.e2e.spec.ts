import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser } from './browser.js';
import { ADMIN, RESEARCHER, allEvents, createGame, num, startVizServer, waitEnded, waitShown, withToken, type VizServer } from './support.js';

/**
 * Replays as files: a game exported from its page opens in a fresh page with every request
 * failing, and so does a `tiltyard play --json` log; a bad file is a clear error. And the minds
 * view: what a seat believed, row by row beside the truth, differences marked.
 */
describe('visualizer: replay files and minds beside truth', () => {
  let server: VizServer;
  let browser: Browser;
  let gameId: string;
  let head: number;
  /** A broadcast game (the demo table's mode) where LLM seats (the mock provider) state their reasoning. */
  let castId: string;
  let castHead: number;

  beforeAll(async () => {
    server = await startVizServer();
    browser = await launchBrowser();
    gameId = await createGame(server, { agents: ['balanced', 'trickster', 'aggressor', 'manipulator'], pace_ms: 0 });
    castId = await createGame(server, { agents: ['llm:mock', 'balanced', 'llm:mock'], rules: { round_cap: 4 }, spectators: 'broadcast', pace_ms: 0, preflight: false });
    head = await waitEnded(server, gameId, 170_000);
    castHead = await waitEnded(server, castId, 60_000);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A fresh page on /watch/replay whose every request fails once the app has loaded. */
  async function offlinePage(): Promise<{ page: Page; requests: string[] }> {
    const page = await browser.page();
    await page.goto(`${server.url}/watch/replay`);
    await page.getByTestId('replay-file').waitFor();
    const requests: string[] = [];
    await page.route('**/*', (route) => {
      requests.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    return { page, requests };
  }

  it('given a game exported from its page, when the file is opened in a fresh page with the network down, then the player shows it: scrubber, table and move list, with no request made', async () => {
    const page = await browser.page();
    await page.goto(`${server.url}/watch/games/${gameId}`);
    await page.getByTestId('table').waitFor();
    await waitShown(page, 'head', 'eq', head);
    const download = page.waitForEvent('download');
    await page.getByTestId('export-replay').click();
    const file = await (await download).path();
    const text = readFileSync(file, 'utf8');
    const exported = JSON.parse(text) as { view: string; events: unknown[] };
    expect(exported.view).toBe('spectator');
    // It is the anonymous /events, nothing more.
    expect(JSON.stringify(exported.events)).toBe(JSON.stringify(await allEvents(server, gameId, 'spectator')));
    await page.close();

    const { page: off, requests } = await offlinePage();
    await off.getByTestId('replay-file').setInputFiles(file);
    await off.getByTestId('table').waitFor();
    await waitShown(off, 'head', 'eq', head);
    await waitShown(off, 'cursor', 'eq', head);
    expect(await off.getByTestId('scrubber').isEnabled()).toBe(true);
    expect(await off.getByTestId('move-line').count()).toBeGreaterThan(10);
    expect(await off.getByTestId('connection').textContent()).toBe('replay');
    // Seeking works offline too: the first round.
    await off.getByTestId('move-line').first().click();
    expect(await num(off, 'cursor')).toBeLessThan(head);
    expect(requests).toEqual([]);
    await off.close();
  });

  it('given a broadcast game exported by an anonymous visitor, when the file is opened offline, then it plays as the broadcast view (every seat), with no request made', async () => {
    const page = await browser.page();
    await page.goto(`${server.url}/watch/games/${castId}`);
    await page.getByTestId('table').waitFor();
    await waitShown(page, 'head', 'eq', castHead);
    const download = page.waitForEvent('download');
    await page.getByTestId('export-replay').click();
    const file = await (await download).path();
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { view: string; events: Array<{ type: string; payload: Record<string, unknown> }> };
    expect(exported.view).toBe('broadcast');
    // The broadcast shows the seats' plans: the file is not the public table.
    expect(exported.events.some((e) => e.type === 'secret_plan_committed' && e.payload['plan'])).toBe(true);
    await page.close();

    const { page: off, requests } = await offlinePage();
    await off.getByTestId('replay-file').setInputFiles(file);
    await off.getByTestId('table').waitFor();
    await waitShown(off, 'head', 'eq', castHead);
    expect(await off.getByTestId('replay-error').count()).toBe(0);
    expect(await off.locator('#view-help').textContent()).toContain('broadcast');
    // It plays: seek back to an early line, then play on from there.
    // The page seeks on the click's own turn of the loop: wait for the cursor to reach the line.
    const line = off.getByTestId('move-line').nth(5);
    const at = Number(await line.getAttribute('data-seq'));
    expect(at).toBeLessThan(castHead);
    await line.click();
    await waitShown(off, 'cursor', 'eq', at);
    await off.getByTestId('play').click();
    await waitShown(off, 'cursor', 'gte', at + 1);
    expect(requests).toEqual([]);
    await off.close();
  });

  it('given an ended broadcast game with LLM seats, when an anonymous visitor opens a story line’s reasoning, then it shows the seat’s stated reasoning as the server released it, and the exported replay carries it', async () => {
    type Said = { seq: number; reasoning?: Array<{ player_id: string; text: string }> };
    const released = (await allEvents(server, castId, 'broadcast')) as unknown as Said[];
    const reasoned = released.filter((e) => Array.isArray(e.reasoning));
    expect(reasoned.length).toBeGreaterThan(5);
    const page = await browser.page();
    await page.goto(`${server.url}/watch/games/${castId}`);
    await page.getByTestId('table').waitFor();
    await waitShown(page, 'head', 'eq', castHead);
    for (const e of [reasoned[0]!, reasoned.at(-1)!]) {
      const said = e.reasoning![0]!;
      const why = page.locator(`[data-testid=move-line][data-seq="${e.seq}"] [data-testid=move-reasoning][data-seat="${said.player_id}"]`).first();
      // Closed until asked: one click on the story line’s “reasoning” opens it.
      expect(await why.count()).toBe(1);
      expect(await why.getByTestId('move-reasoning-text').isVisible()).toBe(false);
      await why.locator('summary').click();
      await waitShown(page, 'cursor', 'eq', e.seq);
      expect(await why.getByTestId('move-reasoning-text').isVisible()).toBe(true);
      expect(await why.getByTestId('move-reasoning-text').textContent()).toBe(said.text);
      expect(await why.locator('summary').textContent()).not.toMatch(/plr_\d/);
    }
    expect(await page.getByTestId('move-reasoning').count()).toBe(reasoned.reduce((n, e) => n + e.reasoning!.length, 0));
    const download = page.waitForEvent('download');
    await page.getByTestId('export-replay').click();
    const file = await (await download).path();
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { events: Said[] };
    expect(exported.events.filter((e) => Array.isArray(e.reasoning)).map((e) => [e.seq, e.reasoning])).toEqual(reasoned.map((e) => [e.seq, e.reasoning]));
    await page.close();
    // And the file shows it offline too.
    const { page: off, requests } = await offlinePage();
    await off.getByTestId('replay-file').setInputFiles(file);
    await waitShown(off, 'head', 'eq', castHead);
    const first = off.locator(`[data-testid=move-line][data-seq="${reasoned[0]!.seq}"] [data-testid=move-reasoning]`).first();
    await first.locator('summary').click();
    expect(await first.getByTestId('move-reasoning-text').textContent()).toBe(reasoned[0]!.reasoning![0]!.text);
    expect(requests).toEqual([]);
    await off.close();
  });

  it('given a `tiltyard play --json`-style log (every event, unredacted), when dropped on the page offline, then it plays as the admin view', async () => {
    const log = await allEvents(server, gameId, 'admin', ADMIN);
    const ndjson = log.map((e) => JSON.stringify(e)).join('\n');
    const { page, requests } = await offlinePage();
    // A drop, as a file dragged from the desktop arrives.
    // A string script: this file is typed without the DOM library.
    const data = await page.evaluateHandle(`(() => { const dt = new DataTransfer(); dt.items.add(new File([${JSON.stringify(ndjson)}], 'game.ndjson', { type: 'application/x-ndjson' })); return dt; })()`);
    await page.dispatchEvent('body', 'drop', { dataTransfer: data });
    await waitShown(page, 'head', 'eq', head);
    expect(await page.locator('#view-help').textContent()).toContain('admin');
    expect(await page.getByTestId('move-line').count()).toBeGreaterThan(10);
    expect(requests).toEqual([]);
    await page.close();
  });

  it('given a bad file, then the page says why and keeps the picker, with no crash', async () => {
    const { page } = await offlinePage();
    await page.getByTestId('replay-file').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"tiltyard-replay","version":9}') });
    await page.getByTestId('replay-error').waitFor();
    expect(await page.getByTestId('replay-error').textContent()).toMatch(/notes\.json: not a valid Tiltyard replay \(version 1\)/);
    await page.getByTestId('replay-file').setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) });
    await waitShown(page, 'replay-error', 'eq', 'cat.png: not a Tiltyard replay: the file is neither JSON nor a play --json log');
    expect(browser.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
    await page.close();
  });

  it('given a researcher on the ended game, when it opens “what a seat knew”, then each belief sits beside the truth on its row and the differences are marked', async () => {
    const page = await browser.page();
    await withToken(page, RESEARCHER);
    await page.goto(`${server.url}/watch/games/${gameId}?view=researcher`);
    await page.getByTestId('table').waitFor();
    await waitShown(page, 'head', 'eq', head);
    await page.getByTestId('tab-knew').click();
    // Somewhere in the game a seat believed a plan that was no longer the plan: find one by seeking.
    const rows = page.getByTestId('mind-row');
    let marked = 0;
    for (const seq of [Math.round(head / 2), Math.round(head / 3), Math.round((2 * head) / 3), head - 5, Math.round(head / 4)]) {
      await page.goto(`${server.url}/watch/games/${gameId}?view=researcher&seq=${seq}`);
      await page.getByTestId('tab-knew').click();
      await waitShown(page, 'knew-seat-side', 'eq', String(seq), 'data-seq');
      await rows.first().waitFor();
      marked = await page.locator('[data-testid=mind-row][data-status=differs]').count();
      if (marked > 0) break;
    }
    expect(marked).toBeGreaterThan(0);
    const row = page.locator('[data-testid=mind-row][data-status=differs]').first();
    expect(await row.locator('[data-testid=mind-believed]').textContent()).not.toBe(await row.locator('[data-testid=mind-truth]').textContent());
    expect(await row.textContent()).not.toMatch(/plr_\d/);
    // The raw projection stays one click away.
    expect(await page.getByTestId('knew-raw').count()).toBe(1);
    await page.close();
  });

  it('given a researcher on the ended game, when a move line is chosen, then its seat’s reasoning and trace for that round open from the move list; an anonymous page is not offered them', async () => {
    const page = await browser.page();
    await withToken(page, RESEARCHER);
    await page.goto(`${server.url}/watch/games/${gameId}?view=researcher&seq=${Math.round(head / 2)}`);
    await page.getByTestId('table').waitFor();
    await page.locator('[data-testid=move-line][data-kind=action]').nth(3).click();
    await page.getByTestId('open-trace').click();
    await page.getByTestId('trace').first().waitFor();
    expect(await page.getByTestId('trace-panel').textContent()).toMatch(/decisions, round \d+.*ms · \d+ stages? · \d+ tokens/s);
    await page.close();
    const anon = await browser.page();
    await anon.goto(`${server.url}/watch/games/${gameId}?seq=${Math.round(head / 2)}`);
    await anon.getByTestId('table').waitFor();
    await anon.locator('[data-testid=move-line][data-kind=action]').nth(3).click();
    expect(await anon.getByTestId('open-trace').count()).toBe(0);
    await anon.close();
  });
});
