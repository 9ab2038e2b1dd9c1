import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WINDOWS } from '../../src/protocol/index.js';
import { EngineInput, wellFormedDecision } from '../../src/game/engine.js';

/** Near misses of a decision envelope: each field valid, wrong, or missing. */
const envelope = fc.record(
  {
    type: fc.constantFrom('decision', 'start', 'Decision', 1),
    player_id: fc.oneof(fc.constantFrom('plr_1', 'plr_12', 'plr_', 'plr_a b', 'x_1', `plr_${'a'.repeat(64)}`, `plr_${'a'.repeat(65)}`), fc.string()),
    window: fc.oneof(fc.constantFrom(...WINDOWS, 'Action', ''), fc.string()),
    decision: fc.anything(),
    ts: fc.oneof(
      fc.constantFrom('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-01-01T00:00:00+01:00', '2026-01-01 00:00:00Z', '2026-01-01T24:00:00Z', ''),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.string(),
      fc.integer(),
    ),
  },
  { requiredKeys: ['decision'] },
);

describe('engine input: the decision fast path accepts only what EngineInput accepts, with the same fields', () => {
  it('given near-miss envelopes and arbitrary values, when the fast path accepts one, then EngineInput parses it to the same type, seat, window, answer and timestamp', () => {
    fc.assert(
      fc.property(fc.oneof(envelope, fc.anything()), (input) => {
        const quick = wellFormedDecision(input);
        if (!quick) return;
        const parsed = EngineInput.safeParse(input);
        expect(parsed.success).toBe(true);
        if (!parsed.success || parsed.data.type !== 'decision') throw new Error('not a decision');
        const { type, player_id, window, decision, ts } = parsed.data;
        expect({ type: quick.type, player_id: quick.player_id, window: quick.window, ts: quick.ts }).toEqual({ type, player_id, window, ts });
        expect(Object.is(quick.decision, decision)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('given well-formed runner envelopes, then the fast path takes them (the hot path is the fast one)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...WINDOWS), fc.integer({ min: 1, max: 6 }), fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 0)), noInvalidDate: true }), (window, seat, d) => {
        const input = { type: 'decision', player_id: `plr_${seat}`, window, decision: { x: 1 }, ts: d.toISOString() };
        expect(wellFormedDecision(input)).toBe(input);
        expect(EngineInput.safeParse(input).success).toBe(true);
      }),
    );
  });
});
