import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { initialState, stepInPlace, viewEvent } from '../../src/game/index.js';
import { narrate, type NarrationLine } from '../../src/view/index.js';
import { perspectives } from '../support/fold-check.js';
import { drive, rand } from '../support/drivers.js';

const game = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  seats: fc.integer({ min: 2, max: 6 }),
  round_cap: fc.integer({ min: 2, max: 6 }),
  compact: fc.boolean(),
  driver: fc.integer(),
  named: fc.boolean(),
});

/**
 * The broadcast projection (another module's): the admin's events without what reveals the future
 * or the engine's internals — the seed, the PRNG state, the deck and reshuffle order, the card map.
 */
function broadcast(e: GameEvent): GameEvent {
  const { rng: _rng, ...rest } = e;
  const { seed: _s, deck: _d, order: _o, cards, ...payload } = e.payload as Record<string, unknown>;
  // cards_discarded's `cards` is the public discard, not the secret id map.
  return { ...rest, payload: e.type === 'cards_discarded' ? { ...payload, cards } : payload } as GameEvent;
}

const text = (l: NarrationLine) => [l.text, ...l.details, l.key_moment?.title ?? ''].join('\n');
/** Our words only: the agents' own (speech, cover stories, expected shifts) are quoted “…” and may say anything. */
const ours = (l: NarrationLine) => text(l).replace(/“[^”]*”/g, '“…”');

function playedWithViews(g: { seed: number; seats: number; round_cap: number; compact: boolean; driver: number; named: boolean }) {
  const names = g.named ? ['aggressor', 'turtle', 'random', 'balanced', 'manipulator', 'expert'] : undefined;
  const seats = names ? names.slice(0, g.seats).map((display_name) => ({ display_name })) : g.seats;
  const live = initialState({ seats, rules: { round_cap: g.round_cap, windows: g.compact ? 'compact' : 'full' } }, g.seed);
  const started = stepInPlace(live, { type: 'start' });
  if (!started.ok) throw new Error(started.rejection.code);
  const events: GameEvent[] = [...started.events];
  drive(live, { r: rand(g.driver), onStep: (_, r) => r.ok && events.push(...r.events) });
  const views = perspectives(g.seats).map((p) => ({ name: p.name, events: events.map((e) => viewEvent(e, p.viewer, p.gameOver)) }));
  views.push({ name: 'broadcast', events: events.map(broadcast) });
  return { events, views };
}

describe('narrate: never throws, never prints a missing value, on any projection of any game', () => {
  it('given random seeded games and every projection (spectator, researcher, admin, broadcast, each seat), then every line is whole words', () => {
    let lines = 0;
    fc.assert(
      fc.property(game, (g) => {
        const { views } = playedWithViews(g);
        for (const v of views) {
          const story = narrate(v.events);
          for (const l of story.lines) {
            const t = ours(l);
            expect(t, `${v.name} seq ${l.seq}`).not.toMatch(/undefined|\[object|NaN|\bnull\b/);
            expect(t, `${v.name} seq ${l.seq}`).not.toMatch(/\bplr_\w+|\bcard_\w+|\bact_\w+/);
            expect(l.partial, `${v.name} seq ${l.seq}: ${t}`).toBeUndefined();
            expect(l.text.length).toBeGreaterThan(0);
          }
          lines += story.lines.length;
        }
      }),
      { numRuns: 40 },
    );
    expect(lines).toBeGreaterThan(10_000);
  });

  it('given events with random payload keys dropped (a projection the narrator does not know), then it still never throws nor prints undefined', () => {
    let partial = 0;
    fc.assert(
      fc.property(game, fc.integer(), (g, salt) => {
        const { views } = playedWithViews(g);
        const v = views[Math.abs(salt) % views.length]!;
        let k = salt >>> 0;
        const mangled = v.events.map((e) => {
          k = (Math.imul(k, 1_103_515_245) + 12_345) >>> 0;
          const keys = Object.keys(e.payload);
          if (keys.length === 0 || k % 3 !== 0) return e;
          const drop = keys[k % keys.length]!;
          const { [drop]: _gone, ...payload } = e.payload as Record<string, unknown>;
          return { ...e, payload } as GameEvent;
        });
        const story = narrate(mangled);
        for (const l of story.lines) expect(ours(l), `seq ${l.seq}`).not.toMatch(/undefined|\[object|NaN/);
        partial += story.lines.filter((l) => l.partial).length;
      }),
      { numRuns: 40 },
    );
    // The mangling did reach the narrator's fallback (not only keys it never reads).
    expect(partial).toBeGreaterThan(0);
  });
});
