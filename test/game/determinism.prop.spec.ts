import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { evolve, fold, initialState, stepInPlace } from '../../src/game/index.js';
import { StepContext } from '../../src/game/context.js';
import { drive, rand } from '../support/drivers.js';

const smallGame = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  seats: fc.integer({ min: 2, max: 6 }),
  round_cap: fc.integer({ min: 4, max: 8 }),
  compact: fc.boolean(),
  reflect_window: fc.boolean(),
  driver: fc.integer(),
  illegal: fc.constantFrom(0, 0.2),
});
type SmallGame = { seed: number; seats: number; round_cap: number; compact: boolean; reflect_window: boolean };

/**
 * The replay property clones and serialises the whole state at every event (~0.3 ms each), so its
 * games are smaller still: 2–4 seats, 3–6 rounds (every phase, window and card still occurs).
 */
const replayGame = smallGame.chain((g) =>
  fc.record({ seats: fc.integer({ min: 2, max: 4 }), round_cap: fc.integer({ min: 3, max: 6 }) }).map((small) => ({ ...g, ...small })),
);

const config = (g: SmallGame) => ({
  seats: g.seats,
  rules: { round_cap: g.round_cap, windows: g.compact ? ('compact' as const) : ('full' as const), reflect_window: g.reflect_window },
});

/** A logical clock, so inputs carry timestamps into the log as a real runner's would. */
const clock = () => {
  let t = Date.UTC(2026, 0, 1);
  return () => new Date(t++).toISOString();
};

/** Feeds recorded inputs to a fresh engine: the log it writes. */
function replayInputs(g: SmallGame, inputs: readonly unknown[]): GameEvent[] {
  const state = initialState(config(g), g.seed);
  const events: GameEvent[] = [];
  for (const input of [{ type: 'start', ts: '2026-01-01T00:00:00.000Z' }, ...inputs]) {
    const r = stepInPlace(state, input);
    if (r.ok) events.push(...r.events);
  }
  return events;
}

describe('determinism: same seed + same decisions ⇒ the same event log, byte for byte', () => {
  it('given a random game (legal, illegal and junk inputs), when its recorded inputs are replayed through a fresh engine, then the JSON logs are identical', () => {
    fc.assert(
      fc.property(smallGame, fc.array(fc.jsonValue(), { maxLength: 6 }), (g, junk) => {
        const state = initialState(config(g), g.seed);
        const first = stepInPlace(state, { type: 'start', ts: '2026-01-01T00:00:00.000Z' });
        if (!first.ok) throw new Error(first.rejection.code);
        const events: GameEvent[] = [...first.events];
        const inputs = drive(state, {
          r: rand(g.driver),
          illegal: g.illegal,
          junk,
          clock: clock(),
          onStep: (_, r) => {
            if (r.ok) events.push(...r.events);
          },
        });
        expect(JSON.stringify(replayInputs(g, structuredClone(inputs)))).toBe(JSON.stringify(events));
      }),
      { numRuns: 200 },
    );
  });

  it('given the same seed, then the same deal; given another seed, another deal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 2 }), (seed) => {
        const deal = (s: number) => {
          const st = initialState({ seats: 4 }, s);
          stepInPlace(st, { type: 'start' });
          return JSON.stringify([st.cards, st.deck, st.base_order]);
        };
        expect(deal(seed)).toBe(deal(seed));
        expect(deal(seed)).not.toBe(deal(seed + 1));
      }),
      { numRuns: 200 },
    );
  });
});

describe('replay: folding the log with evolve reproduces the live state after every event, PRNG included', () => {
  afterEach(() => vi.restoreAllMocks());

  it('given a random game, when its events are folded one by one from initialState, then each folded state equals the live state right after that event', () => {
    // Observe the live state at each emission (the engine applies every event the moment it emits
    // it). States are compared as JSON: both sides are built by the same code, so key order matches,
    // and it is several times faster than a structural deep-equal on ~20 kB states.
    const live: { event: string; state: string }[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method -- re-bound with apply below
    const emit = StepContext.prototype.emit;
    vi.spyOn(StepContext.prototype, 'emit').mockImplementation(function (this: StepContext, ...args: Parameters<typeof emit>) {
      const event = emit.apply(this, args);
      live.push({ event: JSON.stringify(event), state: JSON.stringify(this.state) });
      return event;
    });
    fc.assert(
      fc.property(replayGame, (g) => {
        live.length = 0;
        const state = initialState(config(g), g.seed);
        const initial = structuredClone(state);
        const logged: GameEvent[] = [];
        const started = stepInPlace(state, { type: 'start' });
        if (started.ok) logged.push(...started.events);
        drive(state, { r: rand(g.driver), illegal: g.illegal, onStep: (_, r) => r.ok && logged.push(...r.events) });
        // the log handed out is the log that was applied: no event changed after it was emitted
        expect(logged.map((e) => JSON.stringify(e))).toEqual(live.map((x) => x.event));
        let folded = initial;
        logged.forEach((event, i) => {
          folded = evolve(folded, event);
          const now = JSON.stringify(folded);
          if (now !== live[i]!.state) expect({ seq: event.seq, type: event.type, state: JSON.parse(now) as unknown }).toEqual({ seq: event.seq, type: event.type, state: JSON.parse(live[i]!.state) as unknown });
        });
        expect(isDeepStrictEqual(folded, state)).toBe(true); // the final states, structurally (PRNG included)
        expect(folded.rng).toEqual(state.rng);
        expect(fold(initial, logged)).toEqual(state);
      }),
      { numRuns: 200 },
    );
    expect(live.length).toBeGreaterThan(0);
  });

  it('evolve and fold are pure: the state they are given is left untouched', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (seed) => {
        const state = initialState({ seats: 3, rules: { round_cap: 4 } }, seed);
        const before = structuredClone(state);
        const r = stepInPlace(structuredClone(state), { type: 'start' });
        if (!r.ok) throw new Error(r.rejection.code);
        fold(state, r.events);
        evolve(state, r.events[0]!);
        expect(state).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });
});
