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
import {
  ADMIN,
  RESEARCHER,
  allEvents,
  api,
  createGame,
  num,
  outDir,
  startVizServer,
  waitEnded,
  waitShown,
  withToken,
  type VizServer,
} from './support.js';
import { axeViolations } from './axe.js';
import {
  createHumanGame,
  nextDecision,
  pressSubmitToTheEnd,
  recordResponses,
  seatLeaks,
} from './seat-pages.js';

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
    gameId = await createGame(server, {
      agents: ['balanced', `skill:${evil}`, 'aggressor'],
      pace_ms: 150,
    });
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
  const whenLive = (page: Page) =>
    page
      .getByTestId('connection')
      .filter({ hasText: /^live$/ })
      .waitFor();
  const headAtLeast = (page: Page, n: number) =>
    waitShown(page, 'head', 'gte', n, undefined, 60_000);

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
    const nav = await fetch(`${server.url}/games/${gameId}?seq=3`, {
      headers: { 'sec-fetch-dest': 'document' },
      redirect: 'manual',
    });
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
    await expect(link.textContent()).resolves.toMatch(
      /balanced · evil-talker · aggressor|balanced · .* · aggressor/,
    );
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
    const table = page.locator(
      `[data-testid=featured] .mini-tables[data-game-id="${gameId}"] [data-testid=mini-table]`,
    );
    await table.waitFor();
    const record = await api<{
      seats: { seat: number; player_id: string; display_name?: string; agent: string }[];
    }>(server, `/games/${gameId}`);
    const names = [...record.seats]
      .sort((a, b) => a.seat - b.seat)
      .map((s) => s.display_name ?? s.agent);
    expect(await table.getByTestId('mini-name').allTextContents()).toEqual(names);
    const seq0 = Number(await table.getAttribute('data-seq'));
    const shown = await api<{
      state: { world: { players: { player_id: string; lives: number; alive: boolean }[] } };
    }>(server, `/games/${gameId}/snapshot?view=spectator&seq=${seq0}`);
    const lives = shown.state.world.players.filter((p) => p.alive).map((p) => String(p.lives));
    expect(
      await Promise.all(
        (await table.locator('[data-testid=mini-lives]').all()).map((l) =>
          l.getAttribute('data-lives'),
        ),
      ),
    ).toEqual(lives);
    expect(await table.getAttribute('aria-label')).toMatch(
      new RegExp(`${names[0]} (\\d+ li(fe|ves)|out)`),
    );
    // Its row names the leader with the public model's chance, as of the snapshot the table shows.
    const said = await until(
      'the lobby to name a leader with a chance',
      async () => {
        const r = await page.evaluate<{ seq: number; text: string | null }>(
          `(() => ({ seq: Number(document.querySelector('[data-testid=featured] [data-testid=mini-table]').getAttribute('data-seq')), text: document.querySelector('[data-testid=featured] [data-testid=live-leader]')?.textContent ?? null }))()`,
        );
        return r.text ? r : undefined;
      },
      60_000,
      100,
    );
    const at = await api<{ state: StateView }>(
      server,
      `/games/${gameId}/snapshot?view=spectator&seq=${said.seq}`,
    );
    const top = chanceLeader(winChances(at.state, 'public'))!;
    const lead = at.state.world.players.find((p) => p.player_id === top.player_id)!;
    expect(said.text).toBe(`${lead.display_name || lead.player_id} leads · ${pct(top.p)}`);
    // It follows the game: a later refresh shows a later position.
    const featuredSeq = async () =>
      Number(
        await page
          .locator('[data-testid=featured] [data-testid=mini-table]')
          .getAttribute('data-seq'),
      );
    await until(
      'the lobby table to move on',
      async () => ((await featuredSeq()) > seq0 ? true : undefined),
      60_000,
      100,
    );
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
    const snap = await api<{ state_hash: string }>(
      server,
      `/games/${gameId}/snapshot?seq=${seq}&view=spectator`,
    );
    expect(await hashEl.getAttribute('data-hash')).toBe(snap.state_hash);
    await page.getByTestId('go-live').click();
    await headAtLeast(page, (await num(page, 'head')) + 1);
    await page.screenshot({ path: join(outDir(), 'visualizer-live.png'), fullPage: true });
    await page.close();
  }, 180_000);

  it('renders agent speech that is markup as text: no element is created and no dialog fires', async () => {
    const page = await gamePage();
    const feed = page.getByTestId('speech-feed');
    for (const line of EVIL_SPEECH)
      await feed.getByText(line, { exact: true }).first().waitFor({ timeout: 60_000 });
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.locator('#app script').count()).toBe(0);
    expect(browser.dialogs).toEqual([]);
    await page.close();
  }, 120_000);

  it('offers each role only its views: anonymous cannot switch to admin, admin can take a seat', async () => {
    const anon = await gamePage(undefined, '?view=admin');
    await anon.getByTestId('view-notice').waitFor();
    expect(await anon.getByTestId('view-select').locator('option').allTextContents()).toEqual([
      'spectator',
    ]);
    expect(new URL(anon.url()).searchParams.get('view')).toBe('spectator');
    await anon.close();

    const researcher = await gamePage(RESEARCHER);
    await researcher.getByTestId('table').waitFor();
    expect(
      await researcher
        .getByTestId('view-select')
        .locator('option')
        .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value)),
    ).toEqual(['spectator', 'researcher']);
    await researcher.close();

    const admin = await gamePage(ADMIN);
    await admin.getByTestId('table').waitFor();
    const values = await admin
      .getByTestId('view-select')
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
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
    const quick = await createGame(server, {
      agents: ['balanced', 'aggressor'],
      pace_ms: 250,
      spectators: 'broadcast',
    });
    const page = await browser.page();
    await page.goto(`${server.url}/watch/games/${quick}`);
    await page.getByTestId('table').waitFor();
    await whenLive(page);
    expect(await page.getByTestId('go-live').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('broadcast-badge').textContent()).toMatch(/a round/);
    expect(await page.locator('#view-help').textContent()).toMatch(/a round behind/);
    expect((await api<{ status: string }>(server, `/games/${quick}`)).status).not.toBe('ended');
    // The end arrives over the socket.
    await page
      .getByTestId('connection')
      .filter({ hasText: /^ended$/ })
      .waitFor({ timeout: 240_000 });
    expect(await page.getByTestId('go-live').count()).toBe(0);
    expect(await page.getByTestId('broadcast-badge').textContent()).not.toMatch(/behind/);
    expect(await page.locator('.game-head').textContent()).not.toMatch(/a round behind/);
    await page.getByTestId('result').waitFor();
    await page.close();
  }, 300_000);

  describe('a person at the table (the seat page)', () => {
    const SHORT = { round_cap: 2 };
    const submit = (page: Page, id: string) =>
      page.locator(`form[data-request="${id}"] [data-testid="submit-decision"]`).click();
    const windowOf = async (page: Page, id: string) =>
      (await page.locator(`form[data-request="${id}"]`).getAttribute('data-window')) ?? '';

    it('given a person who only presses submit, then a 4-seat game plays to its end, the token leaves the address bar, and the clock shows', async () => {
      const { gameId, seats } = await createHumanGame(server, {
        agents: ['human:Ada', 'random', 'random', 'random'],
        rules: SHORT,
        pace_ms: 0,
        seed: 401,
      });
      const page = await browser.page();
      await page.goto(`${server.url}${seats[0]!.url}`);
      await page.getByTestId('decision').waitFor();
      expect(new URL(page.url()).hash).toBe('');
      expect(await page.getByTestId('seat-name').textContent()).toBe('Ada');
      expect(await page.getByTestId('decision-clock').textContent()).toMatch(
        /\d:\d\d left of 2:00/,
      );
      expect(await page.getByTestId('seat-hand').locator('li').count()).toBeGreaterThan(0);
      // Accessible at a desktop's and a phone's width: labelled fields, contrast, landmarks.
      const found = await axeViolations(page);
      await page.setViewportSize({ width: 390, height: 844 });
      found.push(...(await axeViolations(page)));
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(found).toEqual([]);
      const sent = await pressSubmitToTheEnd(page);
      expect(sent).toBeGreaterThan(4);
      await waitEnded(server, gameId);
      await page.getByTestId('result').waitFor();
      expect(await page.getByTestId('seat-state').textContent()).toBe('game over');
      await page.close();
    }, 240_000);

    it('given a person who edits the form (plan, a private line, a card, its target and intent), then the game carries it out as shown', async () => {
      const { gameId, seats } = await createHumanGame(server, {
        agents: ['human:Ada', 'random', 'random', 'random'],
        rules: { round_cap: 3 },
        pace_ms: 0,
        seed: 402,
      });
      const page = await browser.page();
      await page.goto(`${server.url}${seats[0]!.url}`);
      const shown: {
        plan?: { target: string };
        line?: { target: string };
        attack?: { card: string; target: string; intent: string };
      } = {};
      let last = '';
      while (!(shown.plan && shown.line && shown.attack)) {
        const id = await nextDecision(page, last);
        if (id === 'over') break;
        last = id;
        const form = page.locator(`form[data-request="${id}"]`);
        const w = await windowOf(page, id);
        if (w === 'intent' && !shown.plan) {
          await form.locator('#f-tactical_intent').selectOption('lockout');
          await form.locator('#f-emotion').selectOption('fear');
          const target = (await form
            .locator('#f-emotion_target option')
            .last()
            .getAttribute('value'))!;
          await form.locator('#f-emotion_target').selectOption(target);
          shown.plan = { target };
        } else if (w === 'talk' && !shown.line) {
          await form.locator('#f-line1_channel').selectOption('private');
          const target = (await form
            .locator('#f-line1_target option')
            .last()
            .getAttribute('value'))!;
          await form.locator('#f-line1_target').selectOption(target);
          await form.locator('#f-line1_act').selectOption('promise');
          await form.locator('#f-line1_text').fill('E2E: I will leave you alone');
          shown.line = { target };
        } else if (w === 'action' && !shown.attack) {
          for (const value of await form
            .locator('#f-card option')
            .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value))) {
            if (!value.startsWith('play_card:')) continue;
            await form.locator('#f-card').selectOption(value);
            if ((await form.locator('#f-target').count()) === 0) continue;
            const target = (await form.locator('#f-target option').last().getAttribute('value'))!;
            await form.locator('#f-target').selectOption(target);
            const intent = (await form
              .locator('#f-kinetic_intent option')
              .last()
              .getAttribute('value'))!;
            await form.locator('#f-kinetic_intent').selectOption(intent);
            await form.locator('#f-expected_behavior_shift').fill('reckless next round');
            shown.attack = { card: value.slice('play_card:'.length), target, intent };
            break;
          }
        }
        expect(await page.getByTestId('decision-problems').count()).toBe(0);
        await submit(page, id);
      }
      expect(shown.plan && shown.line && shown.attack).toBeTruthy();
      // The answer is stored once the game has stepped on it (after the 202): read the log until the line and the attack are in.
      const cardOf = (e: { payload: Record<string, unknown> }) =>
        (e.payload.card as { card_id?: string } | null)?.card_id;
      const log = await until(
        'the edited answers in the log',
        async () => {
          const all = await allEvents(server, gameId, 'admin', ADMIN);
          const has = (type: string, ok: (e: (typeof all)[number]) => boolean) =>
            all.some((e) => e.type === type && e.payload.player_id === 'plr_1' && ok(e));
          return has('action_submitted', (e) => cardOf(e) === shown.attack!.card) &&
            has('speech_posted', (e) => e.payload.text === 'E2E: I will leave you alone')
            ? all
            : undefined;
        },
        60_000,
        100,
      );
      const mine = (type: string) =>
        log.filter((e) => e.type === type && e.payload.player_id === 'plr_1');
      expect(
        mine('secret_plan_committed').some(
          (e) =>
            JSON.stringify(e.payload.plan) ===
            JSON.stringify({
              tactical_intent: 'lockout',
              emotional_intent: { emotion: 'fear', target_player_id: shown.plan!.target },
            }),
        ),
      ).toBe(true);
      expect(mine('speech_posted')).toContainEqual(
        expect.objectContaining({
          payload: expect.objectContaining({
            channel: 'private',
            target_player_id: shown.line!.target,
            text: 'E2E: I will leave you alone',
            speech_act: 'promise',
          }),
        }),
      );
      const attack = mine('action_submitted').find((e) => cardOf(e) === shown.attack!.card);
      expect(attack?.payload).toMatchObject({
        target_player_id: shown.attack!.target,
        attack_plan: {
          kinetic_intent: shown.attack!.intent,
          target_player_id: shown.attack!.target,
          expected_behavior_shift: 'reckless next round',
        },
      });
      await pressSubmitToTheEnd(page);
      await page.close();
    }, 240_000);

    it('given an over-long line, then the form says so as it is typed, the engine refuses it in words, and a reload mid-decision resumes the same decision', async () => {
      const { gameId, seats } = await createHumanGame(server, {
        agents: ['human:Ada', 'random', 'random', 'random'],
        rules: SHORT,
        pace_ms: 0,
        seed: 403,
      });
      const page = await browser.page();
      await page.goto(`${server.url}${seats[0]!.url}`);
      let id = '';
      while (
        (id = await nextDecision(page, id)) !== 'over' &&
        (await windowOf(page, id)) !== 'talk'
      )
        await submit(page, id);
      const form = page.locator(`form[data-request="${id}"]`);
      await form.locator('#f-line1_channel').selectOption('public');
      await form.locator('#f-line1_text').fill('x'.repeat(501));
      expect(await page.getByTestId('decision-problems').textContent()).toMatch(
        /501 characters, at most 500/,
      );
      await submit(page, id);
      const verdict = page.getByTestId('decision-verdict');
      await verdict.waitFor();
      expect(await verdict.getAttribute('data-code')).toBe('talk/invalid');
      expect(await verdict.textContent()).toMatch(/^Refused: .*500/);
      // Chromium logs every non-2xx response as a console error: this one was asked for, so it is not the page's fault.
      const refused = browser.errors.findIndex((e) => /status of 422/.test(e));
      if (refused >= 0) browser.errors.splice(refused, 1);
      // The clock the page shows is the server's: the request's headers say how long the seat has, and what is left.
      const asked = await fetch(`${server.url}/games/${gameId}/seats/plr_1/request`, {
        headers: { authorization: `Bearer ${seats[0]!.token}` },
      });
      expect(asked.headers.get('decision-timeout-ms')).toBe('120000');
      expect(Number(asked.headers.get('decision-remaining-ms'))).toBeLessThanOrEqual(120_000);
      // Reload: the token comes back from this tab's storage, and the same decision is open again.
      await page.reload();
      expect(await nextDecision(page, '')).toBe(id);
      expect(await page.getByTestId('decision-clock').textContent()).toMatch(
        /\d:\d\d left of 2:00/,
      );
      await submit(page, id);
      expect(await nextDecision(page, id)).not.toBe(id);
      await pressSubmitToTheEnd(page);
      await page.close();
    }, 240_000);

    it('given a short human_timeout_ms and nobody answering, then the seat takes its default and the page says so', async () => {
      const { gameId, seats } = await createHumanGame(server, {
        agents: ['human:Ada', 'random', 'random'],
        rules: { round_cap: 1 },
        pace_ms: 0,
        seed: 404,
        human_timeout_ms: 1500,
      });
      const page = await browser.page();
      await page.goto(`${server.url}${seats[0]!.url}`);
      await page.getByTestId('decision-clock').waitFor();
      expect(await page.getByTestId('decision-clock').textContent()).toMatch(/left of 0:02/);
      await page.getByTestId('seat-timeout').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('seat-timeout').textContent()).toMatch(
        /Time ran out on your \w+: the game took your seat’s default/,
      );
      await waitEnded(server, gameId, 180_000);
      await page.close();
    }, 240_000);

    it('given two people and two agents in one game, then each page shows only its own hand and receives nothing the seat may not see', async () => {
      const { gameId, seats } = await createHumanGame(server, {
        agents: ['human:Ada', 'balanced', 'human:Bo', 'random'],
        rules: SHORT,
        pace_ms: 0,
        seed: 405,
      });
      const pages = await Promise.all(seats.map(() => browser.page()));
      const received = pages.map(recordResponses);
      await Promise.all(pages.map((p, i) => p.goto(`${server.url}${seats[i]!.url}`)));
      await Promise.all(pages.map(pressSubmitToTheEnd));
      await waitEnded(server, gameId);
      for (const [i, seat] of seats.entries()) {
        expect(received[i]!.length).toBeGreaterThan(5);
        expect(await seatLeaks(server, gameId, seat.player_id, received[i]!)).toEqual([]);
      }
      // The scanner reads what it judges: the same responses, read as the other person, hold a hand that is not theirs.
      expect(
        (await seatLeaks(server, gameId, seats[1]!.player_id, received[0]!)).some((f) =>
          /hand card/.test(f),
        ),
      ).toBe(true);
      // What the pages draw: no page holds a card id of another seat's final hand.
      const final = await api<{
        state: { raw: { players: { player_id: string; hand: string[] }[] } };
      }>(server, `/games/${gameId}/snapshot?view=admin`, ADMIN);
      for (const [i, page] of pages.entries()) {
        const html = await page.content();
        const others = final.state.raw.players
          .filter((p) => p.player_id !== seats[i]!.player_id)
          .flatMap((p) => p.hand);
        expect(others.filter((c) => html.includes(`"${c}"`))).toEqual([]);
      }
      await Promise.all(pages.map((p) => p.close()));
    }, 300_000);

    it('given an admin in the lobby, then "Play a game yourself" seats them against the opponents they chose and opens their seat; anyone else is told how a seat is handed out', async () => {
      const anon = await browser.page();
      await anon.goto(`${server.url}/`);
      await anon.getByTestId('take-seat').waitFor();
      expect(await anon.getByTestId('take-seat').textContent()).toMatch(/An admin seats you/);
      expect(await anon.getByTestId('take-seat-submit').count()).toBe(0);
      await anon.close();

      const page = await browser.page();
      await withToken(page, ADMIN);
      await page.goto(`${server.url}/`);
      await page.getByTestId('take-seat-submit').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByTestId('seat-name-input').fill('Grace');
      await page.getByTestId('opponent-2').selectOption('random');
      await page.getByTestId('take-seat-submit').click();
      await page.getByTestId('decision').waitFor();
      const url = new URL(page.url());
      expect(url.pathname).toMatch(/^\/seat\/game_[^/]+\/plr_1$/);
      expect(url.hash).toBe('');
      expect(await page.getByTestId('seat-name').textContent()).toBe('Grace');
      const gameId = url.pathname.split('/')[2]!;
      const game = await api<{ seats: { player_id: string; agent: string }[] }>(
        server,
        `/games/${gameId}`,
        ADMIN,
      );
      expect(game.seats.map((x) => x.agent)).toEqual([
        'human:Grace',
        'balanced',
        'random',
        'turtle',
      ]);
      await page.close();
    }, 120_000);
  });

  it('logged no console errors and opened no dialog on any page', () => {
    expect(browser.errors).toEqual([]);
    expect(browser.dialogs).toEqual([]);
  });
});
