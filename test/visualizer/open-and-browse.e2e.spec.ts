import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../server/spawn-server.js';
import { axeViolations, type Violation } from './axe.js';
import { launchBrowser, type Browser } from './browser.js';
import type { GameEvent, StateView } from '../../src/view/index.js';
import { winCurve } from '../../src/eval/curve.js';
import { chanceWords, pct, wonWords } from '../../src/eval/chance-words.js';
import { ADMIN, allEvents, api, clickQuarterAlong, createGame, num, startVizServer, waitEnded, waitShown, withToken, type VizServer } from './support.js';

type GameRow = { game_id: string; seats: { agent: string }[]; placements: { player_id: string; placement: number }[] | null };

/**
 * Issue 27 in a real browser against a real server: an ended game opens on its result; seat views
 * fold from seq 0 with no mismatch; the shortcuts work after a click on the scrubber; the
 * diagnostics line is an admin's (a toggle for others); the lobby's filters and pages; and every
 * text answer is compressed over real HTTP; a game page loads no other page's code; and axe-core
 * finds no serious accessibility fault on any page.
 */
describe('visualizer: opening on the result, seat views, keys, lobby filters, compression', () => {
  let server: VizServer;
  let browser: Browser;
  /** A three-seat game (seats plr_1…plr_3). */
  let gameId: string;
  let head: number;
  /** Two-seat games outside any tournament. */
  const small: string[] = [];
  let tournamentId: string;
  let tournamentGames: string[];

  beforeAll(async () => {
    server = await startVizServer();
    browser = await launchBrowser();
    gameId = await createGame(server, { agents: ['balanced', 'aggressor', 'manipulator'], pace_ms: 0 });
    for (const agents of [['turtle', 'balanced'], ['aggressor', 'balanced'], ['turtle', 'aggressor'], ['balanced', 'aggressor']]) small.push(await createGame(server, { agents, pace_ms: 0 }));
    const res = await fetch(`${server.url}/tournaments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'filter cup', format: 'round-robin', entrants: ['balanced', 'aggressor', 'turtle'], seats: 3, seeds: 1, duplicate: false, seed: 5, pace_ms: 0 }),
    });
    const body = (await res.json()) as { tournament_id: string };
    expect(res.status, JSON.stringify(body)).toBe(201);
    tournamentId = body.tournament_id;
    head = await waitEnded(server, gameId, 240_000);
    for (const id of small) await waitEnded(server, id, 240_000);
    tournamentGames = await until(
      'the tournament to end',
      async () => {
        const t = await api<{ status: string; games: { game_id: string }[] }>(server, `/tournaments/${tournamentId}`);
        return t.status === 'ended' ? t.games.map((g) => g.game_id) : undefined;
      },
      240_000,
      250,
    );
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (path: string, token?: string): Promise<Page> => {
    const page = await browser.page();
    if (token) await withToken(page, token);
    await page.goto(`${server.url}${path}`);
    return page;
  };
  const openGame = async (query = '', token?: string): Promise<Page> => {
    const page = await open(`/watch/games/${gameId}${query}`, token);
    await page.getByTestId('table').waitFor();
    await waitShown(page, 'head', 'eq', head);
    // The head is drawn first; the scrubber reaches back once the history is folded behind it.
    await page.locator('[data-testid=scrubber][data-history=loaded]').waitFor();
    return page;
  };

  it('opens an ended game on its final position with a result banner; ?seq= still deep-links (no banner before the end)', async () => {
    const record = await api<GameRow>(server, `/games/${gameId}`);
    const page = await openGame();
    await waitShown(page, 'cursor', 'eq', head);
    const banner = page.getByTestId('result');
    await banner.waitFor();
    const shown = await page.evaluate<{ player: string | null; placement: string | null }[]>(`[...document.querySelectorAll('[data-testid=result-seat]')].map((e) => ({ player: e.getAttribute('data-result-player'), placement: e.getAttribute('data-placement') }))`);
    expect(shown).toEqual(record.placements!.map((p) => ({ player: p.player_id, placement: String(p.placement) })));
    expect(await banner.textContent()).toMatch(/wins|share first place/);
    // Every seat that went out says when.
    const out = (await allEvents(server, gameId, 'spectator')).filter((e) => e.type === 'player_eliminated');
    for (const e of out) expect(await page.locator(`[data-testid=result-seat][data-result-player="${String(e.payload['player_id'])}"]`).textContent()).toMatch(/out,? in round \d+/);
    await page.close();

    const early = await openGame('?seq=5');
    await waitShown(early, 'cursor', 'eq', 5);
    expect(await early.getByTestId('result').count()).toBe(0);
    await early.close();
  });

  it('shows each seat’s chance to win: the page says who is ahead with a percentage, the seats and the graph’s text agree with the model, and a click on the graph seeks there', async () => {
    const record = await api<{ seats: { player_id: string; display_name?: string; agent: string }[] }>(server, `/games/${gameId}`);
    const names = new Map(record.seats.map((s) => [s.player_id, s.display_name ?? s.agent]));
    const name = (id: string) => names.get(id) ?? 'a seat';
    // The model over the spectator's own events, as the page computes it from its fold.
    const base = await api<{ state: StateView }>(server, `/games/${gameId}/snapshot?seq=0&view=spectator`);
    const events = (await allEvents(server, gameId, 'spectator')) as unknown as GameEvent[];
    const curve = winCurve({ seq: 0, view: base.state }, events, { role: 'spectator' }, true);
    expect(curve.form).toBe('public');
    const mid = curve.points[Math.floor(curve.points.length / 2)]!;
    const page = await openGame(`?seq=${mid.seq}`);
    await waitShown(page, 'cursor', 'eq', mid.seq);
    await page.getByTestId('chance-words').filter({ hasText: chanceWords(mid.p, name) }).waitFor();
    expect(await page.getByTestId('chance-words').textContent()).toMatch(/^\S.* (is ahead: (\d+|<1|>99) % to win|are level at \d+ % each)/);
    const seats = await page.evaluate<{ player: string | null; text: string | null }[]>(`[...document.querySelectorAll('[data-testid=table] [data-player]')].map((s) => ({ player: s.getAttribute('data-player'), text: s.querySelector('[data-testid=seat-chance]')?.textContent ?? null }))`);
    expect(seats).toEqual(Object.keys(mid.p).map((id) => ({ player: id, text: pct(mid.p[id]!) })));
    expect(await page.getByTestId('win-now').textContent()).toContain(`${name(Object.keys(mid.p)[0]!)} ${pct(mid.p[Object.keys(mid.p)[0]!]!)}`);
    // The graph: named, on the same cursor; a click a quarter of the way along goes a quarter of the way in.
    const graph = page.getByTestId('win-graph');
    await graph.locator('path.seat-line').first().waitFor();
    expect(await graph.locator('path.seat-line').count()).toBe(names.size);
    expect(await graph.getAttribute('aria-label')).toMatch(/^Chance to win per seat/);
    expect(await graph.getAttribute('data-cursor')).toBe(String(mid.seq));
    const to = await clickQuarterAlong(page, '[data-testid=win-plot]', mid.seq);
    expect(Math.abs(to - head / 4)).toBeLessThanOrEqual(Math.ceil(head / 50));
    await waitShown(page, 'win-graph', 'eq', to, 'data-cursor');
    const at = curve.points.filter((p) => p.seq <= to).at(-1)!;
    await page.getByTestId('chance-words').filter({ hasText: chanceWords(at.p, name) }).waitFor();
    // At the end the winners have it all, said as the result (no standing of seats that are all
    // out): "Ada won", or — a shared first place, which the server's random seed sometimes deals —
    // "Ada and Bo share the win".
    await page.keyboard.press('End');
    await waitShown(page, 'cursor', 'eq', head);
    const last = curve.points.at(-1)!.p;
    const winners = Object.keys(last).filter((id) => last[id]! > 0);
    for (const id of winners) expect(last[id]).toBeCloseTo(1 / winners.length, 9);
    const result = wonWords(last, name);
    expect(result).toEqual(winners.length === 1 ? `${name(winners[0]!)} won` : expect.stringMatching(/ share the win$/));
    await page.getByTestId('chance-words').filter({ hasText: result }).waitFor();
    expect(await page.getByTestId('leader').textContent()).toBe(result);
    await page.close();
  });

  it('draws the head before the history: the table shows while every event page is held, with one head snapshot', async () => {
    const page = await browser.page();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let eventPages = 0;
    await page.route(`**/games/${gameId}/events?**`, async (route) => {
      eventPages++;
      await held;
      await route.continue();
    });
    // The head's snapshot: asked for without a seq, or with the head's seq (the rest check used to ask again).
    const headSnapshots: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === `/games/${gameId}/snapshot` && (u.searchParams.get('seq') ?? String(head)) === String(head)) headSnapshots.push(u.search);
    });
    await page.goto(`${server.url}/watch/games/${gameId}`);
    await page.getByTestId('table').waitFor();
    await waitShown(page, 'cursor', 'eq', head);
    // Drawn while the history is still held back.
    await until('an event page to be asked for', () => Promise.resolve(eventPages > 0 ? true : undefined), 10_000, 20);
    expect(await page.getByTestId('scrubber').getAttribute('data-history')).toBe('loading');
    await page.getByTestId('history-loading').waitFor();
    release();
    await page.locator('[data-testid=scrubber][data-history=loaded]').waitFor();
    await page.getByTestId('result').waitFor();
    // The fold at the head was checked against the one head snapshot: no second one, no mismatch.
    await waitShown(page, 'h-checks', 'gte', 1);
    await page.getByTestId('cursor-hash').waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    expect(headSnapshots).toHaveLength(1);
    expect(await num(page, 'h-mismatches')).toBe(0);
    // The scrubber reaches back once the history is in.
    await page.keyboard.press('Home');
    await waitShown(page, 'cursor', 'eq', 0);
    await page.close();
  });

  it('as admin, each seat view from seq 0 folds with no mismatch, resync or fold error', async () => {
    for (const seat of ['plr_1', 'plr_2', 'plr_3']) {
      const page = await openGame(`?view=${seat}&seq=0`, ADMIN);
      await waitShown(page, 'cursor', 'eq', 0);
      const at0 = await api<{ state_hash: string }>(server, `/games/${gameId}/snapshot?seq=0&view=${seat}`, ADMIN);
      await waitShown(page, 'cursor-hash', 'eq', at0.state_hash, 'data-hash');
      // The rest check at seq 0 and the head check have both answered.
      await waitShown(page, 'h-checks', 'gte', 2);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await waitShown(page, 'cursor', 'eq', 2);
      const at2 = await api<{ state_hash: string }>(server, `/games/${gameId}/snapshot?seq=2&view=${seat}`, ADMIN);
      await waitShown(page, 'cursor-hash', 'eq', at2.state_hash, 'data-hash');
      await waitShown(page, 'h-checks', 'gte', 3);
      expect({ seat, mismatches: await num(page, 'h-mismatches'), resyncs: await num(page, 'h-resyncs'), fold_errors: await num(page, 'h-fold-errors') }).toEqual({ seat, mismatches: 0, resyncs: 0, fold_errors: 0 });
      await page.close();
    }
  }, 120_000);

  it('keeps the keyboard shortcuts after a click on the scrubber: ] five times lands five round starts on', async () => {
    const page = await openGame('?seq=0');
    await page.getByTestId('scrubber').click();
    // The click seeks (to about the middle); wait for the URL to rest there, then read it.
    await page.waitForURL((url) => url.searchParams.get('seq') !== '0');
    const from = await num(page, 'cursor');
    const phases = (await allEvents(server, gameId, 'spectator')).filter((e) => e.type === 'phase_changed') as unknown as { seq: number; turn: number }[];
    const rounds = phases.filter((s, i) => i === 0 || s.turn !== phases[i - 1]!.turn).map((s) => s.seq);
    let expected = from;
    for (let i = 0; i < 5; i++) expected = rounds.find((s) => s > expected) ?? head;
    for (let i = 0; i < 5; i++) await page.keyboard.press(']');
    await waitShown(page, 'cursor', 'eq', expected);
    expect(expected).toBeGreaterThan(from);
    await page.keyboard.press('Home');
    await waitShown(page, 'cursor', 'eq', 0);
    await page.close();
  });

  it('shows the diagnostics line open to admins and behind a closed toggle to everyone else', async () => {
    const anon = await openGame();
    expect(await anon.getByTestId('diagnostics').getAttribute('open')).toBeNull();
    expect(await anon.getByTestId('health').isVisible()).toBe(false);
    await anon.getByText('diagnostics', { exact: true }).click();
    await anon.getByTestId('health').waitFor({ state: 'visible' });
    await anon.close();
    const admin = await openGame('', ADMIN);
    expect(await admin.getByTestId('diagnostics').getAttribute('open')).not.toBeNull();
    expect(await admin.getByTestId('health').isVisible()).toBe(true);
    await admin.close();
  });

  it('GET /games filters by agent and tournament (or none), and refuses bad filters with a 400', async () => {
    const ids = async (q: string) => (await api<{ games: GameRow[] }>(server, `/games?${q}`)).games.map((g) => g.game_id).sort();
    expect(await ids('status=ended&tournament=none')).toEqual([gameId, ...small].sort());
    expect(await ids(`tournament=${tournamentId}`)).toEqual([...tournamentGames].sort());
    expect(await ids('agent=turtle&tournament=none')).toEqual([small[0]!, small[2]!].sort());
    for (const bad of ['tournament=', `agent=${'x'.repeat(201)}`, 'agent=a%00b', 'limit=501']) {
      const res = await fetch(`${server.url}/games?${bad}`);
      expect(res.status, bad).toBe(400);
      await res.arrayBuffer();
    }
  });

  it('pages the lobby’s games and filters them by agent and tournament; a tournament’s games sit under it', async () => {
    const standalone = [gameId, ...small].sort();
    const page = await open('/?per=2');
    const rows = () => page.evaluate<string[]>(`[...document.querySelectorAll('[data-testid=games-list] [data-game-id]')].map((e) => e.getAttribute('data-game-id'))`);
    const seen: string[] = [];
    await page.getByTestId('games-list').waitFor();
    for (let n = 1; ; n++) {
      await waitShown(page, 'page-number', 'eq', `page ${n}`);
      await until('the page’s rows', async () => ((await rows()).some((id) => !seen.includes(id)) ? true : undefined), 30_000, 50);
      const got = await rows();
      expect(got.length).toBeLessThanOrEqual(2);
      seen.push(...got);
      if (await page.getByTestId('page-older').isDisabled()) break;
      await page.getByTestId('page-older').click();
    }
    expect([...seen].sort()).toEqual(standalone);
    await page.getByTestId('page-newer').click();
    await waitShown(page, 'page-number', 'eq', `page ${Math.ceil(standalone.length / 2) - 1}`);

    await page.getByTestId('filter-agent').fill('turtle');
    await page.getByTestId('filter-agent').press('Enter');
    await waitShown(page, 'page-number', 'eq', 'page 1');
    await until('the turtle games', async () => ((await rows()).length > 0 && (await rows()).every((id) => id === small[0] || id === small[2]) ? true : undefined), 30_000, 50);
    expect(new URL(page.url()).searchParams.get('agent')).toBe('turtle');

    await page.getByTestId('filter-agent').fill('');
    await page.getByTestId('filter-agent').press('Enter');
    await page.getByTestId('filter-tournament').selectOption(tournamentId);
    await until('the tournament’s games', async () => ((await rows()).join() === [...tournamentGames].sort().reverse().slice(0, 2).join() || (await rows()).every((id) => tournamentGames.includes(id)) ? true : undefined), 30_000, 50);

    const group = page.locator(`[data-testid=tournament-group][data-tournament-id="${tournamentId}"]`);
    await group.locator('summary').click();
    await group.getByTestId('tournament-games').locator(`[data-game-id="${tournamentGames[0]!}"]`).waitFor();
    await page.close();
  });

  it('shows an ended tournament without a live badge, its games under "Round 1 of 1" with a status badge each', async () => {
    const page = await open(`/watch/tournaments/${tournamentId}`);
    await page.getByTestId('t-games').waitFor();
    expect(await page.getByTestId('t-status').textContent()).toBe('ended');
    expect(await page.getByTestId('t-updates').count()).toBe(0);
    const rounds = page.getByTestId('t-round');
    expect(await rounds.count()).toBe(1);
    expect(await rounds.first().locator('.round-head').textContent()).toMatch(new RegExp(`^Round 1 of 1 · ${tournamentGames.length} games? · ${tournamentGames.length} ended`));
    const badges = await page.getByTestId('t-game-status').allTextContents();
    expect(badges).toEqual(tournamentGames.map(() => 'ended'));
    await page.close();
  });

  it('the lobby does not download the OpenAPI document (it asks GET /tournaments directly)', async () => {
    const page = await browser.page();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(`${server.url}/`);
    await page.getByTestId('tournaments').waitFor();
    await page.locator('.conn.ok').waitFor();
    await page.waitForLoadState('networkidle');
    expect(asked).toContain('/tournaments');
    expect(asked.filter((p) => p.startsWith('/docs'))).toEqual([]);
    await page.close();
  });

  it('a game page loads one script and one stylesheet, with none of the lobby’s or tournament’s code or rules; those pages load theirs', async () => {
    /** The /assets/ files a page loads until it is ready and the network is quiet. */
    const assets = async (path: string, ready: (p: Page) => Promise<void>): Promise<{ page: Page; js: string[]; css: string[] }> => {
      const page = await browser.page();
      const seen: string[] = [];
      page.on('response', (r) => {
        const u = new URL(r.url()).pathname;
        if (u.startsWith('/assets/')) seen.push(u);
      });
      await page.goto(`${server.url}${path}`);
      await ready(page);
      await page.waitForLoadState('networkidle');
      return { page, js: seen.filter((u) => u.endsWith('.js')), css: seen.filter((u) => u.endsWith('.css')) };
    };
    const game = await assets(`/watch/games/${gameId}`, async (p) => {
      await p.getByTestId('table').waitFor();
      await p.locator('[data-testid=scrubber][data-history=loaded]').waitFor();
    });
    // Each response is its headers plus a body that compresses worse alone: one file each.
    expect(game.js).toHaveLength(1);
    expect(game.css).toHaveLength(1);
    const css = await (await fetch(`${server.url}${game.css[0]}`)).text();
    for (const rule of ['.game-link', '.ring.mini', 'table.matrix', '.two-col']) expect(css, rule).not.toContain(rule);
    await game.page.close();

    const lobby = await assets('/', async (p) => {
      await p.getByTestId('tournaments').waitFor();
    });
    expect(lobby.js.filter((u) => u.startsWith('/assets/lobby-page-'))).toHaveLength(1);
    expect(lobby.js).toContain(game.js[0]);
    // Its rules arrived with it: a game's row is laid out as a grid.
    expect(await lobby.page.evaluate(`getComputedStyle(document.querySelector('.game-link')).display`)).toBe('grid');
    await lobby.page.close();

    const tournament = await assets(`/watch/tournaments/${tournamentId}`, async (p) => {
      await p.getByTestId('h2h').waitFor();
    });
    expect(tournament.js.filter((u) => u.startsWith('/assets/tournament-page-'))).toHaveLength(1);
    expect(await tournament.page.evaluate(`getComputedStyle(document.querySelector('table.matrix')).borderSpacing`)).toBe('2px');
    await tournament.page.close();
  });

  it('compresses every text answer over real HTTP (brotli or gzip as asked), and the socket still connects', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const js = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const css = /href="(\/assets\/[^"]+\.css)"/.exec(html)![1]!;
    const paths = [js, css, `/games/${gameId}/events?after=0&limit=1000`, `/games/${gameId}/snapshot?seq=${head}`, '/docs/openapi.json', '/games?limit=50'];
    for (const [accept, want] of [['br, gzip', 'br'], ['gzip', 'gzip']] as const) {
      for (const path of paths) {
        const res = await fetch(`${server.url}${path}`, { headers: { 'accept-encoding': accept } });
        expect({ path, accept, status: res.status, encoding: res.headers.get('content-encoding') }).toEqual({ path, accept, status: 200, encoding: want });
        expect(res.headers.get('vary') ?? '').toMatch(/accept-encoding/i);
        await res.arrayBuffer();
      }
    }
    const plain = await fetch(`${server.url}${js}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    await plain.arrayBuffer();
    // socket.io is untouched: the lobby's channel comes up.
    const lobby = await open('/');
    await lobby.locator('.conn.ok').waitFor();
    await lobby.close();
  });

  it('moves between the analysis tabs with the arrow keys, Home and End (one tab stop), and those keys leave the game’s position alone', async () => {
    const page = await openGame('?seq=40');
    await waitShown(page, 'cursor', 'eq', 40);
    const selected = () => page.evaluate<(string | null)[]>(`[...document.querySelectorAll('[role=tab]')].filter((t) => t.getAttribute('aria-selected') === 'true').map((t) => t.getAttribute('data-testid'))`);
    const focused = () => page.evaluate<string | null>(`document.activeElement?.getAttribute('data-testid') ?? null`);
    const tabs = await page.evaluate<(string | null)[]>(`[...document.querySelectorAll('[role=tab]')].map((t) => t.getAttribute('data-testid'))`);
    expect(await page.evaluate<number>(`document.querySelectorAll('[role=tab][tabindex="0"]').length`)).toBe(1);
    await page.getByTestId('tab-attacks').focus();
    for (const [key, want] of [['ArrowRight', 'tab-charts'], ['ArrowLeft', 'tab-attacks'], ['ArrowLeft', tabs[tabs.length - 1]], ['Home', 'tab-attacks'], ['End', tabs[tabs.length - 1]]] as const) {
      await page.keyboard.press(key);
      expect({ key, selected: await selected(), focused: await focused() }).toEqual({ key, selected: [want], focused: want });
    }
    // The panel is the selected tab's, and named by it.
    expect(await page.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(await page.getByTestId(tabs[tabs.length - 1]!).getAttribute('id'));
    expect(await num(page, 'cursor')).toBe(40);
    await page.close();
  });

  it('has no critical or serious axe-core violations on the lobby, a live game, an ended game, a tournament and a replay, at 1280×800 and 390×844', async () => {
    // Made here, after the tests that count this server's games; paced so it stays live throughout.
    const liveId = await createGame(server, { agents: ['balanced', 'aggressor', 'turtle'], pace_ms: 500 });
    const replay = Buffer.from(JSON.stringify(await api(server, `/games/${gameId}/replay?view=spectator`)));
    const pages: Record<string, (page: Page) => Promise<void>> = {
      lobby: async (p) => {
        await p.goto(`${server.url}/`);
        await p.getByTestId('games-list').locator('[data-game-id]').first().waitFor();
      },
      live: async (p) => {
        await p.goto(`${server.url}/watch/games/${liveId}`);
        await p.getByTestId('connection').filter({ hasText: /^live$/ }).waitFor();
        await waitShown(p, 'head', 'gte', 10, undefined, 60_000);
      },
      ended: async (p) => {
        await p.goto(`${server.url}/watch/games/${gameId}`);
        await p.getByTestId('result').waitFor();
        await waitShown(p, 'cursor', 'eq', head);
        await p.getByTestId('win-graph').locator('path.seat-line').first().waitFor();
      },
      tournament: async (p) => {
        await p.goto(`${server.url}/watch/tournaments/${tournamentId}`);
        await p.getByTestId('manip-cell').first().waitFor();
        await p.getByTestId('t-games').waitFor();
      },
      replay: async (p) => {
        await p.goto(`${server.url}/watch/replay`);
        await p.getByTestId('replay-file').setInputFiles({ name: 'game.tiltyard-replay.json', mimeType: 'application/json', buffer: replay });
        await waitShown(p, 'cursor', 'eq', head);
      },
    };
    const found: (Violation & { page: string; width: number })[] = [];
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      for (const [name, load] of Object.entries(pages)) {
        const page = await browser.page();
        await page.setViewportSize(viewport);
        // No fade-ins: axe reads a bubble half-way through its animation as low contrast.
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await load(page);
        for (const v of await axeViolations(page)) found.push({ page: name, width: viewport.width, ...v });
        await page.close();
      }
    }
    expect(found).toEqual([]);
  }, 240_000);

  it('logged no console errors on any page', () => {
    expect(browser.errors).toEqual([]);
  });
});
