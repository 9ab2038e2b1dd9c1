import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../server/spawn-server.js';
import { tiltyardWith } from '../cli/run-cli.js';
import { launchBrowser, type Browser } from './browser.js';
import { ADMIN, RESEARCHER, allEvents, api, createGame, outDir, startVizServer, waitShown, withToken, type VizServer } from './support.js';

/** Untrusted text in the tournament's name: it must show as text, never as markup. */
const EVIL_NAME = '<img src=x onerror=alert(1)> </script><script>alert(2)</script>';
const ENTRANTS = ['manipulator', 'aggressor', 'trickster', 'balanced'];

type Standing = { agent: string; games: number; wins: number };
type TournamentView = { tournament_id: string; status: string; progress: { played: number; scheduled: number }; standings: Standing[]; head_to_head: { a: string; b: string; games: number }[]; games: { game_id: string; status: string }[] };
type LadderView = { ladder_id: string; deals_done: number; standings: { agent: string }[]; history: { agent: string }[]; recent_games: { game_id: string }[]; entrants: { agent: string; status: string; newcomer: boolean }[] };
/** A small ladder played beside the tournament (compact windows, two deals of three seats): its page is checked below. */
const LADDER = { entrants: ['balanced', 'aggressor', 'turtle', 'random'], seats: 3, deals: 2, newcomer: 'trickster', retired: 'random' };
type Attacks = { games_counted: number; cells: { agent: string; target: string; attempts: number; attacks: { game_id: string; seq: number }[] }[] };

/**
 * The tournament page in Chromium against the real server: a small round-robin of built-ins played
 * through POST /tournaments, then its page (progress, standings, both matrices, a cell's attacks,
 * links to every game), what an anonymous page may hold, and the "what seat X knew" mode of the
 * game page (researchers and admins of ended games only).
 */
describe('visualizer: the tournament and ladder pages, and "what a seat knew"', () => {
  let server: VizServer;
  let browser: Browser;
  let id: string;
  let view: TournamentView;
  let attacks: Attacks;
  let ladder: LadderView;

  beforeAll(async () => {
    server = await startVizServer();
    browser = await launchBrowser();
    const res = await fetch(`${server.url}/tournaments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: EVIL_NAME, format: 'round-robin', entrants: ENTRANTS, seats: 3, seeds: 1, duplicate: false, seed: 11, pace_ms: 0 }),
    });
    const body = (await res.json()) as { tournament_id: string };
    expect(res.status, JSON.stringify(body)).toBe(201);
    id = body.tournament_id;
    // The ladder: created over REST, two deals played by the CLI against the server's database (while
    // the tournament plays), then a newcomer added (REST) and an entrant retired (CLI).
    const playLadder = async (): Promise<LadderView> => {
      const post = async (path: string, payload: unknown) => {
        const r = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(payload) });
        const b = (await r.json()) as LadderView;
        expect(r.status, JSON.stringify(b)).toBe(201);
        return b;
      };
      const { ladder_id } = await post('/ladders', { name: 'Small ladder', entrants: LADDER.entrants.map((agent) => ({ agent })), seats: LADDER.seats, compact: true, seed: 41 });
      const cli = async (...args: string[]) => {
        const r = await tiltyardWith({ env: { DATABASE_URL: server.database_url, TILTYARD_DATA_DIR: join(server.dir, 'data') } }, ...args);
        expect(r.code, r.stderr).toBe(0);
      };
      await cli('ladder', 'run', ladder_id, '--games', String(LADDER.deals * LADDER.seats), '--clock', 'logical');
      await post(`/ladders/${ladder_id}/entrants`, { agent: LADDER.newcomer });
      await cli('ladder', 'retire', ladder_id, LADDER.retired);
      return api<LadderView>(server, `/ladders/${ladder_id}`);
    };
    const ladderPlayed = playLadder();
    view = await until(
      `tournament ${id} to end`,
      async () => {
        const t = await api<TournamentView>(server, `/tournaments/${id}`);
        return t.status === 'ended' ? t : undefined;
      },
      280_000,
      250,
    );
    attacks = await api<Attacks>(server, `/tournaments/${id}/attacks`);
    ladder = await ladderPlayed;
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** One attribute of every element with this data-testid, in document order (a string script: no DOM types here). */
  const attrs = (page: Page, testId: string, attr: string) => page.evaluate<(string | null)[]>(`[...document.querySelectorAll('[data-testid=${testId}]')].map((e) => e.getAttribute(${JSON.stringify(attr)}))`);

  const open = async (path: string, token?: string): Promise<Page> => {
    const page = await browser.page();
    if (token) await withToken(page, token);
    await page.goto(`${server.url}${path}`);
    return page;
  };

  it('is linked from the lobby, and a browser opening /tournaments/:id lands on it', async () => {
    const lobby = await open('/');
    await lobby.getByTestId('tournament-link').first().waitFor();
    expect(await lobby.getByTestId('tournament-link').getAttribute('data-tournament-id')).toBe(id);
    await lobby.getByTestId('tournament-link').first().click();
    await lobby.getByTestId('standings').waitFor();
    expect(new URL(lobby.url()).pathname).toBe(`/watch/tournaments/${id}`);
    await lobby.close();
    // The path: the API answers JSON to fetch, a browser's navigation is sent to the page.
    const direct = await open(`/tournaments/${id}`);
    await direct.getByTestId('standings').waitFor();
    expect(new URL(direct.url()).pathname).toBe(`/watch/tournaments/${id}`);
    await direct.close();
  });

  it('shows progress, the standings with intervals and the head-to-head matrix as the API has them, and the name as text', async () => {
    expect(view.progress.played).toBe(4);
    const page = await open(`/watch/tournaments/${id}`);
    await page.getByTestId('standings').waitFor();
    await waitShown(page, 't-played', 'eq', view.progress.played);
    expect(await page.getByTestId('t-scheduled').textContent()).toBe(String(view.progress.scheduled));
    expect(await page.getByTestId('t-status').textContent()).toBe('ended');
    // Untrusted text: the name is shown character for character, and made no element and no dialog.
    expect(await page.getByTestId('t-name').textContent()).toBe(EVIL_NAME);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(browser.dialogs).toEqual([]);

    const rows = page.getByTestId('standing');
    expect(await attrs(page, 'standing', 'data-agent')).toEqual(view.standings.map((s) => s.agent));
    const first = (await rows.first().textContent()) ?? '';
    // Win rate and mean placement with their intervals: "value [low, high]".
    expect(first.match(/\d\.\d\d \[\d\.\d\d, \d\.\d\d\]/g)?.length).toBe(2);

    const h2h = page.getByTestId('h2h-cell');
    expect(await h2h.count()).toBe(view.head_to_head.filter((c) => c.games > 0).length);
    expect(await h2h.count()).toBe(ENTRANTS.length * (ENTRANTS.length - 1));
    await page.screenshot({ path: join(outDir(), 'visualizer-tournament.png'), fullPage: true });
    await page.close();
  });

  it('lists the games and attacks behind a who-manipulated-whom cell, each linking to its game at the attack', async () => {
    const busiest = [...attacks.cells].sort((a, b) => b.attempts - a.attempts)[0];
    expect(busiest?.attempts).toBeGreaterThan(0);
    const page = await open(`/watch/tournaments/${id}`);
    await page.getByTestId('manip').waitFor();
    // Every cell shows the API's count.
    const [from, to, counts] = [await attrs(page, 'manip-cell', 'data-agent'), await attrs(page, 'manip-cell', 'data-target'), await attrs(page, 'manip-cell', 'data-attempts')];
    expect(from).toHaveLength(ENTRANTS.length * (ENTRANTS.length - 1));
    from.forEach((a, i) => expect(Number(counts[i]), `${a}>${to[i]}`).toBe(attacks.cells.find((c) => c.agent === a && c.target === to[i])?.attempts ?? 0));

    await page.locator(`[data-testid=manip-cell][data-agent="${busiest!.agent}"][data-target="${busiest!.target}"]`).click();
    await page.getByTestId('manip-detail').waitFor();
    const links = page.getByTestId('manip-attack');
    expect(await links.count()).toBe(busiest!.attempts);
    const hrefs = await attrs(page, 'manip-attack', 'href');
    expect(hrefs).toEqual(busiest!.attacks.map((x) => `/watch/games/${x.game_id}?seq=${x.seq}`));
    expect(await page.getByTestId('manip-game').count()).toBe(new Set(busiest!.attacks.map((x) => x.game_id)).size);
    await page.screenshot({ path: join(outDir(), 'visualizer-tournament-cell.png'), fullPage: true });

    // The first attack's link opens its game at the attack, and the attack is in the inspector's list.
    const target = busiest!.attacks[0]!;
    await links.first().click();
    await page.getByTestId('table').waitFor();
    await waitShown(page, 'cursor', 'eq', target.seq);
    expect(new URL(page.url()).pathname).toBe(`/watch/games/${target.game_id}`);
    await page.close();
  });

  it('links to every game of the tournament', async () => {
    const page = await open(`/watch/tournaments/${id}`);
    await page.getByTestId('t-games').waitFor();
    const ids = await attrs(page, 't-game', 'data-game-id');
    const hrefs = await attrs(page, 't-game', 'href');
    expect(hrefs).toEqual(ids.map((g) => `/watch/games/${g}`));
    expect([...ids].sort()).toEqual(view.games.map((g) => g.game_id).sort());
    await page.getByTestId('t-game').first().click();
    await page.getByTestId('table').waitFor();
    await page.close();
  });

  it('gives an anonymous page nothing hidden: no secret of any of its games in the API answers or the page', async () => {
    const leaves = (x: unknown): string[] => (typeof x === 'string' ? [x] : Array.isArray(x) ? x.flatMap(leaves) : x && typeof x === 'object' ? Object.values(x).flatMap(leaves) : []);
    const secrets = new Set<string>();
    for (const g of view.games) {
      const admin = await allEvents(server, g.game_id, 'admin', ADMIN);
      const publicText = JSON.stringify(await allEvents(server, g.game_id, 'spectator'));
      for (const e of admin) for (const h of e.visibility.hidden) for (const s of leaves(e.payload[h.key])) if (s.length >= 6 && /\d|\s/.test(s) && !publicText.includes(JSON.stringify(s).slice(1, -1))) secrets.add(s);
    }
    expect(secrets.size).toBeGreaterThan(20);
    const answers = JSON.stringify([await api(server, `/tournaments/${id}`), await api(server, `/tournaments/${id}/attacks`)]);
    expect([...secrets].filter((s) => answers.includes(JSON.stringify(s).slice(1, -1)))).toEqual([]);

    const page = await open(`/watch/tournaments/${id}`);
    await page.getByTestId('manip').waitFor();
    // Every cell opened in turn: the markup of all of it, scanned for the secrets.
    const html = await page.evaluate<string>(`(async () => {
      const settle = () => new Promise((r) => requestAnimationFrame(() => r()));
      const chunks = [];
      for (const b of document.querySelectorAll('[data-testid=manip-cell]')) { b.click(); await settle(); await settle(); chunks.push(document.querySelector('main').outerHTML); b.click(); await settle(); }
      return chunks.join('\\n');
    })()`);
    expect(html.length).toBeGreaterThan(10_000);
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    expect([...secrets].filter((s) => html.includes(s) || html.includes(esc(s)))).toEqual([]);
    await page.close();
  });

  describe('what a seat knew, beside the truth', () => {
    const ended = () => view.games[0]!.game_id;
    const mid = async () => Math.floor((await api<{ last_seq: number }>(server, `/games/${ended()}`)).last_seq / 2);

    it('is offered to a researcher of an ended game, and shows the seat’s own projection at the same seq beside the truth', async () => {
      const seq = await mid();
      const page = await open(`/watch/games/${ended()}?seq=${seq}&view=researcher`, RESEARCHER);
      await page.getByTestId('table').waitFor();
      await waitShown(page, 'cursor', 'eq', seq);
      await page.getByTestId('tab-knew').click();
      await page.getByTestId('knew-seat').selectOption('plr_2');
      await waitShown(page, 'knew-seat-side', 'eq', seq, 'data-seq');
      // The seat side is the server's plr_2 projection at that seq: its own hand, and no one else's.
      const snap = await api<{ state: { private: { player_id: string; hand: { name: string }[] }[] } }>(server, `/games/${ended()}/snapshot?seq=${seq}&view=plr_2`, RESEARCHER);
      expect(snap.state.private.map((p) => p.player_id)).toEqual(['plr_2']);
      // Believed and true, aligned row by row (alignMinds).
      const seatSide = (await page.getByTestId('mind-believed').allTextContents()).join('\n');
      for (const c of snap.state.private[0]!.hand) expect(seatSide).toContain(c.name);
      // The truth side: the other seats' hands, as the researcher's (ended: all-seeing) view has them.
      const truth = await api<{ state: { private: { player_id: string; hand: { name: string }[] }[] } }>(server, `/games/${ended()}/snapshot?seq=${seq}&view=researcher`, RESEARCHER);
      const truthSide = (await page.getByTestId('mind-truth').allTextContents()).join('\n');
      expect(await page.getByTestId('knew-seat-side').textContent()).toContain(`the truth at seq ${seq}`);
      for (const p of truth.state.private.filter((x) => x.player_id !== 'plr_2')) for (const c of p.hand) expect(truthSide).toContain(c.name);
      await page.screenshot({ path: join(outDir(), 'visualizer-seat-knew.png'), fullPage: true });
      await page.close();
    });

    it('is not offered to an anonymous page, nor on a game still being played (even to an admin)', async () => {
      const anon = await open(`/watch/games/${ended()}`);
      await page(anon);
      expect(await anon.getByTestId('tab-knew').count()).toBe(0);
      await anon.close();
      const running = await createGame(server, { agents: ['balanced', 'turtle'], pace_ms: 2000 });
      const admin = await open(`/watch/games/${running}?view=admin`, ADMIN);
      await page(admin);
      expect(await admin.getByTestId('tab-knew').count()).toBe(0);
      // And the server refuses a researcher the seat's projection while the game runs.
      const res = await fetch(`${server.url}/games/${running}/snapshot?view=plr_1`, { headers: { authorization: `Bearer ${RESEARCHER}` } });
      expect(res.status).toBe(403);
      await admin.close();
    });

    /** The game page is up (its analysis tabs drawn). */
    const page = (p: Page) => p.getByTestId('tab-attacks').waitFor();
  });

  it('shows a ladder: linked from the lobby, its leaderboard with interval bars, the rating chart, newcomers, a retired entrant in words, games linked', async () => {
    expect(ladder.deals_done).toBe(LADDER.deals);
    const lobby = await open('/');
    await lobby.getByTestId('ladder-link').first().waitFor();
    expect(await attrs(lobby, 'ladder-link', 'data-ladder-id')).toEqual([ladder.ladder_id]);
    await lobby.getByTestId('ladder-link').first().click();
    await lobby.getByTestId('ladder-board').waitFor();
    expect(new URL(lobby.url()).pathname).toBe(`/watch/ladders/${ladder.ladder_id}`);
    await lobby.close();
    // A browser opening the API's path lands on the page.
    const direct = await open(`/ladders/${ladder.ladder_id}`);
    await direct.getByTestId('ladder-board').waitFor();
    expect(new URL(direct.url()).pathname).toBe(`/watch/ladders/${ladder.ladder_id}`);
    await direct.close();

    const page = await open(`/watch/ladders/${ladder.ladder_id}`);
    await page.getByTestId('ladder-board').waitFor();
    // One row per standing, in the API's order; a bar for each entrant that has played.
    expect(await attrs(page, 'ladder-row', 'data-agent')).toEqual(ladder.standings.map((s) => s.agent));
    const played = ladder.standings.filter((s) => ladder.history.some((h) => h.agent === s.agent)).length;
    expect(await page.getByTestId('ci-bar').count()).toBe(played);
    const first = (await page.getByTestId('ladder-row').first().textContent()) ?? '';
    expect(first).toMatch(/\d+\.\d \[\d+\.\d, \d+\.\d\]/);
    // Bars are drawn with a width (a forest plot, not an empty cell).
    const widths = await page.evaluate<number[]>(`[...document.querySelectorAll('[data-testid=ci-bar]')].map((e) => e.getBoundingClientRect().width)`);
    expect(widths.every((w) => w > 1)).toBe(true);
    // The newcomer (no games yet) is marked; the retired entrant is a sentence, not JSON.
    expect(await attrs(page, 'newcomer', 'data-testid')).toHaveLength(ladder.entrants.filter((e) => e.newcomer).length);
    expect(await page.locator(`[data-testid=ladder-row][data-agent="${LADDER.newcomer}"] [data-testid=newcomer]`).count()).toBe(1);
    expect(await page.locator(`[data-testid=absent][data-agent="${LADDER.retired}"]`).textContent()).toMatch(new RegExp(`^${LADDER.retired} was retired from the ladder`));
    // The chart: a line per entrant with history.
    await page.getByTestId('rating-chart').waitFor();
    expect(new Set(await attrs(page, 'rating-line', 'data-agent'))).toEqual(new Set(ladder.history.map((h) => h.agent)));
    // Recent games, each linked to its game page.
    const ids = await attrs(page, 'ladder-game', 'data-game-id');
    expect(ids).toEqual(ladder.recent_games.map((g) => g.game_id));
    expect(ids).toHaveLength(LADDER.deals * LADDER.seats);
    expect(await attrs(page, 'ladder-game', 'href')).toEqual(ids.map((g) => `/watch/games/${g}`));
    await page.screenshot({ path: join(outDir(), 'visualizer-ladder.png'), fullPage: true });
    await page.getByTestId('ladder-game').first().click();
    await page.getByTestId('table').waitFor();
    await page.close();

    // On a phone: nothing wider than the screen but the table's own scroll region.
    const phone = await browser.page();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${server.url}/watch/ladders/${ladder.ladder_id}`);
    await phone.getByTestId('ladder-board').waitFor();
    expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: join(outDir(), 'visualizer-ladder-phone.png'), fullPage: true });
    await phone.close();
  });

  it('logged no console errors on any page', () => {
    expect(browser.errors).toEqual([]);
  });
});
