import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineAt, narrate, stepMoment, type GameEvent, type Narration } from '../../src/view/index.js';
import { launchBrowser, type Browser } from './browser.js';
import { allEvents, api, createGame, num, outDir, startVizServer, waitEnded, waitShown, type VizServer } from './support.js';

/**
 * The move list in Chromium against a real server: the page tells the game with the same narrator
 * as the server-side code (its lines are `narrate` of the spectator's events), and it is the
 * scrubber's twin — a click on a line seeks there, stepping the scrubber moves the marked line,
 * and the key-moment buttons and keys jump between key moments.
 */
describe('visualizer: the move list', () => {
  let server: VizServer;
  let browser: Browser;
  let gameId: string;
  let head: number;
  let story: Narration;

  beforeAll(async () => {
    server = await startVizServer();
    browser = await launchBrowser();
    gameId = await createGame(server, { agents: ['balanced', 'aggressor', 'manipulator', 'turtle'], pace_ms: 0 });
    head = await waitEnded(server, gameId, 170_000);
    const game = await api<{ seats: { player_id: string; display_name?: string; agent: string }[] }>(server, `/games/${gameId}`);
    const events = (await allEvents(server, gameId, 'spectator')) as unknown as GameEvent[];
    story = narrate(events, { names: new Map(game.seats.map((s) => [s.player_id, s.display_name ?? s.agent])) });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (seq: number): Promise<Page> => {
    const page = await browser.page();
    await page.goto(`${server.url}/watch/games/${gameId}?seq=${seq}`);
    await page.getByTestId('move-list').waitFor();
    await waitShown(page, 'head', 'eq', head);
    await waitShown(page, 'cursor', 'eq', seq);
    return page;
  };
  /** The seqs of the lines the page marks as current (all lines of one event). */
  // String scripts: this file is typed without the DOM library.
  const marked = (page: Page) => page.evaluate<number[]>(`[...document.querySelectorAll('[data-testid=move-line][aria-current=step]')].map((el) => Number(el.getAttribute('data-seq')))`);
  const expectMarkedAt = async (page: Page, cursor: number) => {
    const i = lineAt(story.lines, cursor);
    const seq = story.lines[i]!.seq;
    await page.waitForFunction(`[...document.querySelectorAll('[aria-current=step]')].some((el) => el.getAttribute('data-seq') === '${seq}')`);
    expect(new Set(await marked(page))).toEqual(new Set([seq]));
  };

  it('shows the shared narrator’s lines, grouped by round and phase, with key moments titled', async () => {
    const page = await open(head);
    const texts = await page.locator('[data-testid=move-line] .text').allTextContents();
    expect(texts).toEqual(story.lines.map((l) => l.text));
    expect(await page.getByTestId('move-group').count()).toBe(story.groups.length);
    expect(story.moments.length).toBeGreaterThan(0);
    expect(await page.getByTestId('moment-title').count()).toBe(story.moments.length);
    expect(await page.getByTestId('moment-count').textContent()).toBe(`${story.moments.length} key moment${story.moments.length === 1 ? '' : 's'}`);
    await page.close();
  }, 120_000);

  it('seeks the scrubber to a line that is clicked, and moves the marked line when the scrubber steps', async () => {
    const mid = Math.floor(head / 2);
    const page = await open(mid);
    await expectMarkedAt(page, mid);
    // Click a line further on: the player goes to its event.
    const target = story.lines.find((l) => l.seq > mid + 20 && l.kind === 'resolution') ?? story.lines.at(-1)!;
    await page.locator(`[data-testid=move-line][data-seq="${target.seq}"]`).first().click();
    await waitShown(page, 'cursor', 'eq', target.seq);
    await expectMarkedAt(page, target.seq);
    // Step the scrubber until a new line begins: the mark follows, and stays in the list's view.
    const nextLine = story.lines.find((l) => l.seq > target.seq)!;
    await page.locator('h1').first().click();
    for (let s = target.seq; s < nextLine.seq; s++) await page.keyboard.press('ArrowRight');
    await waitShown(page, 'cursor', 'eq', nextLine.seq);
    await expectMarkedAt(page, nextLine.seq);
    // (A smooth scroll takes a moment: awaited, not raced.)
    await page.waitForFunction(`(() => {
      const box = document.querySelector('[data-testid=move-list]').getBoundingClientRect();
      const cur = [...document.querySelectorAll('[aria-current=step]')].at(-1).getBoundingClientRect();
      return cur.top >= box.top - 1 && cur.bottom <= box.bottom + 1;
    })()`, undefined, { timeout: 10_000 });
    // The range input itself: far back, the mark goes there too.
    const early = Math.floor(head / 5);
    await page.getByTestId('scrubber').fill(String(early));
    await waitShown(page, 'cursor', 'eq', early);
    await expectMarkedAt(page, early);
    await page.close();
  }, 120_000);

  it('jumps to the next and previous key moment with the buttons and the N / P keys', async () => {
    const start = Math.max(1, story.moments[0]!.seq - 1);
    const page = await open(start);
    const first = stepMoment(story.moments, start, 1)!;
    await page.getByTestId('next-moment').click();
    await waitShown(page, 'cursor', 'eq', first);
    await expectMarkedAt(page, first);
    const second = stepMoment(story.moments, first, 1);
    if (second !== null) {
      await page.locator('h1').first().click();
      await page.keyboard.press('n');
      await waitShown(page, 'cursor', 'eq', second);
      await page.keyboard.press('p');
      await waitShown(page, 'cursor', 'eq', first);
    }
    expect(await page.getByTestId('prev-moment').isDisabled()).toBe(stepMoment(story.moments, first, -1) === null);
    expect(await num(page, 'cursor')).toBe(first);
    await page.screenshot({ path: join(outDir(), 'visualizer-moves.png'), fullPage: true });
    await page.close();
  }, 120_000);

  /** Whether the marked line is inside the move list's visible box, read with the cursor in one go. */
  const markInView = (page: Page) =>
    page.evaluate<{ cursor: number; inView: boolean }>(`(() => {
      const box = document.querySelector('[data-testid=move-list]').getBoundingClientRect();
      const cur = [...document.querySelectorAll('[data-testid=move-line][aria-current=step]')].at(-1);
      const r = cur ? cur.getBoundingClientRect() : null;
      return { cursor: Number(document.querySelector('[data-testid=cursor]').textContent), inView: !!r && r.top >= box.top - 1 && r.bottom <= box.bottom + 1 };
    })()`);

  it('steps key moments with N and P after a click on the scrubber (a range input is not a text field)', async () => {
    const page = await open(Math.floor(head / 2));
    await page.getByTestId('scrubber').click();
    const from = await num(page, 'cursor');
    const next = stepMoment(story.moments, from, 1);
    const prev = stepMoment(story.moments, from, -1);
    expect(next ?? prev).not.toBeNull();
    if (next !== null) {
      await page.keyboard.press('n');
      await waitShown(page, 'cursor', 'eq', next);
      await page.keyboard.press('p');
      await waitShown(page, 'cursor', 'eq', stepMoment(story.moments, next, -1)!);
    } else {
      await page.keyboard.press('p');
      await waitShown(page, 'cursor', 'eq', prev!);
    }
    await page.close();
  }, 120_000);

  it('keeps the followed line in view while playing at 4×, and after a jump to a key moment', async () => {
    const page = await open(1);
    await page.getByTestId('speed').selectOption('4');
    await page.getByTestId('play').click();
    // Six samples, each once the cursor has moved on from the last one (polled, not slept).
    let last = await num(page, 'cursor');
    for (let i = 0; i < 6; i++) {
      await waitShown(page, 'cursor', 'gte', last + 4);
      const sample = await markInView(page);
      expect(sample.inView, `line at event ${sample.cursor} out of the list's view`).toBe(true);
      last = sample.cursor;
    }
    await page.getByTestId('play').click();
    // A jump far ahead: its line is in view at once (no smooth scroll still under way).
    const far = story.moments.find((m) => m.seq > last + 100) ?? story.moments.at(-1)!;
    await page.getByTestId('scrubber').fill(String(far.seq - 1));
    await waitShown(page, 'cursor', 'eq', far.seq - 1);
    await page.getByTestId('next-moment').click();
    await waitShown(page, 'cursor', 'eq', stepMoment(story.moments, far.seq - 1, 1)!);
    expect((await markInView(page)).inView).toBe(true);
    // And back to the first with P: in view too.
    await page.locator('h1').first().click();
    const back = stepMoment(story.moments, await num(page, 'cursor'), -1);
    if (back !== null) {
      await page.keyboard.press('p');
      await waitShown(page, 'cursor', 'eq', back);
      expect((await markInView(page)).inView).toBe(true);
    }
    await page.close();
  }, 120_000);

  it('charts lives, resolve and an emotion per seat with the position marked, and a click on a chart seeks there', async () => {
    const mid = Math.floor(head / 2);
    const page = await open(mid);
    await page.getByTestId('tab-charts').click();
    for (const id of ['chart-lives', 'chart-resolve', 'chart-emotion']) {
      await page.getByTestId(id).locator('canvas').waitFor();
      expect(await page.getByTestId(id).getAttribute('data-cursor')).toBe(String(mid));
    }
    // A click a quarter of the way along the resolve chart's plot goes a quarter of the way into the game.
    const over = page.getByTestId('chart-resolve').locator('.u-over');
    const box = (await over.boundingBox())!;
    await over.click({ position: { x: box.width / 4, y: box.height / 2 } });
    await page.waitForFunction(`document.querySelector('[data-testid=cursor]').textContent !== '${mid}'`);
    const to = await num(page, 'cursor');
    expect(Math.abs(to - head / 4)).toBeLessThanOrEqual(Math.ceil(head / 50));
    await waitShown(page, 'chart-lives', 'eq', to, 'data-cursor');
    await expectMarkedAt(page, to);
    await page.screenshot({ path: join(outDir(), 'visualizer-charts.png'), fullPage: true });
    await page.close();
  }, 120_000);
});
