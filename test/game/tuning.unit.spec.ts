/**
 * The shipped defaults where they were tuned away from the brief (docs/rules.md, "Balance and
 * tuning"), and the anti-stall attrition rule they added. The other unit tests pin the brief's
 * numbers (test/support/scenario.ts BRIEF_RULES).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../src/game/index.js';
import { eventsOf, newGame, nextRound, setSeat } from '../support/scenario.js';

describe('tuned defaults', () => {
  it('given the default rules, then base resistance is 0.45 and attrition starts at round 8, one more every 2 rounds; the rest is the brief', () => {
    expect(DEFAULT_RULES.damage_exposure_factor).toBe(0.1);
    expect(DEFAULT_RULES.contest.base_resistance).toBe(0.45);
    expect(DEFAULT_RULES.attrition).toEqual({ from_round: 8, loss: 1, step_every: 2 });
    expect(DEFAULT_RULES.resolve_drift).toBe(1);
  });
});

describe('attrition: from its round, no drift and every alive seat loses resolve at upkeep, one more every step_every rounds', () => {
  const upkeepLoss = (from: number, rounds: number) => {
    const state = newGame({ seats: 3, rules: { attrition: { from_round: from, loss: 1, step_every: 2 } } });
    const seen: Record<number, Record<string, number>> = {};
    for (let r = 0; r < rounds && state.status === 'running'; r++) {
      for (const p of state.players) setSeat(state, p.player_id, { resolve: 30 }); // never lose a life here
      const events = nextRound(state);
      for (const e of eventsOf(events, 'upkeep_applied')) seen[e.turn] = e.payload.resolve_delta;
    }
    return seen;
  };

  it('given attrition from round 3 stepping every 2, when rounds 2–6 begin, then −0 (drift), −1, −1, −2, −2', () => {
    const seen = upkeepLoss(3, 5);
    expect(seen[2]).toEqual({ plr_1: -1, plr_2: -1, plr_3: -1 }); // drift toward 12 from 30, before attrition
    expect(seen[3]).toEqual({ plr_1: -1, plr_2: -1, plr_3: -1 });
    expect(seen[4]).toEqual({ plr_1: -1, plr_2: -1, plr_3: -1 });
    expect(seen[5]).toEqual({ plr_1: -2, plr_2: -2, plr_3: -2 });
    expect(seen[6]).toEqual({ plr_1: -2, plr_2: -2, plr_3: -2 });
  });

  it('given a wounded seat under attrition, then it does not drift back up', () => {
    const state = newGame({ seats: 3, rules: { attrition: { from_round: 2, loss: 1, step_every: 4 } } });
    setSeat(state, 'plr_1', { resolve: 5 });
    const events = nextRound(state);
    expect(eventsOf(events, 'upkeep_applied')[0]!.payload.resolve_delta.plr_1).toBe(-1);
  });

  it('given default rules and passive seats, then the game still ends before the round cap', () => {
    const state = newGame({ seats: 4, rules: { attrition: { from_round: 8, loss: 1, step_every: 2 } } });
    for (let i = 0; i < 40 && state.status === 'running'; i++) nextRound(state);
    expect(state.status).toBe('done');
    expect(state.turn).toBeLessThan(30);
  });
});
