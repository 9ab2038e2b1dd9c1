import { describe, expect, it } from 'vitest';
import type { Window } from '../../src/protocol/index.js';
import { initialState, viewState } from '../../src/game/index.js';
import { runGame } from '../../src/runner/run-game.js';
import { buildAgents, seatConfigs } from '../../src/runner/lineup.js';
import { winCurve } from '../../src/eval/curve.js';
import { CHANCE_EVENTS, CHOICE_KINDS, gameWpa } from '../../src/eval/wpa.js';

const LINEUP = ['balanced', 'random', 'aggressor', 'random'];

function play(seed: number, compact = false) {
  const config = { seats: seatConfigs(LINEUP), rules: compact ? { windows: 'compact' as const } : {} };
  const run = runGame(config, seed, buildAgents(LINEUP, seed));
  const asks = run.decisions.map((d) => ({ seq: d.seq, player_id: d.player_id, window: d.window as Window }));
  return { config, run, asks };
}

describe('win probability added', () => {
  for (const compact of [false, true])
    it(`given a finished ${compact ? 'compact' : 'full'} game, then each seat's choice + opponents' choices + chance + rules deltas add up to its change from the first point to the last, the winner ending on 1`, () => {
      const { run, asks } = play(11, compact);
      const w = gameWpa(run.events, asks);
      expect(run.state.status).toBe('done');
      for (const [id, s] of Object.entries(w.seats)) {
        expect(Math.abs(s.choice_sum + s.opponents_sum + s.chance_sum + s.rules_sum - (s.last - s.first))).toBeLessThan(1e-9);
        expect(s.first).toBeGreaterThan(0);
        expect(s.first).toBeLessThan(1);
        // Choices do move chances (the test would pass vacuously on a flat curve).
        expect(w.choices.filter((c) => c.player_id === id).some((c) => Math.abs(c.wpa) > 1e-6)).toBe(true);
      }
      const lasts = Object.values(w.seats).map((s) => s.last);
      expect(lasts.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      expect(Math.max(...lasts)).toBeGreaterThan(0.49);
    });

  it('given the engine asks, then every accepted ask is one decision whose WPA sums its choice events, and the seat figures sum the decisions', () => {
    const { run, asks } = play(12);
    const w = gameWpa(run.events, asks);
    expect(w.decisions.length).toBe(new Set(asks.map((a) => `${a.seq}|${a.player_id}`)).size);
    for (const [id, s] of Object.entries(w.seats)) {
      const mine = w.decisions.filter((d) => d.player_id === id);
      expect(s.decisions).toBe(mine.length);
      expect(Math.abs(mine.reduce((a, d) => a + d.wpa, 0) - s.choice_sum)).toBeLessThan(1e-9);
      expect(Math.abs(s.choice_mean! - s.choice_sum / s.decisions)).toBeLessThan(1e-12);
    }
    expect(new Set(w.decisions.map((d) => d.window))).toEqual(new Set(['intent', 'talk', 'action', 'reaction', 'reflect']));
  });

  it('given no asks, then decisions come from the events alone with the same totals (a talk is its speeches and its finish)', () => {
    const { run, asks } = play(13);
    const a = gameWpa(run.events, asks);
    const b = gameWpa(run.events);
    expect(b.seats).toEqual(a.seats);
    expect(b.decisions.map((d) => [d.seq, d.player_id, d.window])).toEqual(a.decisions.map((d) => [d.seq, d.player_id, d.window]));
  });

  it('given a finished game, then a choice moves its actor as the omniscient curve does at that event, and a chance event moves every seat by its curve step', () => {
    const { config, run } = play(14);
    const w = gameWpa(run.events);
    const viewer = { role: 'researcher' } as const;
    const curve = winCurve({ seq: 0, view: viewState(initialState(config, 14), viewer, true) }, run.events, viewer, true);
    expect(curve.form).toBe('omniscient');
    const at = new Map(curve.points.map((pt, i) => [pt.seq, { after: pt.p, before: curve.points[i - 1]?.p }]));
    for (const c of w.choices) {
      const pt = at.get(c.seq)!;
      expect(Math.abs(pt.after[c.player_id]! - pt.before![c.player_id]! - c.wpa)).toBeLessThan(3e-6);
      expect(c.type in CHOICE_KINDS).toBe(true);
    }
    expect(w.chances.length).toBeGreaterThan(0);
    for (const c of w.chances) {
      expect(CHANCE_EVENTS.has(c.type)).toBe(true);
      const pt = at.get(c.seq)!;
      for (const [id, d] of Object.entries(c.delta)) expect(Math.abs(pt.after[id]! - pt.before![id]! - d)).toBeLessThan(3e-6);
      expect(Math.abs(Object.values(c.delta).reduce((x, y) => x + y, 0))).toBeLessThan(1e-9);
    }
  });

  it('given the same log twice, then the figures are the same', () => {
    const { run, asks } = play(15);
    expect(gameWpa(run.events, asks)).toEqual(gameWpa(run.events, asks));
  });
});
