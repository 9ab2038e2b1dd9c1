/**
 * The visualizer in headless Chromium against the real server (`tiltyard serve` over dist/ and
 * dist/visualizer, built first when stale): the production bundle's gzipped JS, the time a stored
 * game of ≈ 3,000 events takes to its first table paint (navigation start → the `viz:table` mark;
 * target ≤ 500 ms: the page draws the head first) and to interactive with its whole history
 * folded, seek latency to random seqs (p95), and
 * frame intervals while following a live game at ≈ 20 events/s (p95). Prints one JSON object.
 *
 *   npm run bench:visualizer
 *   npm run bench:visualizer -- --seeks 100 --live-seconds 10
 *
 * Frame time is measured as the interval between requestAnimationFrame callbacks while events
 * arrive: a frame whose work overran 16.7 ms shows as a ≥ 33 ms interval. Targets: bundle
 * ≤ 150 KB gzipped, load ≤ 1 s, seek p95 ≤ 50 ms, frame p95 < 16 ms of work (interval ≤ 17 ms).
 *
 * Also a game of ≈ 1,000 events (default rules, the first seed whose log lands in 800–1,400
 * events): the bytes its page transfers in all, over real HTTP with the server's compression
 * (CDP's encodedDataLength of every response up to the page being ready; target ≤ 250 KB), and
 * its first table paint (navigation start → the `viz:table` mark; target ≤ 1 s).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { launchBrowser } from '../test/visualizer/browser.js';
import { ADMIN, api, createGame, startVizServer, waitEnded } from '../test/visualizer/support.js';
import { setup as buildIfStale } from '../test/cli/global-setup.js';

const { values } = parseArgs({
  options: {
    seeks: { type: 'string', default: '200' },
    'live-seconds': { type: 'string', default: '15' },
    'target-events': { type: 'string', default: '3000' },
  },
});
const SEEKS = Number(values.seeks);
const LIVE_S = Number(values['live-seconds']);
const TARGET_EVENTS = Number(values['target-events']);

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100 : NaN;
};

function bundle(): { js_gzip_bytes: number; js_bytes: number; js_brotli_bytes: number; initial_js_gzip_bytes: number; css_gzip_bytes: number; files: number } {
  const root = join(import.meta.dirname, '..', 'dist', 'visualizer');
  const dir = join(root, 'assets');
  // The initial JS: what index.html loads before anything else (a lazy chunk would not count).
  const initial = new Set([...readFileSync(join(root, 'index.html'), 'utf8').matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!));
  let js = 0;
  let jsRaw = 0;
  let br = 0;
  let first = 0;
  let css = 0;
  const files = readdirSync(dir);
  for (const f of files) {
    const body = readFileSync(join(dir, f));
    if (f.endsWith('.js')) {
      const gz = gzipSync(body, { level: 9 }).length;
      js += gz;
      if (initial.has(f)) first += gz;
      jsRaw += body.length;
      br += brotliCompressSync(body).length;
    } else if (f.endsWith('.css')) css += gzipSync(body, { level: 9 }).length;
  }
  return { js_gzip_bytes: js, js_bytes: jsRaw, js_brotli_bytes: br, initial_js_gzip_bytes: first, css_gzip_bytes: css, files: files.length };
}

/** A stored game of about 1,000 events under default rules: the first seed whose log lands in 800–1,400, else the closest. */
async function thousandGame(server: { url: string }): Promise<{ id: string; events: number; seed: number }> {
  let best = { id: '', events: 0, seed: 0 };
  for (let seed = 1; seed <= 12; seed++) {
    const id = await createGame(server, { agents: ['balanced', 'aggressor', 'manipulator', 'trickster', 'turtle'], seed, pace_ms: 0 });
    const last = await waitEnded(server, id, 600_000);
    if (Math.abs(last - 1000) < Math.abs(best.events - 1000)) best = { id, events: last, seed };
    if (last >= 800 && last <= 1400) break;
  }
  return best;
}

/**
 * Rules that make a long but ordinary game: more lives and a later round cap, the yard closing in
 * later (attrition from round 30), full windows. Every value is inside the engine's ranges, so the
 * game is stored, replayed and verified like any other.
 */
const LONG_RULES = { lives: 4, round_cap: 60, windows: 'full', attrition: { from_round: 30 } };

/** A stored game of at least `target` events: six built-in seats under LONG_RULES, the first seed that gets there. */
async function longGame(server: { url: string }): Promise<{ id: string; events: number; seed: number }> {
  let best = { id: '', events: 0, seed: 0 };
  for (let seed = 1; seed <= 10; seed++) {
    const id = await createGame(server, { agents: ['balanced', 'aggressor', 'manipulator', 'trickster', 'turtle', 'balanced'], seed, pace_ms: 0, rules: LONG_RULES });
    const last = await waitEnded(server, id, 600_000);
    if (last > best.events) best = { id, events: last, seed };
    if (last >= target()) return best;
  }
  throw new Error(`no game of ${target()} events in 10 seeds (longest: ${best.events})`);
}
const target = () => TARGET_EVENTS;

/**
 * Runs in the page (as source text: this file is typed for Node). Sets the scrubber to a spread of
 * seqs and times each until the page shows it (MessageChannel turns: no timer clamping).
 */
const SEEK_PROBE = `async (n, head) => {
  const input = document.querySelector('[data-testid=scrubber]');
  const cursor = document.querySelector('[data-testid=cursor]');
  const settle = () => new Promise((r) => { const ch = new MessageChannel(); ch.port1.onmessage = () => r(); ch.port2.postMessage(0); });
  const times = [];
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const seq = x % (head + 1);
    const t0 = performance.now();
    input.value = String(seq);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    while (cursor.textContent !== String(seq)) await settle();
    times.push(performance.now() - t0);
  }
  return times;
}`;

/**
 * In-page condition: the history behind the head is folded. The page draws the head first and
 * marks the scrubber `data-history="loaded"` once the history is in (a page without the attribute
 * drew nothing before it had the whole history).
 */
const HISTORY_IN = `(!s.hasAttribute('data-history') || s.getAttribute('data-history') === 'loaded')`;

/** Runs in the page: one seek to `seq`, timed until the page shows it. */
const SEEK_ONE = `async (seq) => {
  const input = document.querySelector('[data-testid=scrubber]');
  const cursor = document.querySelector('[data-testid=cursor]');
  const settle = () => new Promise((r) => { const ch = new MessageChannel(); ch.port1.onmessage = () => r(); ch.port2.postMessage(0); });
  const t0 = performance.now();
  input.value = String(seq);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  while (cursor.textContent !== String(seq)) await settle();
  await new Promise((r) => requestAnimationFrame(() => r()));
  return performance.now() - t0;
}`;

/** Runs in the page: rAF intervals and long tasks for `seconds` while the live game plays. */
const LIVE_PROBE = `async (seconds) => {
  const head = () => Number(document.querySelector('[data-testid=head]')?.textContent);
  const startHead = head();
  const intervals = [];
  let long = 0;
  const obs = new PerformanceObserver((l) => (long += l.getEntries().length));
  obs.observe({ type: 'longtask', buffered: false });
  let last = performance.now();
  const end = last + seconds * 1000;
  await new Promise((done) => {
    const frame = (now) => { intervals.push(now - last); last = now; if (now < end) requestAnimationFrame(frame); else done(); };
    requestAnimationFrame(frame);
  });
  obs.disconnect();
  return { intervals, events: head() - startHead, long_tasks: long };
}`;

// The global setup's build: dist/ and dist/visualizer, each only when stale.
buildIfStale();
const server = await startVizServer({ TILTYARD_HASH_EVERY: '50' });
const browser = await launchBrowser();
try {
  const size = bundle();
  const stored = await longGame(server);
  // It must be an ordinary stored game: replayed from its seed and decisions, every check passing.
  const verify = await api<{ events_checked: number; assertions: { name: string; status: string }[] }>(server, `/games/${stored.id}/verify`, ADMIN);
  const failed = verify.assertions.filter((a) => a.status !== 'pass').map((a) => a.name);
  if (failed.length) throw new Error(`the stored game ${stored.id} fails verify: ${failed.join(', ')}`);
  const page = await browser.page();

  // A ≈ 1,000-event game: bytes transferred for its whole page (HTML, JS, CSS, the game's record,
  // snapshots and event pages, compressed as the server sends them), and its first table paint.
  const thousand = await thousandGame(server);
  const transfers: { bytes: number; by_type: Record<string, number>; encodings: Record<string, number>; table_ms: number; ready_ms: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const p = await browser.page();
    const net = await p.context().newCDPSession(p);
    await net.send('Network.enable');
    // The browser's cache would make later runs free: every run is a first visit.
    await net.send('Network.setCacheDisabled', { cacheDisabled: true });
    const types = new Map<string, string>();
    const encodings: Record<string, number> = {};
    const byType: Record<string, number> = {};
    let bytes = 0;
    net.on('Network.responseReceived', (e) => {
      types.set(e.requestId, e.type);
      const enc = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1] ?? 'identity';
      encodings[enc] = (encodings[enc] ?? 0) + 1;
    });
    net.on('Network.loadingFinished', (e) => {
      bytes += e.encodedDataLength;
      const t = types.get(e.requestId) ?? 'other';
      byType[t] = (byType[t] ?? 0) + e.encodedDataLength;
    });
    await p.goto(`${server.url}/watch/games/${thousand.id}`);
    const t = await p.evaluate<{ table: number; ready: number }>(
      `new Promise((r) => { const f = () => { const s = document.querySelector('[data-testid=scrubber]'); if (document.querySelector('[data-testid=head]')?.textContent === '${thousand.events}' && s && !s.disabled && ${HISTORY_IN} && performance.getEntriesByName('viz:table')[0]) r({ table: performance.getEntriesByName('viz:table')[0].startTime, ready: performance.now() }); else requestAnimationFrame(f); }; f(); })`,
    );
    // The replay's one head check (a snapshot) may still be on its way: let the network go quiet.
    await p.waitForLoadState('networkidle');
    transfers.push({ bytes, by_type: byType, encodings, table_ms: t.table, ready_ms: t.ready });
    await p.close();
  }

  // Load to interactive: navigation start → the replay ready (its head shown, the table drawn, the
  // scrubber enabled). A replay opens on its final position; the marks split the time into fetching
  // the history and folding it.
  const loads: { total: number; table: number; history: number; folded: number }[] = [];
  for (let i = 0; i < 5; i++) {
    await page.goto(`${server.url}/watch/games/${stored.id}`);
    // Polled each frame in the page (a string predicate for waitForFunction would need eval, which the CSP forbids).
    loads.push(
      await page.evaluate<{ total: number; table: number; history: number; folded: number }>(
        `new Promise((r) => { const f = () => { const s = document.querySelector('[data-testid=scrubber]'); if (document.querySelector('[data-testid=head]')?.textContent === '${stored.events}' && document.querySelector('[data-testid=table]') && s && !s.disabled && ${HISTORY_IN} && performance.getEntriesByName('viz:table')[0]) { const m = (n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN; r({ total: performance.now(), table: m('viz:table'), history: m('viz:history'), folded: m('viz:folded') }); } else requestAnimationFrame(f); }; f(); })`,
      ),
    );
  }
  const totals = loads.map((l) => l.total);

  // Seeks: set the scrubber to a random seq and wait until the table shows it.
  const seekTimes = await page.evaluate<number[]>(`(${SEEK_PROBE})(${SEEKS}, ${stored.events})`);
  // The same seeks' main-thread CPU time (CDP ThreadTime, style and layout included, up to the next
  // frame): what a seek costs the page, which the shared machine's load does not inflate as it
  // inflates wall time.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const threadTime = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')!.value * 1000;
  const seekCpu: number[] = [];
  let x = 4242;
  for (let i = 0; i < Math.min(SEEKS, 100); i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const before = await threadTime();
    await page.evaluate<number>(`(${SEEK_ONE})(${x % (stored.events + 1)})`);
    seekCpu.push((await threadTime()) - before);
  }

  // Live: a game paced to ≈ 20 events/s (50 ms between steps), followed for LIVE_S seconds; rAF intervals meanwhile.
  const liveId = await createGame(server, { agents: ['balanced', 'aggressor', 'manipulator', 'trickster'], pace_ms: 50 });
  await page.goto(`${server.url}/watch/games/${liveId}`);
  await page.getByTestId('connection').filter({ hasText: /^live$/ }).waitFor({ timeout: 30_000 });
  const liveCdp = await page.context().newCDPSession(page);
  await liveCdp.send('Performance.enable');
  const liveThread = async () => (await liveCdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')!.value * 1000;
  const cpu0 = await liveThread();
  const live = await page.evaluate<{ intervals: number[]; events: number; long_tasks: number }>(`(${LIVE_PROBE})(${LIVE_S})`);
  const liveCpuMs = (await liveThread()) - cpu0;

  const record = await api<{ last_seq: number }>(server, `/games/${liveId}`, ADMIN);
  console.log(
    JSON.stringify(
      {
        bench: 'visualizer',
        bundle: { ...size, js_gzip_kb: Math.round(size.js_gzip_bytes / 102.4) / 10, initial_js_gzip_kb: Math.round(size.initial_js_gzip_bytes / 102.4) / 10, target_kb: 150 },
        page_1000_events: {
          game_id: thousand.id,
          seed: thousand.seed,
          events: thousand.events,
          transferred_bytes: { runs: transfers.map((x) => x.bytes), median: pct(transfers.map((x) => x.bytes), 50), by_type: transfers[0]!.by_type, target: 250 * 1024 },
          content_encodings: transfers[0]!.encodings,
          first_table_paint_ms: { runs: transfers.map((x) => Math.round(x.table_ms)), median: pct(transfers.map((x) => x.table_ms), 50), target: 1000 },
          ready_ms: { runs: transfers.map((x) => Math.round(x.ready_ms)), median: pct(transfers.map((x) => x.ready_ms), 50) },
        },
        stored_game: { game_id: stored.id, seed: stored.seed, events: stored.events, rules: LONG_RULES, verified: { events_checked: verify.events_checked, assertions: verify.assertions.length } },
        load_to_interactive_ms: {
          runs: totals.map((x) => Math.round(x)),
          median: pct(totals, 50),
          max: Math.round(Math.max(...totals)),
          first_table_paint: { runs: loads.map((l) => Math.round(l.table)), median: pct(loads.map((l) => l.table), 50), target: 500 },
          history_fetched_median: pct(loads.map((l) => l.history), 50),
          folded_median: pct(loads.map((l) => l.folded), 50),
          target: 1000,
        },
        seek_ms: { n: seekTimes.length, p50: pct(seekTimes, 50), p95: pct(seekTimes, 95), max: pct(seekTimes, 100), target_p95: 50 },
        seek_main_thread_cpu_ms: { n: seekCpu.length, p50: pct(seekCpu, 50), p95: pct(seekCpu, 95), max: pct(seekCpu, 100) },
        live: {
          seconds: LIVE_S,
          events: live.events,
          events_per_s: Math.round((live.events / LIVE_S) * 10) / 10,
          frame_interval_ms: { p50: pct(live.intervals, 50), p95: pct(live.intervals, 95), max: pct(live.intervals, 100) },
          frames_over_17ms: live.intervals.filter((x) => x > 17.5).length,
          frames: live.intervals.length,
          long_tasks: live.long_tasks,
          main_thread_cpu_ms_per_frame: Math.round((liveCpuMs / Math.max(1, live.intervals.length)) * 100) / 100,
          main_thread_busy_share: Math.round((liveCpuMs / (LIVE_S * 1000)) * 1000) / 1000,
          game_last_seq: record.last_seq,
        },
        console_errors: browser.errors,
        load_average: loadavg().map((x) => Math.round(x * 100) / 100),
      },
      null,
      2,
    ),
  );
} finally {
  await browser.close();
  await server.stop();
}
