import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attackList, branchPoint, forkOutcome, type ForkSummary, type GameEvent } from '../../src/view/index.js';
import { launchBrowser, type Browser } from './browser.js';
import { EVIL_SPEECH, PRIVATE_MARKER, writeEvilSkill } from './evil-skill.js';
import { ADMIN, allEvents, api, createGame, num, outDir, startVizServer, waitEnded, waitShown, withToken, type VizServer } from './support.js';

type World = { turn: number; phase: string; status: string; players: { player_id: string; lives: number; resolve: number; tempo: number; exposure: number; hand_count: number; alive: boolean }[] };

/**
 * The visualizer replaying a stored game in Chromium: the player's controls, the table against
 * the server's snapshot at the same seq, the panels, untrusted speech, and a scan of everything an
 * anonymous page ever showed against the secrets in the admin stream.
 */
describe('visualizer: replaying a stored game', () => {
  let server: VizServer;
  let browser: Browser;
  let skills: string;
  let gameId: string;
  let head: number;

  beforeAll(async () => {
    skills = mkdtempSync(join(tmpdir(), 'tiltyard-viz-skill-'));
    const evil = writeEvilSkill(skills);
    server = await startVizServer();
    browser = await launchBrowser();
    gameId = await createGame(server, { agents: ['balanced', `skill:${evil}`, 'aggressor', 'manipulator'], pace_ms: 0 });
    head = await waitEnded(server, gameId, 170_000);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(skills, { recursive: true, force: true });
  });

  const open = async (query = '', token?: string): Promise<Page> => {
    const page = await browser.page();
    if (token) await withToken(page, token);
    await page.goto(`${server.url}/watch/games/${gameId}${query}`);
    await page.getByTestId('table').waitFor();
    await waitShown(page, 'head', 'eq', head);
    return page;
  };
  const at = (page: Page, seq: number) => waitShown(page, 'cursor', 'eq', seq);

  /** The table as the page shows it, in the snapshot's terms. */
  const tableOf = (page: Page) =>
    page.evaluate<{ round: number; phase: string; seats: World['players'] }>(`(() => {
      const seats = [...document.querySelectorAll('[data-player]')].map((el) => {
        const stat = (k) => Number(el.querySelector('[data-stat=' + k + ']').textContent);
        return { player_id: el.getAttribute('data-player'), lives: stat('lives'), resolve: stat('resolve'), tempo: stat('tempo'), exposure: stat('exposure'), hand_count: stat('hand'), alive: !el.classList.contains('out') };
      });
      return { round: Number(document.querySelector('[data-testid=round]').textContent), phase: document.querySelector('[data-testid=phase]').textContent, seats };
    })()`);

  const expectTableAt = async (page: Page, seq: number, view: string, token?: string) => {
    const snap = await api<{ state: { world: World } }>(server, `/games/${gameId}/snapshot?seq=${seq}&view=${view}`, token);
    const shown = await tableOf(page);
    const w = snap.state.world;
    expect(shown.round).toBe(w.turn);
    expect(shown.phase).toBe(w.status === 'done' ? 'Game over' : w.phase);
    expect(shown.seats).toEqual(w.players.map((p) => ({ player_id: p.player_id, lives: p.lives, resolve: p.resolve, tempo: p.tempo, exposure: p.exposure, hand_count: p.hand_count, alive: p.alive })));
    // And the whole state, not only what the table draws: the page's hash becomes the server's
    // (the player checks each resting position against the snapshot and resyncs on a drift).
    const server_ = await api<{ state_hash: string }>(server, `/games/${gameId}/snapshot?seq=${seq}&view=${view}`, token);
    await waitShown(page, 'cursor-hash', 'eq', server_.state_hash, 'data-hash');
    expect(await page.getByTestId('cursor-hash').getAttribute('data-seq')).toBe(String(seq));
  };

  it('loads at a deep-linked seq, and step, phase, round and jump land where the log says, with the table equal to the snapshot', async () => {
    const mid = Math.floor(head / 2);
    const page = await open(`?seq=${mid}`);
    await at(page, mid);
    await expectTableAt(page, mid, 'spectator');
    // The replay's fold was checked against the server's hashes (mismatches are resynced and
    // counted: the count is the shared reducer's business, tested in test/view).
    await waitShown(page, 'h-checks', 'gte', 1);

    await page.getByTestId('step-forward').click();
    await at(page, mid + 1);
    await page.keyboard.press('ArrowLeft');
    await at(page, mid);

    const events = await allEvents(server, gameId, 'spectator');
    const phaseStarts = events.filter((e) => e.type === 'phase_changed');
    const nextPhase = phaseStarts.find((e) => e.seq > mid)!;
    await page.getByTestId('next-phase').click();
    await at(page, nextPhase.seq);
    await expectTableAt(page, nextPhase.seq, 'spectator');

    const turnOf = (seq: number) => (events.find((e) => e.seq === seq) as unknown as { turn: number }).turn;
    const nextRound = phaseStarts.find((e) => e.seq > nextPhase.seq && turnOf(e.seq) !== turnOf(nextPhase.seq))!;
    await page.getByTestId('next-round').click();
    await at(page, nextRound.seq);

    const target = phaseStarts.find((e) => turnOf(e.seq) === 3 && (e.payload as { phase: string }).phase === 'resolve')!;
    await page.getByTestId('jump-turn').fill('3');
    await page.getByTestId('jump-phase').selectOption('resolve');
    await page.getByTestId('jump').click();
    await at(page, target.seq);
    await expectTableAt(page, target.seq, 'spectator');
    // The address follows once the position rests (not on every frame of a scrub): awaited, not raced.
    await page.waitForURL((url) => url.searchParams.get('seq') === String(target.seq));
    expect(new URL(page.url()).searchParams.get('seq')).toBe(String(target.seq));

    // The scrubber: any seq, the same table as the server's.
    const someSeq = Math.floor(head * 0.8);
    await page.getByTestId('scrubber').fill(String(someSeq));
    await at(page, someSeq);
    await expectTableAt(page, someSeq, 'spectator');
    await page.close();
  }, 180_000);

  it('plays at the chosen speed until the end, and pauses', async () => {
    const page = await open(`?seq=${head - 40}`);
    await page.getByTestId('speed').selectOption('32');
    await page.getByTestId('play').click();
    await at(page, head);
    await page.getByTestId('play').filter({ hasText: 'Play' }).waitFor();
    // 0.5×: it advances, one event at a time, and pause holds the position.
    await page.getByTestId('scrubber').fill(String(head - 20));
    await at(page, head - 20);
    await page.getByTestId('speed').selectOption('0.5');
    // Keys go to the page, not to a focused form control.
    await page.locator('h1').first().click();
    await page.keyboard.press('Space');
    // Playback follows the clock: a stalled machine may move it more than one event at once.
    await waitShown(page, 'cursor', 'gte', head - 19);
    await page.getByTestId('play').click();
    const held = await num(page, 'cursor');
    expect(held).toBeGreaterThanOrEqual(head - 19);
    await page.getByTestId('step-forward').click();
    await at(page, held + 1);
    await page.close();
  }, 120_000);

  it('shows an attack’s plan beside its resolution (admin view) and the table equals the admin snapshot', async () => {
    const page = await open(`?seq=${head}&view=admin`, ADMIN);
    await expectTableAt(page, head, 'admin', ADMIN);
    const row = page.getByTestId('attack-row').first();
    await row.click();
    const inspector = page.getByTestId('inspector');
    await inspector.waitFor();
    const plan = await page.getByTestId('inspector-plan').textContent();
    const resolution = await page.getByTestId('inspector-resolution').textContent();
    const attacks = (await allEvents(server, gameId, 'admin', ADMIN)).filter((e) => e.type === 'action_resolved' && (e.payload as { attack_plan: unknown }).attack_plan);
    const last = attacks.at(-1)!.payload as { attack_plan: { manipulation_plan: string; target_player_id: string }; manipulation_outcome: string | null };
    expect(plan).toContain(last.attack_plan.manipulation_plan);
    expect(plan).toContain(last.attack_plan.target_player_id);
    expect(resolution).toMatch(/tactical/);
    if (last.manipulation_outcome) expect(resolution).toContain(last.manipulation_outcome);
    await page.screenshot({ path: join(outDir(), 'visualizer-replay-inspector.png'), fullPage: true });
    // A page of the newest rows is drawn (a seek redraws only those); "show earlier" draws the next page.
    const total = attackList((await allEvents(server, gameId, 'admin', ADMIN)) as unknown as GameEvent[]).length;
    const rows = page.getByTestId('attack-row');
    expect(await rows.count()).toBe(Math.min(15, total));
    if (total > 15) {
      await page.locator('.scroll:has([data-testid=attacks]) [data-testid=show-earlier]').click();
      await rows.nth(Math.min(30, total) - 1).waitFor();
      expect(await rows.count()).toBe(Math.min(30, total));
    }
    await page.close();
  });

  it('lists the events that moved a heatmap cell, and diffs two points', async () => {
    const page = await open(`?seq=${head}&view=admin`, ADMIN);
    await page.getByTestId('tab-trust').click();
    const cell = page.locator('[data-testid=trust-cell]:not([data-moves="0"])').first();
    const moves = Number(await cell.getAttribute('data-moves'));
    expect(moves).toBeGreaterThan(0);
    await cell.click();
    const listed = page.getByTestId('cell-events').locator('li');
    await expect(listed.count()).resolves.toBe(moves);
    // A listed event is a button to its point in the game, saying where it goes (never a bare seq).
    const firstSeq = Number(await listed.first().getAttribute('data-seq'));
    expect(await listed.first().getByRole('button').textContent()).toMatch(/^round \d+: \S/);
    await listed.first().getByRole('button').click();
    await at(page, firstSeq);

    await page.getByTestId('tab-diff').click();
    await page.getByTestId('diff-a').fill('1');
    await page.getByTestId('diff-b').fill(String(head));
    await page.getByTestId('diff-run').click();
    const items = page.getByTestId('diff-list').locator('li');
    await items.first().waitFor();
    expect(await items.count()).toBeGreaterThan(3);
    expect((await items.allTextContents()).join('\n')).toMatch(/lives|resolve|status/);
    await page.close();
  });

  it('never shows an anonymous page a hidden card, plan or private message, over the whole game', async () => {
    // Secrets: distinctive strings under keys the admin stream marks hidden that the spectator
    // stream never carries anywhere.
    const adminEvents = await allEvents(server, gameId, 'admin', ADMIN);
    const publicText = JSON.stringify(await allEvents(server, gameId, 'spectator'));
    const secrets = new Set<string>();
    const leaves = (x: unknown): string[] => (typeof x === 'string' ? [x] : Array.isArray(x) ? x.flatMap(leaves) : x && typeof x === 'object' ? Object.values(x).flatMap(leaves) : []);
    for (const e of adminEvents) for (const h of e.visibility.hidden) for (const s of leaves(e.payload[h.key])) if (s.length >= 6 && /\d|\s/.test(s) && !publicText.includes(JSON.stringify(s).slice(1, -1))) secrets.add(s);
    expect(secrets.has(PRIVATE_MARKER)).toBe(true);
    expect(secrets.size).toBeGreaterThan(20);

    const page = await open('?seq=0');
    // Visit every seq; keep each distinct piece of the page's markup (text and attributes), with
    // every analysis tab opened now and then; then look for the secrets in all of it.
    const leaked = await page.evaluate<{ leaked: string[]; size: number }>(`(async (head, secrets) => {
      const input = document.querySelector('[data-testid=scrubber]');
      const cursor = document.querySelector('[data-testid=cursor]');
      const settle = () => new Promise((r) => { const ch = new MessageChannel(); ch.port1.onmessage = () => r(); ch.port2.postMessage(0); });
      const chunks = new Set();
      const keep = () => { for (const el of document.querySelectorAll('main > *')) chunks.add(el.outerHTML); };
      const tabs = ['tab-attacks', 'tab-ledger', 'tab-predictions', 'tab-trust', 'tab-emotions', 'tab-attacks'];
      for (let seq = 0; seq <= head; seq++) {
        input.value = String(seq);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        while (cursor.textContent !== String(seq)) await settle();
        if (seq % 50 === 0 || seq === head) {
          for (const t of tabs) { document.querySelector('[data-testid=' + t + ']').click(); await settle(); await settle(); keep(); }
        } else keep();
      }
      const all = [...chunks].join('\\n');
      const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
      return { leaked: secrets.filter((s) => all.includes(s) || all.includes(esc(s))), size: all.length };
    })(${head}, ${JSON.stringify([...secrets])})`);
    expect(leaked.size).toBeGreaterThan(100_000);
    expect(leaked.leaked).toEqual([]);
    // The scan can see: the admin page shows the private whisper (where it was said: the feed draws
    // a page of the newest lines, and the whisperer may have been out long before the end).
    const admin = await open(`?seq=${lastSaid(adminEvents, PRIVATE_MARKER)}&view=admin`, ADMIN);
    await admin.getByTestId('speech-feed').getByText(PRIVATE_MARKER).first().waitFor();
    await page.close();
    await admin.close();
  }, 600_000);

  it('renders markup in speech as text in a replay, with no element created and no dialog', async () => {
    const page = await open(`?seq=${lastSaid(await allEvents(server, gameId, 'spectator'), EVIL_SPEECH[1])}`);
    for (const line of EVIL_SPEECH) await page.getByTestId('speech-feed').getByText(line, { exact: true }).first().waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(browser.dialogs).toEqual([]);
    await page.close();
  });

  /** The seq of the last speech_posted event with this text (the speaker's newest line is then on top of the feed). */
  const lastSaid = (events: { seq: number; type: string; payload: Record<string, unknown> }[], text: string): number => {
    const said = events.filter((e) => e.type === 'speech_posted' && e.payload['text'] === text);
    expect(said.length).toBeGreaterThan(0);
    return said.at(-1)!.seq;
  };

  it('links a fork and its parent both ways: the parent lists the fork with its branch point and outcome, the fork links back', async () => {
    const events = await allEvents(server, gameId, 'spectator');
    const lastRound = Math.max(...events.map((e) => (e as unknown as { turn: number }).turn));
    // Late in the game and built-ins only, so the fork's own play is short.
    const res = await fetch(`${server.url}/games/${gameId}/fork`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ at: `round:${lastRound - 1}`, agents: ['balanced', 'random', 'aggressor', 'manipulator'], reseed: 4, pace_ms: 0 }),
    });
    const created = (await res.json()) as { game_id: string; options: { fork: { seq: number } } };
    expect(res.status, JSON.stringify(created)).toBe(201);
    const forkId = created.game_id;
    const seq = created.options.fork.seq;
    await waitEnded(server, forkId);
    const listed = (await api<{ forks: ForkSummary[] }>(server, `/games/${gameId}`)).forks;
    expect(listed.map((f) => f.game_id)).toEqual([forkId]);
    const point = branchPoint(seq, listed[0]!.round);

    // The parent's page, as anyone sees it: the fork as a sentence, linked.
    const page = await open();
    const item = page.locator(`[data-testid=fork-item][data-game-id="${forkId}"]`);
    await item.waitFor();
    expect(await page.getByTestId('fork-list').locator('summary').textContent()).toBe('One game was forked from this one');
    expect(await item.getByTestId('fork-point').getAttribute('href')).toBe(`/watch/games/${gameId}?seq=${seq}`);
    expect(await item.textContent()).toBe(`${forkId} branches at ${point}, with new draws (reseed 4), played by balanced, random, aggressor, manipulator: ${forkOutcome(listed[0]!)}.`);
    expect(forkOutcome(listed[0]!)).toMatch(/ won$| shared first place$/);
    await item.getByTestId('fork-link').click();

    // The fork's page names its parent and links back to the branch point there.
    await page.waitForURL((url) => url.pathname === `/watch/games/${forkId}`);
    const back = page.getByTestId('fork-parent');
    await back.waitFor();
    expect(await page.getByTestId('fork-line').textContent()).toBe(`Forked from ${gameId} at ${point}, with new draws (reseed 4); events up to there are the parent's.`);
    expect(await page.getByTestId('fork-list').count()).toBe(0);
    await back.click();
    await page.waitForURL((url) => url.pathname === `/watch/games/${gameId}`);
    await at(page, seq);
    await page.close();
  }, 180_000);

  it('logged no console errors on any page', () => {
    expect(browser.errors).toEqual([]);
  });
});
