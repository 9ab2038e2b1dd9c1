import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measureStart } from '../../bench/fixtures/start-measure.js';
import type { GameRecord } from '../../src/store/index.js';
import type { GameEvent } from '../../src/protocol/index.js';
import { tiltyardWith } from '../cli/run-cli.js';
import { spawnServer, until } from './spawn-server.js';
import { launchBrowser } from '../visualizer/browser.js';
import { waitShown } from '../visualizer/support.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-start-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * What `npm start` runs (`tiltyard serve`, demo on by default, the default pace), on a fresh data
 * folder and any free port, with none of the operator's settings leaking in from this environment.
 */
const ENV = {
  TILTYARD_DATA_DIR: join(tmp, 'data'),
  DATABASE_URL: undefined,
  PORT: undefined,
  HOST: undefined,
  TILTYARD_DEMO: undefined,
  TILTYARD_DEMO_AGENTS: undefined,
  TILTYARD_DEMO_SPECTATORS: undefined,
  TILTYARD_PACE_MS: undefined,
  TILTYARD_ADMIN_TOKEN: undefined,
  TILTYARD_RESEARCHER_TOKEN: undefined,
};

type Games = { games: GameRecord[] };
const liveDemo = async (url: string): Promise<GameRecord | undefined> => {
  const { games } = (await (await fetch(`${url}/games?status=running`)).json()) as Games;
  return games.find((g) => g.options['demo'] === true && g.last_seq > 0);
};

describe('tiltyard serve, as npm start runs it', () => {
  it('given a fresh data folder, then it serves /health and has a live demo game, and SIGTERM exits 0; started again, the same demo game plays on', async () => {
    const server = await spawnServer(ENV);
    const { stderr } = server.output();
    expect(stderr).toContain(`${server.url}/docs`);
    expect(stderr).toContain(`${server.url}/health`);
    expect(stderr).toMatch(/socket\.io namespace http:\/\/\S+\/spectate/);
    expect(stderr).toContain('no TILTYARD_ADMIN_TOKEN: admin features are off');

    // The timeouts detect a hang; how fast it starts is reported, never asserted (the machine may be busy).
    const healthMs = await until('/health', async () => ((await fetch(`${server.url}/health`)).ok ? performance.now() - server.spawnedAt : undefined), 240_000, 20);
    const demo = await until('a live demo game', () => liveDemo(server.url), 240_000, 50);
    const firstEventMs = performance.now() - server.spawnedAt;
    expect(demo).toMatchObject({ status: 'running', seed: null, options: { demo: true, pace_ms: 250, spectator_delay_ms: 0, spectators: 'broadcast', broadcast_held: false } });
    expect(demo.seats.map((s) => s.agent)).toEqual(['balanced', 'aggressor', 'manipulator', 'trickster']);
    // Live: it moves on while we watch (for an anonymous caller a round at a time: it is a broadcast).
    const moved = await until('the demo game to move on', async () => {
      const g = (await (await fetch(`${server.url}/games/${demo.game_id}`)).json()) as GameRecord;
      return g.last_seq > demo.last_seq ? g : undefined;
    }, 240_000, 100);
    // An anonymous visitor gets the broadcast: every seat's hand, the emotions and the private
    // speech (once the round after theirs has ended), and never the PRNG, the deck or the seed.
    const shown = await until('the broadcast to show hands, emotions and private speech', async () => {
      const page = (await (await fetch(`${server.url}/games/${demo.game_id}/events?after=0&limit=1000`)).json()) as { events: GameEvent[] };
      const p = (e: GameEvent) => e.payload as Record<string, unknown>;
      const hands = new Set(page.events.filter((e) => e.type === 'cards_drawn' && (p(e)['card_refs'] as unknown[] | undefined)?.length).map((e) => p(e)['player_id']));
      const emotions = page.events.some((e) => e.type === 'emotion_updated' && p(e)['emotions']);
      const whispers = page.events.some((e) => e.type === 'speech_posted' && p(e)['channel'] === 'private' && typeof p(e)['text'] === 'string');
      return hands.size === 4 && emotions && whispers ? page.events : undefined;
    }, 240_000, 250);
    for (const e of shown) expect(JSON.stringify(e)).not.toMatch(/"(rng|deck|order|seed)":/);

    // The same in real Chromium, as an anonymous visitor opening the demo at a private line the
    // broadcast has released: every seat's hand as named cards, emotion meters, the line opened.
    const whisper = shown.filter((e) => e.type === 'speech_posted' && (e.payload as { channel?: string }).channel === 'private').at(-1)!;
    const { target_player_id: listener, text } = whisper.payload as { target_player_id: string; text: string };
    const browser = await launchBrowser();
    try {
      const page = await browser.page();
      await page.goto(`${server.url}/watch/games/${demo.game_id}?seq=${whisper.seq}`);
      await page.getByTestId('table').waitFor();
      await waitShown(page, 'cursor', 'eq', whisper.seq);
      expect(await page.getByTestId('broadcast-badge').textContent()).toBe('broadcast · a round behind');
      const seatsWithCards = await page.locator('[data-player]').filter({ has: page.locator('[data-row=hand] [data-card][data-name]') }).count();
      expect(seatsWithCards).toBeGreaterThan(0);
      expect(await page.locator('[data-player] [role=meter][data-emotion]').count()).toBeGreaterThanOrEqual(4 * 5);
      await page.locator(`[data-player=${listener}] [data-testid=note]`).filter({ hasText: text.slice(0, 40) }).waitFor();
      expect(browser.dialogs).toEqual([]);
    } finally {
      await browser.close();
    }

    const t0 = performance.now();
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output().stderr).toEqual({ code: 0, signal: null });
    const stopMs = performance.now() - t0;
    // By default a start prints the human summary on stderr and no JSON log lines (TILTYARD_LOG=warn).
    expect(server.output().stdout).toBe('');
    expect(server.output().stderr).not.toMatch(/"context":"(InstanceLoader|RoutesResolver|RouterExplorer)"/);

    // The demo game was paused, not lost: the next start plays it on rather than dealing another.
    const again = await spawnServer(ENV);
    const paused = await until('the demo game after the restart', async () => {
      const { games } = (await (await fetch(`${again.url}/games?status=running`)).json()) as Games;
      return games.find((g) => g.game_id === demo.game_id);
    }, 240_000, 50);
    expect(paused.last_seq).toBeGreaterThanOrEqual(moved.last_seq);
    const resumed = await until('the demo game to play on', async () => {
      const g = await liveDemo(again.url);
      return g && g.game_id === demo.game_id && g.last_seq > paused.last_seq ? g : undefined;
    }, 240_000, 100);
    const { games } = (await (await fetch(`${again.url}/games?limit=500`)).json()) as Games;
    expect(games.filter((g) => g.options['demo'] === true)).toHaveLength(1);
    again.child.kill('SIGTERM');
    expect((await again.exited).code).toBe(0);

    console.info(
      `start test: listening ${server.listeningMs.toFixed(0)} ms after spawn, /health ${healthMs.toFixed(0)} ms, first demo event ${firstEventMs.toFixed(0)} ms; ` +
        `SIGTERM → exit 0 in ${stopMs.toFixed(0)} ms; restarted, the demo game went on from seq ${paused.last_seq} to ${resumed.last_seq}`,
    );
  }, 900_000);

  it('given npm start on a fresh data folder and then again on it, then it reports the time to /health and to the demo game, and it listens before it resumes games and deals the demo', async () => {
    const env = { ...ENV, TILTYARD_DATA_DIR: join(tmp, 'measured'), TILTYARD_LOG: undefined };
    const fresh = await measureStart(env);
    const restart = await measureStart(env);
    for (const run of [fresh, restart]) {
      const at = run.boot_ms;
      // Every phase is marked; what must come in order does (the database opens while the server's
      // code loads, so those two may finish either way round; lengths depend on the machine's load).
      expect(Object.keys(at).sort()).toEqual(['cli loaded', 'database open', 'demo game ready', 'listening', 'migrations checked', 'nest app created', 'server code loaded', 'store open', 'unfinished games read']);
      expect(at['database open']).toBeLessThanOrEqual(at['migrations checked']!);
      expect(at['store open']).toBeLessThanOrEqual(at['nest app created']!);
      expect(at['nest app created']).toBeLessThanOrEqual(at['listening']!);
      expect(at['listening']).toBeLessThanOrEqual(at['unfinished games read']!);
      expect(at['unfinished games read']).toBeLessThanOrEqual(at['demo game ready']!);
    }
    // Figures only, against the targets (fresh ≤ 2 s, restart ≤ 1.5 s, demo ≤ 3 s on a quiet machine).
    console.info(JSON.stringify({ start: { fresh, restart } }));
  }, 300_000);

  it('given bad flags or environment, then serve exits 2 with one line naming the culprit', async () => {
    const where = { cwd: tmp, env: ENV };
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['--port', '70000'], {}, /^tiltyard: --port: must be a port number 0–65535 \(0: any free port\), got "70000"\n$/],
      [['--no-demo', '--nope'], {}, /^tiltyard: unknown flag --nope\n$/],
      [[], { TILTYARD_MAX_GAMES: 'lots' }, /^tiltyard: invalid server configuration: TILTYARD_MAX_GAMES: .*\n$/],
    ];
    for (const [args, env, message] of cases) {
      const run = await tiltyardWith({ ...where, env: { ...ENV, ...env } }, 'serve', ...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });
});
