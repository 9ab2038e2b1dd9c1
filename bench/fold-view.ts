/**
 * The shared view reducer's cost over a long game: fold throughput (events/s) from the start, and
 * the cost of seeking with folded checkpoints (ViewTimeline, one every 50 events) to random seqs
 * of a 2,000-event game, per viewer. One JSON line per viewer, plus one for the game.
 *
 *   npm run bench:fold-view
 *   BENCH_SEEKS=1000 npm run bench:fold-view
 */
import { performance } from 'node:perf_hooks';
import type { GameEvent } from '../src/protocol/index.js';
import { initialState, stepInPlace, viewEvent, viewState, type Viewer } from '../src/game/index.js';
import { applyEvent } from '../src/game/evolve.js';
import { drive, rand } from '../test/support/drivers.js';
import { foldEvents, stateHash, ViewTimeline } from '../src/view/index.js';

const EVENTS = 2000;
const EVERY = 50;
const SEEKS = Number(process.env['BENCH_SEEKS'] ?? 400);

/** The first seeded 6-seat game (random legal decisions, as the property tests play) that reaches EVENTS events, cut there. */
function longGame(): { events: GameEvent[]; config: Parameters<typeof initialState>[0]; seed: number } {
  // Attrition off and more lives: long enough games without changing how a round plays.
  const config = { seats: 6, rules: { round_cap: 60, lives: 6, attrition: { from_round: 61, loss: 1, step_every: 1 } } };
  for (let seed = 1; seed < 200; seed++) {
    const state = initialState(config, seed);
    const started = stepInPlace(state, { type: 'start' });
    if (!started.ok) throw new Error(started.rejection.code);
    const events = [...started.events];
    drive(state, { r: rand(seed), onStep: (_, r) => r.ok && events.push(...r.events) });
    if (events.length >= EVENTS) return { events: events.slice(0, EVENTS), config, seed };
  }
  throw new Error(`no game of ${EVENTS} events in 200 seeds`);
}

/** A seeded stream of seqs (mulberry32), so every run seeks to the same points. */
function seqs(n: number, max: number): number[] {
  let a = 12345;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out.push(Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (max + 1)));
  }
  return out;
}

const pct = (xs: number[], p: number) => xs.slice().sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function main(): Promise<void> {
  const { events, config, seed } = longGame();
  console.log(JSON.stringify({ bench: 'fold-view', game: { seed, seats: 6, events: events.length, rounds: events.at(-1)!.turn }, checkpoint_every: EVERY, seeks: SEEKS }));
  // Every view starts after the deal (seq 1): a seat has no view of the undealt table.
  const start = initialState(config, seed);
  applyEvent(start, structuredClone(events[0]!));
  const viewers: Viewer[] = [{ role: 'spectator' }, { role: 'seat', player_id: 'plr_1' }, { role: 'researcher' }, { role: 'admin' }];
  for (const viewer of viewers) {
    const projected = events.slice(1).map((e) => viewEvent(e, viewer));
    const base = structuredClone(viewState(start, viewer));
    foldEvents(base, projected, viewer); // warm-up
    const t0 = performance.now();
    const rounds = viewer.role === 'admin' ? 1 : 3;
    for (let i = 0; i < rounds; i++) foldEvents(base, projected, viewer);
    const foldMs = (performance.now() - t0) / rounds;

    const t = new ViewTimeline({ viewer, every: EVERY, base: { seq: 1, view: base } });
    const t1 = performance.now();
    for (const e of projected) t.append(e);
    const loadMs = performance.now() - t1;
    const times: number[] = [];
    const folds: number[] = [];
    for (const seq of seqs(SEEKS, events.length - 1).map((x) => x + 1)) {
      const f = t.folds;
      const s = performance.now();
      t.seekTo(seq);
      times.push(performance.now() - s);
      folds.push(t.folds - f);
    }
    const h = performance.now();
    await stateHash(t.view);
    const hashMs = performance.now() - h;
    console.log(
      JSON.stringify({
        viewer: viewer.role === 'seat' ? viewer.player_id : viewer.role,
        fold_events_per_s: Math.round((events.length / foldMs) * 1000),
        fold_all_ms: r3(foldMs),
        timeline_load_ms: r3(loadMs),
        seek_ms_p50: r3(pct(times, 50)),
        seek_ms_p95: r3(pct(times, 95)),
        seek_ms_max: r3(Math.max(...times)),
        seek_folds_max: Math.max(...folds),
        seek_folds_mean: r3(folds.reduce((x, y) => x + y, 0) / folds.length),
        state_hash_ms: r3(hashMs),
      }),
    );
  }
}

await main();
