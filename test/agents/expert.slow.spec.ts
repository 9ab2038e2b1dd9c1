/**
 * The expert built-in: deterministic from its seed, within its step budget, and blind to hidden
 * state (two worlds that look the same from its seat get the same answer).
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/agents/builtin/index.js';
import { candidatesAt, expertAgent, expertOptions, MAX_BUDGET, type SearchStats } from '../../src/agents/builtin/expert/expert.js';
import { heuristicAgent } from '../../src/agents/builtin/heuristics/policy.js';
import { BASE_PERSONALITY } from '../../src/agents/builtin/heuristics/personality.js';
import { awaiting, initialState, requestFor, stepInPlace, type GameState } from '../../src/game/index.js';

/** Balanced seats play game `seed` until plr_1 is asked for its first action at `turn`. */
function stateAtAction(seed: number, turn: number, windows: 'full' | 'compact' = 'full'): GameState {
  const state = initialState({ seats: 4, rules: { windows } }, seed);
  const agents = [0, 1, 2, 3].map((i) => createAgent('balanced', seed, i));
  stepInPlace(state, { type: 'start' });
  for (let next = awaiting(state); next; next = awaiting(state)) {
    const seat = next.seats[0]!;
    if (seat === 'plr_1' && next.window === 'action' && state.turn >= turn) return state;
    const res = stepInPlace(state, { type: 'decision', player_id: seat, window: next.window, decision: agents[Number(seat.slice(4)) - 1]!.decide(requestFor(state, seat)) });
    if (!res.ok) throw new Error(res.rejection.message);
  }
  throw new Error('the game ended first');
}

const small = expertOptions('expert', 600);

describe('expert', () => {
  const state = stateAtAction(31, 3);
  const request = requestFor(state, 'plr_1');

  it('given the same seed and request, when asked twice (fresh agents), then the same answer; and it spends at most its budget', { timeout: 120_000 }, () => {
    const seen: SearchStats[] = [];
    const a = expertAgent(small, (s) => seen.push(s))('seed-a').decide(request);
    const b = expertAgent(small, (s) => seen.push(s))('seed-a').decide(request);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(seen).toHaveLength(2);
    for (const s of seen) {
      expect(s.steps).toBeLessThanOrEqual(small.budget);
      expect(s.determinizations).toBeGreaterThan(1);
      expect(s.candidates).toBeGreaterThan(1);
    }
    // Its answer is one the engine accepts.
    expect(stepInPlace(structuredClone(state), { type: 'decision', player_id: 'plr_1', window: 'action', decision: a }).ok).toBe(true);
  });

  it('given a world whose hidden parts differ (opponents’ hands and the deck swapped) but which looks the same from its seat, then the same answer', { timeout: 120_000 }, () => {
    const other = structuredClone(state);
    const p2 = other.players[1]!;
    const swapped = p2.hand.splice(0, p2.hand.length, ...other.deck.splice(0, p2.hand.length));
    other.deck.unshift(...swapped);
    other.rng = { ...other.rng, s0: other.rng.s0 / 2 };
    const request2 = requestFor(other, 'plr_1');
    expect(JSON.stringify(request2)).toBe(JSON.stringify(request));
    expect(JSON.stringify(expertAgent(small)('seed-b').decide(request2))).toBe(JSON.stringify(expertAgent(small)('seed-b').decide(request)));
  });

  it('given a compact window, then it searches its own candidates (not its core’s answer alone), the same twice, within budget, and the engine accepts the answer', { timeout: 120_000 }, () => {
    const compact = stateAtAction(31, 3, 'compact');
    const r = requestFor(compact, 'plr_1');
    expect(r.constraints.compact).toBe(true);
    const seen: SearchStats[] = [];
    const a = expertAgent(small, (s) => seen.push(s))('seed-d').decide(r);
    const b = expertAgent(small, (s) => seen.push(s))('seed-d').decide(r);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(seen).toHaveLength(2);
    expect(seen[0]!.candidates).toBeGreaterThan(2);
    expect(seen[0]!.determinizations).toBeGreaterThan(1);
    expect(seen[0]!.steps).toBeLessThanOrEqual(small.budget);
    const s = structuredClone(compact);
    const res = stepInPlace(s, { type: 'decision', player_id: 'plr_1', window: 'action', decision: a });
    expect(res.ok).toBe(true);
    expect(res.ok && res.events.some((e) => e.type === 'action_rejected')).toBe(false);
  });

  it('given a width, then the candidates are the styles’ distinct choices, then the core’s other options until there are width of them', () => {
    const core = heuristicAgent(BASE_PERSONALITY)('seed-w');
    const own = core.decide(request);
    const wide = core.options(request);
    const key = (c: unknown) => JSON.stringify((c as { selected_action: unknown }).selected_action);
    const styles = candidatesAt(request, own, 'seed-w', 1, [], 0);
    const distinct = new Set([...styles, ...wide].map(key)).size;
    expect(wide.length).toBeGreaterThan(styles.length);
    for (const width of [0, 2, styles.length, styles.length + 1, 8, 16]) {
      const got = candidatesAt(request, own, 'seed-w', 1, wide, width);
      expect(got.length).toBe(Math.max(styles.length, Math.min(width, distinct)));
      expect(got.slice(0, styles.length).map(key)).toEqual(styles.map(key));
      expect(new Set(got.map(key)).size).toBe(got.length);
    }
  });

  it(`given the cap of ${MAX_BUDGET} steps, then a larger budget is clamped to it`, () => {
    const seen: SearchStats[] = [];
    expertAgent({ name: 'expert', budget: 1e9, horizon: 0, width: 4 }, (s) => seen.push(s))('seed-c').decide(request);
    expect(seen[0]!.steps).toBeLessThanOrEqual(MAX_BUDGET);
    expect(seen[0]!.steps).toBeGreaterThan(MAX_BUDGET / 2);
  }, 300_000);
});
