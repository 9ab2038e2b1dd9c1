import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { initialState, stepInPlace, viewEvent, viewState, type GameState, type Viewer } from '../../src/game/index.js';
import { clonePlain } from '../../src/game/clone.js';
import { winChances } from '../../src/eval/model.js';
import { winCurve } from '../../src/eval/curve.js';
import { drive, rand } from '../support/drivers.js';

const SPECTATOR: Viewer = { role: 'spectator' };
const ADMIN: Viewer = { role: 'admin' };

const game = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  seats: fc.integer({ min: 3, max: 6 }),
  round_cap: fc.integer({ min: 3, max: 8 }),
  driver: fc.integer(),
  stop: fc.double({ min: 0, max: 1, noNaN: true }),
});

/** Plays a random legal game, keeping every event and the state after a random share of its steps. */
type Game = { seed: number; seats: number; round_cap: number; driver: number; stop: number };
function play(g: Game) {
  const state = initialState({ seats: g.seats, rules: { round_cap: g.round_cap } }, g.seed);
  const events: GameEvent[] = [];
  let ts = 0;
  const clock = () => new Date(Date.UTC(2026, 0, 1) + ts++ * 1000).toISOString();
  const start = stepInPlace(state, { type: 'start', ts: clock() });
  if (!start.ok) throw new Error('start refused');
  events.push(...start.events);
  let middle: GameState | null = null;
  let steps = 0;
  const total: number[] = [];
  drive(clonePlain(state), { r: rand(g.driver), clock, onStep: () => total.push(1) });
  const at = Math.floor(g.stop * total.length);
  drive(state, {
    r: rand(g.driver),
    clock,
    onStep: (_input, res) => {
      if (res.ok) events.push(...res.events);
      if (++steps === at) middle = clonePlain(state);
    },
  });
  return { end: state, middle: middle ?? clonePlain(state), events };
}

/**
 * What a spectator cannot see, changed: every hand dealt again from the same cards (hands and the
 * deck swapped where counts allow), every secret plan, the PRNG, and the feelings of seats whose
 * tell shows nothing. The public view must come out the same (checked), and so must the chances.
 */
function hideDifferently(s: GameState, r: ReturnType<typeof rand>): GameState {
  const t = clonePlain(s);
  const pool = [...t.deck, ...t.players.flatMap((p) => p.hand)];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  for (const p of t.players) p.hand = pool.splice(0, p.hand.length);
  t.deck = pool;
  for (const p of t.players) {
    p.secret_plan = { tactical_intent: 'build', emotional_intent: null };
    const before = viewState(t, SPECTATOR).world.players.find((x) => x.player_id === p.player_id)!.tell;
    const saved = p.emotions;
    p.emotions = { ...p.emotions, tilt: -p.emotions.tilt, confidence: 1 - p.emotions.confidence, fear: 0.9 };
    const after = viewState(t, SPECTATOR).world.players.find((x) => x.player_id === p.player_id)!.tell;
    if (JSON.stringify(before) !== JSON.stringify(after)) p.emotions = saved;
  }
  t.rng = { ...t.rng, s: [1, 2, 3, 4] } as GameState['rng'];
  return t;
}

describe('win probability', () => {
  it('given two states that differ only in what the public view hides, then the public chances are equal (and the omniscient ones may not be)', () => {
    let omniscientMoved = 0;
    fc.assert(
      fc.property(game, (g) => {
        const { middle } = play(g);
        const other = hideDifferently(middle, rand(g.driver ^ 0x5bd1e995));
        const a = viewState(middle, SPECTATOR);
        const b = viewState(other, SPECTATOR);
        expect(b.world).toEqual(a.world);
        expect(winChances(b, 'public')).toEqual(winChances(a, 'public'));
        const oa = winChances(viewState(middle, ADMIN), 'omniscient');
        const ob = winChances(viewState(other, ADMIN), 'omniscient');
        if (Object.keys(oa).some((id) => Math.abs(oa[id]! - ob[id]!) > 1e-9)) omniscientMoved++;
      }),
      { numRuns: 60 },
    );
    // The control: hidden changes do reach the model that is allowed to see them.
    expect(omniscientMoved).toBeGreaterThan(0);
  });

  it('given random games, then every point of every curve sums to 1 within 1e-9, an ended game gives its winner 1, and the curve is the same when computed again', () => {
    fc.assert(
      fc.property(game, (g) => {
        const { end, events } = play(g);
        const empty = viewState(initialState({ seats: g.seats, rules: { round_cap: g.round_cap } }, g.seed), SPECTATOR);
        for (const viewer of [SPECTATOR, ADMIN]) {
          const projected = events.map((e) => viewEvent(e, viewer, true));
          const base = { seq: 0, view: viewer.role === 'admin' ? viewState(initialState({ seats: g.seats, rules: { round_cap: g.round_cap } }, g.seed), ADMIN) : empty };
          const curve = winCurve(base, projected, viewer, true);
          expect(curve.form).toBe(viewer.role === 'admin' ? 'omniscient' : 'public');
          for (const pt of curve.points) {
            const sum = Object.values(pt.p).reduce((x, y) => x + y, 0);
            expect(Math.abs(sum - 1)).toBeLessThan(1e-9);
          }
          const ended = events.find((e) => e.type === 'game_ended');
          if (ended) {
            const last = curve.points.at(-1)!;
            expect(last.seq).toBe(ended.seq);
            const winners = (ended.payload as { placements: { player_id: string; placement: number }[] }).placements.filter((x) => x.placement === 1);
            for (const w of winners) expect(last.p[w.player_id]).toBeCloseTo(1 / winners.length, 9);
            if (winners.length === 1) expect(last.p[winners[0]!.player_id]).toBe(1);
          }
          expect(winCurve(base, projected, viewer, true)).toEqual(curve);
        }
        expect(end.status).toBe('done');
      }),
      { numRuns: 25 },
    );
  });
});
