import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GameState } from '../../src/game/index.js';
import { awaiting, cardDef, decide, initialState, requestFor, stepInPlace } from '../../src/game/index.js';
import { drive, rand } from '../support/drivers.js';
import { deadSeatWatcher, stateViolations } from '../support/invariants.js';

/** Small games keep 200 runs fast: 2–6 seats, 4–8 rounds, both window styles. */
const smallGame = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  seats: fc.integer({ min: 2, max: 6 }),
  round_cap: fc.integer({ min: 4, max: 8 }),
  compact: fc.boolean(),
  reflect_window: fc.boolean(),
  driver: fc.integer(),
});

const start = (g: { seed: number; seats: number; round_cap: number; compact: boolean; reflect_window: boolean }): GameState => {
  const state = initialState({ seats: g.seats, rules: { round_cap: g.round_cap, windows: g.compact ? 'compact' : 'full', reflect_window: g.reflect_window } }, g.seed);
  const r = stepInPlace(state, { type: 'start' });
  if (!r.ok) throw new Error(r.rejection.code);
  return state;
};

describe('robustness: any input is a value (events or a rejection), never an exception, and the invariants hold', () => {
  it('given a mix of legal, illegal and arbitrary inputs at every window, then every step answers and every invariant holds after it', () => {
    fc.assert(
      fc.property(smallGame, fc.array(fc.oneof(fc.jsonValue(), fc.anything()), { maxLength: 12 }), (g, junk) => {
        const state = start(g);
        const dead = deadSeatWatcher();
        const problems: string[] = [];
        drive(state, {
          r: rand(g.driver),
          illegal: 0.35,
          junk,
          onStep: (input, result) => {
            if (!result.ok) {
              expect(result.rejection.code).toMatch(/^[a-z_]+\/[a-z_]+$/);
              return;
            }
            problems.push(...stateViolations(state), ...dead(result.events));
            const next = awaiting(state);
            if (next) for (const seat of next.seats) requestFor(state, seat); // building a request never throws either
            if (problems.length) throw new Error(`after ${JSON.stringify(input)?.slice(0, 300)}: ${problems.join('; ')}`);
          },
        });
        expect(state.status).toBe('done');
        // a finished game accepts nothing
        for (const input of [{ type: 'start' }, { type: 'decision', player_id: 'plr_1', window: 'action', decision: { selected_action: { kind: 'pass' } } }, ...junk.slice(0, 3)]) {
          const r = stepInPlace(state, input);
          expect(r.ok).toBe(false);
          if (!r.ok) expect(['game/over', 'input/malformed']).toContain(r.rejection.code);
        }
        const wellFormed = stepInPlace(state, { type: 'decision', player_id: 'plr_1', window: 'intent', decision: {} });
        expect(wellFormed.ok || wellFormed.rejection.code).toBe('game/over');
      }),
      { numRuns: 200 },
    );
  });

  it('given arbitrary values as the whole engine input, then each is refused as input/malformed or answered, and nothing throws', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.array(fc.anything(), { minLength: 1, maxLength: 20 }), (seed, inputs) => {
        const state = start({ seed, seats: 3, round_cap: 4, compact: false, reflect_window: true });
        for (const input of inputs) {
          const before = JSON.stringify(state);
          const r = stepInPlace(state, input);
          if (!r.ok) expect(JSON.stringify(state)).toBe(before);
        }
        expect(stateViolations(state)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('everything a request lists as legal is accepted', () => {
  it('given full windows and answers built only from requestFor (legal_actions, targets, intents, channels), then no answer is ever rejected', () => {
    fc.assert(
      fc.property(smallGame, (g) => {
        const state = start({ ...g, compact: false });
        drive(state, {
          r: rand(g.driver),
          onStep: (input, result) => {
            if (!result.ok) throw new Error(`refused: ${result.rejection.code}`);
            const rejected = result.events.find((e) => e.type === 'action_rejected');
            if (rejected?.type === 'action_rejected') throw new Error(`${rejected.payload.code} (${rejected.payload.message}) for ${JSON.stringify(input).slice(0, 400)}`);
          },
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('an attack without an AttackPlan is always rejected with action/missing_attack_plan', () => {
  it('given action windows of random games, when the seat attacks an alive opponent with an attack card it can pay for (or springs a trap) but no plan, then action/missing_attack_plan', () => {
    let total = 0;
    fc.assert(
      fc.property(smallGame, fc.integer(), (g, pickSeed) => {
        const state = start(g);
        const pick = rand(pickSeed);
        let checked = 0;
        drive(state, {
          r: rand(g.driver),
          illegal: 0.1,
          onStep: () => {
            const next = awaiting(state);
            if (!next || next.window !== 'action' || checked >= 4 || !pick.chance(0.3)) return;
            const seat = next.seats[0]!;
            const me = state.players.find((p) => p.player_id === seat)!;
            const opponents = state.players.filter((p) => p.alive && p.player_id !== seat).map((p) => p.player_id);
            const plays = me.hand.filter((c) => cardDef(state.cards[c] ?? '').attack && cardDef(state.cards[c] ?? '').tempo <= me.tempo).map((c) => ['play_card', c] as const);
            const springs = me.tempo < state.rules.activate.cost ? [] : state.arena
              .filter((a) => a.owner === seat && cardDef(state.cards[a.card_id] ?? '').type === 'trap' && !state.stack.some((e) => e.card_id === a.card_id))
              .map((a) => ['activate', a.card_id] as const);
            const options = [...plays, ...springs];
            if (!options.length) return;
            const [kind, card] = pick.pick(options);
            const target = pick.pick(opponents);
            const decision = { selected_action: { kind, payload: { card_id: card, target_player_id: target, named_player_id: opponents.find((o) => o !== target) ?? null } } };
            const r = decide(state, { type: 'decision', player_id: seat, window: 'action', decision });
            if (!r.ok) throw new Error(`refused: ${r.rejection.code}`);
            const rejected = r.events.find((e) => e.type === 'action_rejected');
            expect(rejected?.type === 'action_rejected' && rejected.payload.code).toBe('action/missing_attack_plan');
            expect(r.events.some((e) => e.type === 'action_submitted' && e.payload.kind !== 'pass')).toBe(false);
            checked++;
            total++;
          },
        });
      }),
      { numRuns: 200 },
    );
    expect(total).toBeGreaterThan(200); // the property really was exercised
  });
});
