import type { Page } from 'playwright-core';

type Ticket = { player_id: string; token: string; url: string };
type Json = <T>(path: string, init?: RequestInit) => Promise<T>;

/** The decision form on the page, once one other than `previous` is open; null once the game is over. */
async function nextForm(page: Page, previous: string): Promise<string | null> {
  for (;;) {
    const state = await page.locator('main.seat-page').getAttribute('data-state');
    if (state === 'over') return null;
    const id = await page.locator('form[data-testid="decision"]').getAttribute('data-request', { timeout: 120_000 }).catch(() => null);
    if (id && id !== previous) return id;
    await page.waitForTimeout(200);
  }
}

/**
 * The seat page for docs/img: a person (Ada) at a table of three built-ins, played by pressing
 * submit (with one private line said in the first talk) into round 2's action window, an attack
 * card chosen so the form shows its AttackPlan. Returns the seat's link, for the phone's picture of
 * the same decision.
 */
export async function seatPageShot(base: string, json: Json, page: Page, shot: (page: Page, name: string) => Promise<void>): Promise<string> {
  const game = await json<{ game_id: string; human_seats: Ticket[] }>('/games', { method: 'POST', body: JSON.stringify({ agents: ['human:Ada', 'balanced', 'aggressor', 'trickster'], pace_ms: 0, seed: 20261129 }) });
  const url = `${base}${game.human_seats[0]!.url}`;
  await page.goto(url);
  let id = '';
  let said = false;
  for (;;) {
    const next = await nextForm(page, id);
    if (!next) throw new Error('the game ended before round 2');
    id = next;
    const form = page.locator(`form[data-request="${id}"]`);
    const window = await form.getAttribute('data-window');
    if (window === 'talk' && !said) {
      await form.locator('#f-line1_channel').selectOption('private');
      await form.locator('#f-line1_act').selectOption('promise');
      await form.locator('#f-line1_text').fill('Leave me be this round and I will leave you be.');
      said = true;
    }
    const round = Number((await page.getByTestId('seat-story').locator('li').first().textContent())?.match(/^r(\d+)/)?.[1] ?? 0);
    if (window === 'action' && round >= 2) {
      const values = await form.locator('#f-card option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
      for (const v of values) {
        await form.locator('#f-card').selectOption(v);
        if ((await form.locator('#f-target').count()) > 0) break;
      }
      if ((await form.locator('#f-target').count()) > 0) break;
    }
    await form.locator('[data-testid="submit-decision"]').click();
  }
  await page.waitForTimeout(500);
  await shot(page, 'visualizer-seat.png');
  return url;
}
