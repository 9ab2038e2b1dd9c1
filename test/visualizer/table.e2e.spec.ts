import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METER_EMOTIONS } from '../../src/view/index.js';
import { launchBrowser, type Browser } from './browser.js';
import { EVIL_SPEECH, PRIVATE_MARKER, writeEvilSkill } from './evil-skill.js';
import { ADMIN, allEvents, api, createGame, outDir, startVizServer, waitEnded, waitShown, withToken, type VizServer } from './support.js';

type Card = { card_id: string; name: string };
type Snapshot = { state: { world: { players: { player_id: string; hand_count: number; tell: { dominant: string | null; masked: boolean } }[] }; private: { player_id: string; hand: Card[]; emotion_state: Record<string, number> }[] } };
type Ev = Awaited<ReturnType<typeof allEvents>>[number];

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

  it('logged no console errors on any page', () => {
    expect(head).toBeGreaterThan(0);
    expect(browser.errors).toEqual([]);
  });
});
