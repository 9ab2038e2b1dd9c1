import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ViewTimeline, leader, leaderWords, lineAt, narrate, stepMoment, type GameEvent, type Narration, type StateView } from '../../src/view/index.js';
import { WinTrack } from '../../src/eval/win-track.js';
import { biggestSwings, keyMomentSeqs, type KeySwing } from '../../src/eval/swings.js';
import { launchBrowser, type Browser } from './browser.js';
import { ADMIN, allEvents, api, clickQuarterAlong, createGame, num, outDir, startVizServer, waitEnded, waitShown, withToken, type VizServer } from './support.js';

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
  let names: Map<string, string>;
  /** The largest swings of the spectator's chances to win, and the key moments with them (what N and P step through). */
  let swings: KeySwing[];
  let moments: { seq: number }[];

  beforeAll(async () => {
    server = await startVizServer();
    browser = await launchBrowser();
    // Six seats; `random` addresses seats by id in its speech, `manipulator` writes "lash_out: …".
    gameId = await createGame(server, { agents: ['balanced', 'aggressor', 'manipulator', 'turtle', 'random', 'trickster'], pace_ms: 0 });
    head = await waitEnded(server, gameId, 170_000);
    const game = await api<{ seats: { player_id: string; display_name?: string; agent: string }[] }>(server, `/games/${gameId}`);
    const events = (await allEvents(server, gameId, 'spectator')) as unknown as GameEvent[];
    names = new Map(game.seats.map((s) => [s.player_id, s.display_name ?? s.agent]));
    story = narrate(events, { names });
    // The page's own computation, from the spectator's snapshot at 0 and events: one fold, a point per event.
    const base = await api<{ state: StateView }>(server, `/games/${gameId}/snapshot?seq=0&view=spectator`);
    const t = new ViewTimeline({ viewer: { role: 'spectator' }, gameOver: true, base: { seq: 0, view: base.state } });
    const track = new WinTrack({ role: 'spectator' }, true, 0);
    for (const e of events) track.push(e, t.append(e));
    const bySeq = new Map(events.map((e) => [e.seq, e]));
    swings = biggestSwings(track.points, (s) => bySeq.get(s), (id) => names.get(id) ?? 'a seat');
    moments = keyMomentSeqs(story.moments, swings);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (seq: number, view = 'spectator', token?: string): Promise<Page> => {
    const page = await browser.page();
    if (token) await withToken(page, token);
    await page.goto(`${server.url}/watch/games/${gameId}?seq=${seq}&view=${view}`);
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
    // The largest swings of the chances to win are key moments too, titled with their cause.
    expect(swings.length).toBeGreaterThan(0);
    expect(await page.getByTestId('swing-title').allTextContents()).toEqual(swings.map((s) => `chances swing ${s.title}`));
    expect(await page.getByTestId('moment-count').textContent()).toBe(`${moments.length} key moment${moments.length === 1 ? '' : 's'}`);
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
    const start = Math.max(1, moments[0]!.seq - 1);
    const page = await open(start);
    const first = stepMoment(moments, start, 1)!;
    await page.getByTestId('next-moment').click();
    await waitShown(page, 'cursor', 'eq', first);
    await expectMarkedAt(page, first);
    const second = stepMoment(moments, first, 1);
    if (second !== null) {
      await page.locator('h1').first().click();
      await page.keyboard.press('n');
      await waitShown(page, 'cursor', 'eq', second);
      await page.keyboard.press('p');
      await waitShown(page, 'cursor', 'eq', first);
    }
    expect(await page.getByTestId('prev-moment').isDisabled()).toBe(stepMoment(moments, first, -1) === null);
    expect(await num(page, 'cursor')).toBe(first);
    await page.screenshot({ path: join(outDir(), 'visualizer-moves.png'), fullPage: true });
    await page.close();
  }, 120_000);

  /** Whether the marked line is inside the move list's visible box, read with the cursor in one go. */
  // Measured after two frames: the list corrects its scroll once lazily laid-out groups take their height.
  // Playing, it is judged two frames after the cursor moved; after a jump, once the list has settled
  // (lazily laid-out groups take their height over the next frames and the list follows its line).
  const settled = (page: Page) => page.locator('[data-testid=move-list][data-settled=true]').waitFor();
  const markInView = (page: Page) =>
    page.evaluate<{ cursor: number; inView: boolean }>(`new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(0)))).then(() => {
      const box = document.querySelector('[data-testid=move-list]').getBoundingClientRect();
      const cur = [...document.querySelectorAll('[data-testid=move-line][aria-current=step]')].at(-1);
      const r = cur ? cur.getBoundingClientRect() : null;
      return { cursor: Number(document.querySelector('[data-testid=cursor]').textContent), inView: !!r && r.top >= box.top - 1 && r.bottom <= box.bottom + 1 };
    })`);

  it('steps key moments with N and P after a click on the scrubber (a range input is not a text field)', async () => {
    const page = await open(Math.floor(head / 2));
    await page.getByTestId('scrubber').click();
    const from = await num(page, 'cursor');
    const next = stepMoment(moments, from, 1);
    const prev = stepMoment(moments, from, -1);
    expect(next ?? prev).not.toBeNull();
    if (next !== null) {
      await page.keyboard.press('n');
      await waitShown(page, 'cursor', 'eq', next);
      await page.keyboard.press('p');
      await waitShown(page, 'cursor', 'eq', stepMoment(moments, next, -1)!);
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
    const far = moments.find((m) => m.seq > last + 100) ?? moments.at(-1)!;
    await page.getByTestId('scrubber').fill(String(far.seq - 1));
    await waitShown(page, 'cursor', 'eq', far.seq - 1);
    await page.getByTestId('next-moment').click();
    await waitShown(page, 'cursor', 'eq', stepMoment(moments, far.seq - 1, 1)!);
    await settled(page);
    expect((await markInView(page)).inView).toBe(true);
    // And back to the first with P: in view too.
    await page.locator('h1').first().click();
    const back = stepMoment(moments, await num(page, 'cursor'), -1);
    if (back !== null) {
      await page.keyboard.press('p');
      await waitShown(page, 'cursor', 'eq', back);
      await settled(page);
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
    const to = await clickQuarterAlong(page, '[data-testid=chart-resolve] .u-over', mid);
    expect(Math.abs(to - head / 4)).toBeLessThanOrEqual(Math.ceil(head / 50));
    await waitShown(page, 'chart-lives', 'eq', to, 'data-cursor');
    await expectMarkedAt(page, to);
    await page.screenshot({ path: join(outDir(), 'visualizer-charts.png'), fullPage: true });
    await page.close();
  }, 120_000);

  it('speaks to people: no seat id, snake_case key or bare seq in the rendered story, its footer, the result or any jump button', async () => {
    // The agents' own words hold such ids (the server's events), so the page had something to translate.
    const said = (await allEvents(server, gameId, 'admin', ADMIN)).filter((e) => e.type === 'speech_posted' && /plr_\d/.test(String(e.payload['text'])));
    expect(said.length).toBeGreaterThan(0);
    const jargon = [/plr_\d/, /\b[a-z]+_[a-z_]+\b/, /\bseq\b/, /\bmargin [+−-]?\d/];
    for (const [view, token] of [['spectator'], ['admin', ADMIN]] as const) {
      const page = await open(head, view, token);
      await page.getByTestId('result').waitFor();
      const rendered = [
        ...(await page.locator('[data-testid=move-line]').allTextContents()),
        (await page.getByTestId('move-current').textContent()) ?? '',
        (await page.getByTestId('result').textContent()) ?? '',
        ...(await page.locator('[data-testid=leader]').allTextContents()),
      ];
      if (view === 'admin') {
        // The heatmap's cell lists buttons to the events that moved it.
        await page.getByTestId('tab-trust').click();
        await page.locator('[data-testid=trust-cell]:not([data-moves="0"])').first().click();
        await page.getByTestId('cell-events').locator('li').first().waitFor();
      }
      const buttons = await page.locator('main button').allTextContents();
      expect(buttons.length).toBeGreaterThan(5);
      expect(rendered.length).toBeGreaterThan(story.lines.length);
      for (const text of [...rendered, ...buttons]) for (const re of jargon) expect(text, `${view}: ${text.slice(0, 160)}`).not.toMatch(re);
      await page.close();
    }
  }, 180_000);

  it('draws agents’ speech that names seats by id with the seats’ names, in the talk feed and the bubble', async () => {
    const said = (await allEvents(server, gameId, 'spectator')).find((e) => e.type === 'speech_posted' && e.payload['channel'] === 'public' && /plr_\d/.test(String(e.payload['text'])))!;
    const text = String(said.payload['text']).replace(/plr_\d+/g, (id) => names.get(id)!);
    const page = await open(said.seq);
    await page.getByTestId('bubble').filter({ hasText: text }).waitFor();
    expect(await page.getByTestId('speech-feed').locator('li .text').first().textContent()).toBe(text);
    for (const t of [...(await page.getByTestId('bubble').allTextContents()), ...(await page.getByTestId('speech-feed').allTextContents())]) expect(t).not.toMatch(/plr_\d/);
    await page.close();
  }, 120_000);

  it('names who is ahead at the cursor, in words, and follows the scrubber', async () => {
    // The leader at points spread over the game, from the server's public snapshots there.
    const said = new Map<number, string>();
    for (let k = 0; k <= 8; k++) {
      const seq = Math.round((head * k) / 8);
      const snap = await api<{ state: StateView }>(server, `/games/${gameId}/snapshot?seq=${seq}&view=spectator`);
      said.set(seq, leaderWords(leader(snap.state.world.players), (id) => names.get(id)!));
    }
    const seqs = [...said.keys()];
    const from = seqs.find((s) => said.get(s)!.includes(' leads'))!;
    const to = seqs.find((s) => said.get(s) !== said.get(from))!;
    expect([from, to].every((s) => s !== undefined)).toBe(true);
    const page = await open(from);
    const shown = page.getByTestId('leader');
    expect(await shown.textContent()).toContain(said.get(from)!);
    expect(said.get(from)).toMatch(/^\S.* leads/);
    await page.getByTestId('scrubber').fill(String(to));
    await waitShown(page, 'cursor', 'eq', to);
    await page.waitForFunction(`document.querySelector('[data-testid=leader]').textContent.includes(${JSON.stringify(said.get(to)!)})`);
    expect(await shown.textContent()).not.toContain(said.get(from)!);
    await page.close();
  }, 120_000);
});
