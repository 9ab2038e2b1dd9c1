import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METER_EMOTIONS } from '../../src/view/index.js';
import { launchBrowser, type Browser } from './browser.js';
import { EVIL_SPEECH, PRIVATE_MARKER, writeEvilSkill } from './evil-skill.js';
import { ADMIN, allEvents, api, createGame, outDir, startVizServer, waitEnded, waitShown, withToken, type VizServer } from './support.js';

type Card = { card_id: string; name: string };
type Snapshot = { state: { world: { players: { player_id: string; hand_count: number; tell: { dominant: string | null; masked: boolean } }[] }; private: { player_id: string; hand: Card[]; emotion_state: Record<string, number> }[] } };
type Ev = Awaited<ReturnType<typeof allEvents>>[number];
type Box = { top: number; bottom: number; left: number; right: number };

/**
 * The table drawn as a table in Chromium: hands and arena cards as cards with their effect on
 * hover and focus, emotion meters, attack arrows and speech bubbles — as much as the view holds
 * and no more (an anonymous page gets backs and tells), and agent speech as text only.
 */
describe('visualizer: the table draws cards, meters, arrows and talk', () => {
  let server: VizServer;
  let browser: Browser;
  let skills: string;
  let gameId: string;
  let head: number;
  let adminEvents: Ev[];

  beforeAll(async () => {
    skills = mkdtempSync(join(tmpdir(), 'tiltyard-viz-table-'));
    const evil = writeEvilSkill(skills);
    server = await startVizServer();
    browser = await launchBrowser();
    gameId = await createGame(server, { agents: ['aggressor', `skill:${evil}`, 'manipulator', 'balanced'], pace_ms: 0 });
    head = await waitEnded(server, gameId, 170_000);
    adminEvents = await allEvents(server, gameId, 'admin', ADMIN);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(skills, { recursive: true, force: true });
  });

  const open = async (seq: number, view = 'spectator', token?: string): Promise<Page> => {
    const page = await browser.page();
    if (token) await withToken(page, token);
    await page.goto(`${server.url}/watch/games/${gameId}?seq=${seq}&view=${view}`);
    await page.getByTestId('table').waitFor();
    await waitShown(page, 'cursor', 'eq', seq);
    return page;
  };
  /** An attack in flight: the first submitted attack with a plan, while it waits on the stack. */
  const attack = () => adminEvents.find((e) => e.type === 'action_submitted' && e.payload['attack_plan'] && e.payload['card']) as Ev;

  it('shows an admin every hand as cards with names and effects, emotion meters with values, and the attack in flight as an arrow with its card', async () => {
    const submitted = attack();
    const seq = submitted.seq;
    const snap = await api<Snapshot>(server, `/games/${gameId}/snapshot?seq=${seq}&view=admin`, ADMIN);
    const page = await open(seq, 'admin', ADMIN);
    for (const priv of snap.state.private) {
      const seat = page.locator(`[data-player=${priv.player_id}]`);
      const cards = seat.locator('[data-row=hand] [data-card]');
      const shown: { card_id: string | null; name: string | null }[] = [];
      for (let i = 0; i < (await cards.count()); i++) shown.push({ card_id: await cards.nth(i).getAttribute('data-card'), name: await cards.nth(i).getAttribute('data-name') });
      expect(shown).toEqual(priv.hand.map((c) => ({ card_id: c.card_id, name: c.name })));
      // Meters carry their values for assistive tech, and print them.
      for (const emotion of METER_EMOTIONS) {
        const meter = seat.locator(`[role=meter][data-emotion=${emotion}]`);
        expect(Number(await meter.getAttribute('aria-valuenow'))).toBeCloseTo(priv.emotion_state[emotion]!, 2);
      }
    }
    // A card takes the focus, says its name, type and effect, and shows its effect line.
    const card = page.locator('[data-row=hand] [data-card]').first();
    const name = (await card.getAttribute('data-name'))!;
    await card.focus();
    const effect = card.getByTestId('card-effect');
    await effect.waitFor({ state: 'visible' });
    expect(await effect.textContent()).toMatch(/^.+tempo \d/);
    expect(await card.getAttribute('aria-label')).toContain(name);
    expect(await card.getAttribute('aria-label')).toContain((await effect.textContent())!.replace(/^.*?(tempo \d)/, '$1'));
    await page.screenshot({ path: join(outDir(), 'visualizer-table-admin.png'), fullPage: false });

    const arrow = page.getByTestId('attack-arrow').filter({ has: page.locator(`[data-card="${(submitted.payload['card'] as Card).card_id}"]`) });
    await arrow.waitFor();
    expect(await arrow.getAttribute('data-from')).toBe(submitted.payload['player_id']);
    expect(await arrow.getAttribute('data-to')).toBe(submitted.payload['target_player_id']);
    expect(await arrow.getAttribute('data-outcome')).toBe('pending');
    const plan = submitted.payload['attack_plan'] as { manipulation_plan: string };
    expect(await arrow.getByTestId('arrow-plan').textContent()).toContain(plan.manipulation_plan.replace(/_/g, ' '));

    // Its resolution: the same arrow with the outcome.
    const resolved = adminEvents.find((e) => e.type === 'action_resolved' && e.payload['action_id'] === submitted.payload['action_id'])!;
    await page.getByTestId('scrubber').fill(String(resolved.seq));
    await waitShown(page, 'cursor', 'eq', resolved.seq);
    const outcome = (resolved.payload['manipulation_outcome'] as string | null) ?? 'resolved';
    await page.locator(`[data-testid=attack-arrow][data-outcome=${outcome}]`).waitFor();
    await page.screenshot({ path: join(outDir(), 'visualizer-table-attack.png'), fullPage: false });

    // The seats' health, as GET /games/:id gives it to an admin: a row a seat, opened on a click.
    const { seat_health: health } = await api<{ seat_health: Array<{ player_id: string; decisions: number }> }>(server, `/games/${gameId}`, ADMIN);
    const panel = page.getByTestId('seat-health');
    await panel.locator('summary').click();
    const rows = panel.getByTestId('seat-health-row');
    expect(await rows.count()).toBe(health.length);
    for (const h of health) expect(await panel.locator(`[data-testid=seat-health-row][data-health-player=${h.player_id}]`).getAttribute('data-decisions')).toBe(String(h.decisions));
    expect(health.find((h) => h.player_id === 'plr_2')!.decisions).toBeGreaterThan(0);
    await page.close();
  });

  it('draws the emotion meters readable: labels of 11 px or more, one colour per emotion, named in a tooltip and the legend', async () => {
    const page = await open(attack().seq, 'admin', ADMIN);
    // String scripts: this file is typed without the DOM library.
    const style = (seat: string, emotion: string, part: string, prop: string) => page.evaluate<string>(`getComputedStyle(document.querySelector('[data-player=${seat}] [role=meter][data-emotion=${emotion}] ${part}')).${prop}`);
    const colours = new Map<string, string>();
    for (const emotion of METER_EMOTIONS) {
      expect(parseFloat(await style('plr_1', emotion, '.lbl', 'fontSize')), emotion).toBeGreaterThanOrEqual(11);
      colours.set(emotion, await style('plr_1', emotion, '.bar i', 'backgroundColor'));
      expect(await page.locator(`[data-player=plr_1] [role=meter][data-emotion=${emotion}]`).getAttribute('title')).toMatch(new RegExp(`^${emotion} \\([a-z ]+\\): [+−]\\d\\.\\d\\d on −1 to \\+1$`));
    }
    // Five emotions, five colours; the same emotion the same colour at every seat.
    expect(new Set(colours.values()).size).toBe(METER_EMOTIONS.length);
    for (const [emotion, colour] of colours) expect(await style('plr_2', emotion, '.bar i', 'backgroundColor')).toBe(colour);
    const legend = (await page.getByTestId('emotion-legend').textContent())!;
    for (const emotion of METER_EMOTIONS) expect(legend).toContain(emotion);
    await page.close();
  });

  it('draws trust and grievance as lines between seats on request, as many as the view holds', async () => {
    const snap = await api<Snapshot>(server, `/games/${gameId}/snapshot?seq=${head}&view=admin`, ADMIN);
    const count = (kind: 'trust' | 'grievance') => snap.state.private.reduce((n, p) => n + Object.entries((p.emotion_state as unknown as Record<string, Record<string, number>>)[kind]!).filter(([to, v]) => to !== p.player_id && Math.abs(v) >= 0.1).length, 0);
    const page = await open(head, 'admin', ADMIN);
    expect(await page.locator('.overlay line.link').count()).toBe(0);
    for (const kind of ['trust', 'grievance'] as const) {
      await page.getByTestId('table-lines').selectOption(kind);
      await expect.poll(() => page.locator(`.overlay line.link.${kind}`).count()).toBe(count(kind));
    }
    await page.getByTestId('table-lines').selectOption('trust');
    await page.screenshot({ path: join(outDir(), 'visualizer-table-trust.png'), fullPage: false });
    await page.close();
  });

  it('shows an anonymous page card backs and tells, but no hand card’s name', async () => {
    const seq = attack().seq;
    const admin = await api<Snapshot>(server, `/games/${gameId}/snapshot?seq=${seq}&view=admin`, ADMIN);
    const pub = await api<Snapshot>(server, `/games/${gameId}/snapshot?seq=${seq}&view=spectator`);
    expect(pub.state.private).toEqual([]);
    const page = await open(seq);
    for (const p of pub.state.world.players) {
      const seat = page.locator(`[data-player=${p.player_id}]`);
      const hand = seat.locator('[data-row="hand, face down"]');
      if (p.hand_count > 0) expect(await hand.locator('[data-count]').getAttribute('data-count')).toBe(String(p.hand_count));
      expect(await hand.locator('[data-card]').count()).toBe(0);
      expect(await seat.locator('[role=meter]').count()).toBe(0);
      expect(await seat.getByTestId('tell').textContent()).toMatch(/^tell/);
    }
    // No hand card of any seat is named anywhere on the table (an id would be a leak, and the
    // admin's hand ids are what a hand holds).
    const html = await page.getByTestId('table').innerHTML();
    for (const priv of admin.state.private) for (const c of priv.hand) expect(html).not.toContain(c.card_id);
    expect(await page.getByTestId('seat-health').count()).toBe(0);
    await page.screenshot({ path: join(outDir(), 'visualizer-table-public.png'), fullPage: false });
    await page.close();
  });

  it('draws agent speech as bubbles of text, and a private line as a note sealed to the public and open to an admin', async () => {
    const said = (text: string) => adminEvents.filter((e) => e.type === 'speech_posted' && e.payload['text'] === text).at(-1)!;
    for (const line of EVIL_SPEECH) {
      const page = await open(said(line).seq);
      const bubble = page.getByTestId('bubble').filter({ hasText: line });
      await bubble.waitFor();
      expect(await bubble.textContent()).toBe(line);
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      await page.close();
    }
    const whisper = said(PRIVATE_MARKER);
    const listener = whisper.payload['target_player_id'] as string;
    const pub = await open(whisper.seq);
    const sealed = pub.locator(`[data-player=${listener}] [data-testid=note]`);
    await sealed.waitFor();
    expect(await sealed.textContent()).toMatch(/sealed note from/);
    expect(await pub.getByTestId('table').innerHTML()).not.toContain(PRIVATE_MARKER);
    await pub.close();
    const admin = await open(whisper.seq, 'admin', ADMIN);
    await admin.locator(`[data-player=${listener}] [data-testid=note]`).filter({ hasText: PRIVATE_MARKER }).waitFor();
    await admin.close();
    expect(browser.dialogs).toEqual([]);
  });

  /** The box of every element matching `selector`, in page pixels. */
  const boxes = (page: Page, selector: string) =>
    page.evaluate<Box[]>(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; })`);
  /** A computed style property of the first element of `l` (this file is typed without the DOM library). */
  const css = (l: Locator, prop: string) => l.first().evaluate((el, p) => (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(el)[p], prop);
  const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  /** Whether `b`'s vertical middle lies within `a`'s height: the two sit on one row. */
  const sameRow = (a: Box, b: Box) => (b.top + b.bottom) / 2 > a.top && (b.top + b.bottom) / 2 < a.bottom;

  it('fits a phone (390×844, touch): no seat is drawn over the story, the table starts on the first screen, no keyboard help', async () => {
    const phone = await launchBrowser({ width: 390, height: 844 }, true);
    try {
      // The admin view has the tallest seats (hands face up, meters, notes).
      for (const [view, token] of [['admin', ADMIN], ['spectator', undefined]] as const) {
        const page = await phone.page();
        if (token) await withToken(page, token);
        await page.goto(`${server.url}/watch/games/${gameId}?seq=${attack().seq}&view=${view}`);
        await page.getByTestId('table').waitFor();
        await waitShown(page, 'cursor', 'eq', attack().seq);
        const [story] = await boxes(page, 'section.moves');
        const seats = await boxes(page, '[data-player]');
        expect(seats.length).toBe(4);
        for (const seat of seats) expect(overlap(seat, story!), `${view}: a seat ${JSON.stringify(seat)} over the story ${JSON.stringify(story)}`).toBe(false);
        // The table panel holds its seats (they spilled out of it over its legend and the story).
        const [table] = await boxes(page, '[data-testid=table]');
        for (const seat of seats) expect(seat.bottom).toBeLessThanOrEqual(table!.bottom);
        expect(table!.top).toBeGreaterThanOrEqual(0);
        expect(table!.top).toBeLessThan(844 * 0.6);
        // The chances-to-win graph fits the screen's width and covers no seat (nor the story).
        await page.getByTestId('win-graph').locator('path.seat-line').first().waitFor();
        const [graph] = await boxes(page, '[data-testid=win-graph]');
        expect(graph!.left).toBeGreaterThanOrEqual(0);
        expect(graph!.right).toBeLessThanOrEqual(390);
        const pageWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
        expect(pageWidth).toBeLessThanOrEqual(390);
        for (const seat of seats) expect(overlap(seat, graph!), `${view}: a seat over the graph`).toBe(false);
        expect(overlap(graph!, story!)).toBe(false);
        expect(await page.getByTestId('seat-chance').count()).toBe(4);
        expect(await page.getByTestId('keys-help').isVisible()).toBe(false);
        const [select] = await boxes(page, '[data-testid=view-select]');
        const [exported] = await boxes(page, '[data-testid=export-replay]');
        expect(sameRow(select!, exported!)).toBe(true);
        await page.screenshot({ path: join(outDir(), `visualizer-phone-${view}.png`), fullPage: false });
        await page.close();
      }
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 120_000);

  it('keeps the keyboard help on a desktop, and "export replay" on the view\'s row at any width', async () => {
    const page = await open(attack().seq);
    expect(await page.getByTestId('keys-help').isVisible()).toBe(true);
    for (const width of [1280, 900, 768]) {
      await page.setViewportSize({ width, height: 900 });
      const [select] = await boxes(page, '[data-testid=view-select]');
      const [exported] = await boxes(page, '[data-testid=export-replay]');
      expect(sameRow(select!, exported!), `at ${width} px`).toBe(true);
    }
    await page.close();
  });

  it('tells the hand from the cards in play: upright cards or backs labelled "hand N", chips labelled "in play N"', async () => {
    const seq = attack().seq;
    const snap = await api<Snapshot>(server, `/games/${gameId}/snapshot?seq=${seq}&view=spectator`);
    for (const [view, token] of [['admin', ADMIN], ['spectator', undefined]] as const) {
      const page = await open(seq, view, token);
      for (const p of snap.state.world.players) {
        const seat = page.locator(`[data-player=${p.player_id}]`);
        const hand = seat.locator('[data-row^=hand]');
        const play = seat.locator('[data-row=arena]');
        expect(await hand.locator('.row-label').textContent()).toBe(`hand ${p.hand_count}`);
        expect(await hand.getAttribute('aria-label')).toMatch(new RegExp(`^hand: ${p.hand_count} cards?`));
        const inPlay = await play.locator('[data-card]').count();
        expect(await play.locator('.row-label').textContent()).toBe(`in play ${inPlay}`);
        expect(await play.getAttribute('aria-label')).toBe(`in play: ${inPlay} card${inPlay === 1 ? '' : 's'}`);
      }
      // Upright cards in the hand, round chips in play: not the same shape.
      const handCard = page.locator('[data-row=hand] [data-card], [data-row="hand, face down"] [data-count]').first();
      const chip = page.locator('[data-row=arena] [data-card]').first();
      if ((await chip.count()) > 0) {
        const look = async (l: Locator) => `${await css(l, 'borderTopLeftRadius')} ${await css(l, 'backgroundColor')} ${await css(l, 'backgroundImage')}`;
        expect(await look(handCard)).not.toBe(await look(chip));
      }
      await page.close();
    }
  });

  it('cuts a long note with an ellipsis and opens it whole on a click (a tap) or Enter', async () => {
    const notes = adminEvents.filter((e) => e.type === 'speech_posted' && e.payload['channel'] === 'private' && typeof e.payload['text'] === 'string');
    const longest = notes.reduce((a, b) => ((b.payload['text'] as string).length > (a.payload['text'] as string).length ? b : a));
    const page = await open(longest.seq, 'admin', ADMIN);
    const note = page.locator(`[data-testid=note][data-seq="${longest.seq}"]`);
    await note.waitFor();
    const cut = () => note.evaluate((el) => (el as unknown as { scrollHeight: number; clientHeight: number }).scrollHeight > (el as unknown as { clientHeight: number }).clientHeight + 1);
    // The agents' notes vary from game to game: a narrower talk box makes the longest one surely
    // longer than four lines (CSSOM from the test, which the page's CSP allows).
    expect((longest.payload['text'] as string).length).toBeGreaterThanOrEqual(40);
    await note.evaluate((el) => ((el as unknown as { parentElement: { style: { width: string } } }).parentElement.style.width = '100px'));
    expect(await cut()).toBe(true);
    expect(await css(note, 'webkitLineClamp')).toBe('4');
    expect(await note.getAttribute('aria-expanded')).toBe('false');
    await note.click();
    expect(await note.getAttribute('aria-expanded')).toBe('true');
    expect(await cut()).toBe(false);
    expect(await note.textContent()).toContain(longest.payload['text'] as string);
    await note.press('Enter');
    expect(await note.getAttribute('aria-expanded')).toBe('false');
    expect(await cut()).toBe(true);
    await note.focus();
    await page.keyboard.press('Enter');
    expect(await note.getAttribute('aria-expanded')).toBe('true');
    // Space on the note is the note's, not the player's play/pause.
    await page.keyboard.press(' ');
    expect(await note.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByTestId('play').getAttribute('aria-pressed')).toBe('false');
    await page.close();
  });

  it('says "pending" on the table and in the attack list for an attack not yet resolved', async () => {
    const submitted = attack();
    const page = await open(submitted.seq, 'admin', ADMIN);
    const arrow = page.locator(`[data-testid=attack-arrow][data-from=${submitted.payload['player_id'] as string}]`).first();
    expect(await arrow.getByTestId('arrow-outcome').textContent()).toBe('pending');
    // The newest attack is the list's first row: this one.
    expect(await page.getByTestId('attack-row').first().locator('td').last().textContent()).toBe('pending');
    await page.close();
  });

  it('offers the earlier lines of a long list in words a person would say', async () => {
    const page = await open(head);
    const more = page.locator('[data-testid=speech-feed] ~ [data-testid=show-earlier]');
    await more.waitFor();
    const earlier = async () => Number(/(\d+) earlier/.exec((await more.textContent())!)![1]);
    let n = await earlier();
    expect(await more.textContent()).toMatch(n <= 30 ? new RegExp(`^show all ${n} earlier lines$`) : new RegExp(`^show 30 more of the ${n} earlier lines$`));
    while (n > 30) {
      await more.click();
      await page.waitForFunction(`!document.querySelector('[data-testid=speech-feed] ~ [data-testid=show-earlier]')?.textContent.includes(' ${n} ')`);
      n = await earlier();
    }
    expect(await more.textContent()).toBe(`show all ${n} earlier lines`);
    await page.close();
  });

  it('logged no console errors on any page', () => {
    expect(head).toBeGreaterThan(0);
    expect(browser.errors).toEqual([]);
  });
});
