import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import type { GameState, Viewer } from '../../src/game/index.js';
import { awaiting, initialState, requestFor, stepInPlace, viewEvent, viewState } from '../../src/game/index.js';
import { applyEvent } from '../../src/game/evolve.js';
import { drive, rand } from '../support/drivers.js';
import { futureLeaks, leaks } from '../support/leaks.js';

const BROADCAST: Viewer = { role: 'broadcast' };

const game = fc.record({
  seed: fc.integer({ min: 100_000, max: 2 ** 31 - 1 }), // ≥ 6 digits, so a leaked seed is findable as text
  seats: fc.integer({ min: 2, max: 6 }),
  round_cap: fc.integer({ min: 3, max: 6 }),
  compact: fc.boolean(),
  driver: fc.integer(),
});

/**
 * Plays a random legal game (plans, attacks and private texts carry canaries) and checks every
 * projection a seat or a spectator can get: each event as viewEvent projects it (against the state
 * right after that event), each awaited seat's requestFor, and viewState for seats and spectators.
 */
describe('no leak: projections never carry another seat’s secrets', () => {
  it('given random games, then no seat view and no spectator view leaks hands, plans, private texts, labels, emotions, the PRNG, the seed or the card map', () => {
    let checkedEvents = 0;
    fc.assert(
      fc.property(game, (g) => {
        const config = { seats: g.seats, rules: { round_cap: g.round_cap, windows: g.compact ? ('compact' as const) : ('full' as const) } };
        const state = initialState(config, g.seed);
        const shadow: GameState = structuredClone(state);
        const seats = Array.from({ length: g.seats }, (_, i) => `plr_${i + 1}`);
        const viewers: { viewer: Viewer; seat: string | null }[] = [
          ...seats.map((id) => ({ viewer: { role: 'seat' as const, player_id: id }, seat: id })),
          { viewer: { role: 'spectator' as const }, seat: null },
          { viewer: { role: 'researcher' as const }, seat: null },
        ];
        let revealedThrough = 0;
        const problems: string[] = [];
        const onEvents = (events: readonly GameEvent[]) => {
          for (const e of events) {
            applyEvent(shadow, e);
            if (e.type === 'plans_revealed') revealedThrough = e.turn;
            for (const { viewer, seat } of viewers) {
              const found = leaks(viewEvent(e, viewer), { viewer: seat, state: shadow, revealedThrough });
              if (found.length) problems.push(`${viewer.role}:${seat ?? '-'} sees in ${e.type}#${e.seq}: ${found.join(', ')}`);
            }
            checkedEvents++;
          }
        };
        const onState = () => {
          const next = awaiting(state);
          for (const seat of next?.seats ?? []) {
            const found = leaks(requestFor(state, seat), { viewer: seat, state, revealedThrough });
            if (found.length) problems.push(`request of ${seat} (${next!.window}): ${found.join(', ')}`);
          }
          for (const { viewer, seat } of viewers) {
            const found = leaks(viewState(state, viewer), { viewer: seat, state, revealedThrough });
            if (found.length) problems.push(`state view of ${viewer.role}:${seat ?? '-'}: ${found.join(', ')}`);
          }
        };
        const started = stepInPlace(state, { type: 'start' });
        if (!started.ok) throw new Error(started.rejection.code);
        onEvents(started.events);
        onState();
        drive(state, {
          r: rand(g.driver),
          onStep: (_, r) => {
            if (!r.ok) return;
            onEvents(r.events);
            if (state.status !== 'done') onState(); // once over, researchers may see everything
            if (problems.length) throw new Error(problems.slice(0, 5).join('\n'));
          },
        });
      }),
      { numRuns: 200 },
    );
    expect(checkedEvents).toBeGreaterThan(10_000);
  });

  it('given random games, then the broadcast projection shows every seat but never the seed, the PRNG state, the deck order or the card map, in events or states', () => {
    let checked = 0;
    fc.assert(
      fc.property(game, (g) => {
        const config = { seats: g.seats, rules: { round_cap: g.round_cap, windows: g.compact ? ('compact' as const) : ('full' as const) } };
        const state = initialState(config, g.seed);
        const problems: string[] = [];
        let sawHands = false;
        const check = (what: string, value: unknown) => {
          const found = futureLeaks(value, state.seed);
          if (found.length) problems.push(`${what}: ${found.join(', ')}`);
          checked++;
        };
        const onEvents = (events: readonly GameEvent[]) => {
          for (const e of events) {
            const b = viewEvent(e, BROADCAST);
            check(`${e.type}#${e.seq}`, b);
            if (e.type === 'cards_drawn' && (b.payload as { card_refs?: unknown[] }).card_refs?.length) sawHands = true;
          }
          const v = viewState(state, BROADCAST);
          check(`state at ${state.seq}`, v);
          if (v.private.length !== state.players.length && state.status !== 'setup') problems.push(`state at ${state.seq}: ${v.private.length} private views of ${state.players.length} seats`);
        };
        const started = stepInPlace(state, { type: 'start' });
        if (!started.ok) throw new Error(started.rejection.code);
        onEvents(started.events);
        drive(state, { r: rand(g.driver), onStep: (_, r) => r.ok && onEvents(r.events) });
        if (!sawHands) problems.push('no hand was shown');
        if (problems.length) throw new Error(problems.slice(0, 5).join('\n'));
      }),
      { numRuns: 100 },
    );
    expect(checked).toBeGreaterThan(5_000);
  });

  it('the checker itself: the admin projection of the same kind of game is caught leaking every kind of secret', () => {
    const state = initialState({ seats: 3, rules: { round_cap: 3 } }, 4_242_424);
    const shadow: GameState = structuredClone(state);
    const kinds = new Set<string>();
    let revealedThrough = 0;
    const see = (events: readonly GameEvent[]) => {
      for (const e of events) {
        applyEvent(shadow, e);
        if (e.type === 'plans_revealed') revealedThrough = e.turn;
        for (const found of leaks(viewEvent(e, { role: 'admin' }), { viewer: 'plr_1', state: shadow, revealedThrough })) kinds.add(found.replace(/ (of|plr_|card_|PLAN|ATK|PRIV).*$/, ''));
      }
    };
    const started = stepInPlace(state, { type: 'start' });
    if (started.ok) see(started.events);
    drive(state, { r: rand(7), onStep: (_, r) => r.ok && see(r.events) });
    expect([...kinds]).toEqual(
      expect.arrayContaining(['hand card', 'unrevealed plan', 'private text', 'speech_act', 'commitment kind/outcome', 'emotions', 'trust', 'grievance', 'affective_effect', 'secret key rng', 'secret key deck', 'the seed', 'the card-id→name map']),
    );
  });
});
