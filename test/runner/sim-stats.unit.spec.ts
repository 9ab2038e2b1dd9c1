import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { SimStats } from '../../src/runner/sim-stats.js';

/** Just the fields SimStats reads; the fold never looks at envelopes. */
const ev = (type: string, payload: Record<string, unknown>) => ({ type, payload }) as unknown as GameEvent;
const fear = (f: number) => ({ valence: 0, arousal: 0, dominance: 0, fear: f, anger: 0, shame: 0, confidence: 0.2, greed: 0, tilt: 0 });
const play = (player_id: string, card_id: string) => ev('action_submitted', { player_id, kind: 'play_card', action: { payload: { card_id } } });

const game = (): GameEvent[] => [
  ev('game_started', {
    cards: { card_001: 'Poker Face', card_002: 'Feint', card_003: 'Snare', card_004: 'Brace' },
    players: [
      { player_id: 'plr_1', seat: 0, baseline: fear(0.6) },
      { player_id: 'plr_2', seat: 1, baseline: fear(0) },
    ],
  }),
  play('plr_1', 'card_001'), // high fear, mask
  play('plr_1', 'card_002'), // high fear, gambit
  ev('reaction_submitted', { player_id: 'plr_1', card: { type: 'guard' } }), // high fear, guard
  ev('emotion_updated', { player_id: 'plr_1', emotions: fear(0.1) }),
  play('plr_1', 'card_003'), // low fear, trap (face down: no card ref, found through the cards map)
  play('plr_2', 'card_004'), // a random agent: counted in card shares, not in coupling
  ev('action_submitted', { player_id: 'plr_2', kind: 'pass' }),
  ev('action_resolved', { manipulation_outcome: 'success', slipped: true }),
  ev('action_resolved', { manipulation_outcome: 'failed', slipped: false }),
  ev('action_resolved', { manipulation_outcome: null, slipped: false }),
  ev('action_rejected', { player_id: 'plr_2', code: 'action/missing_attack_plan' }),
  ev('speech_posted', { player_id: 'plr_1' }),
  { type: 'action_submitted', turn: 2, payload: { player_id: 'plr_2', kind: 'pass', forced: true } } as unknown as GameEvent,
  { type: 'action_submitted', turn: 2, payload: { player_id: 'plr_1', kind: 'play_card', action: { payload: { card_id: 'card_002' } }, attack_plan: {} } } as unknown as GameEvent,
  ev('player_eliminated', { player_id: 'plr_2' }),
  ev('game_ended', {
    reason: 'last_seat_standing',
    rounds: 7,
    placements: [
      { player_id: 'plr_1', placement: 1 },
      { player_id: 'plr_2', placement: 2 },
    ],
  }),
];

describe('SimStats', () => {
  const stats = new SimStats();
  stats.add({ events: game(), decisions: 10, agents: ['turtle', 'random'] });
  const f = stats.figures();

  it('shares card plays by type, face-down and reaction plays included', () => {
    expect(f.cardPlays).toBe(6);
    expect(f.cardTypeShare).toEqual({ gambit: 0.3333, guard: 0.3333, trap: 0.1667, mask: 0.1667, pressure: 0, ritual: 0 });
  });

  it('couples plays to the actor’s fear at submission, for non-random agents only', () => {
    expect(f.emotionCoupling).toEqual({ highFear: 0.6667, lowFear: 0, highFearSamples: 3, lowFearSamples: 2 });
  });

  it('rates manipulations, slips and rejections', () => {
    expect(f.manipulationSuccessRate).toBe(0.5);
    expect(f.manipulationOutcomes).toEqual({ success: 1, partial: 0, failed: 1 });
    expect(f.slipRate).toBe(0.3333);
    expect(f.rejectionRate).toBe(0.1);
    expect(f.rejectionsByCode).toEqual({ 'action/missing_attack_plan': 1 });
  });

  it('tallies placements by seat and by agent', () => {
    expect(f.seatWinRate).toEqual([1, 0]);
    expect(f.byAgent).toEqual({
      turtle: { games: 1, wins: 1, winRate: 1, meanPlacement: 1, activeRoundRate: 1, attacks: 1, statements: 1, rejections: 0, forcedPasses: 0 },
      // Round 2 it only passed (forced, after a rejection): one active round of two.
      random: { games: 1, wins: 0, winRate: 0, meanPlacement: 2, activeRoundRate: 0.5, attacks: 0, statements: 0, rejections: 1, forcedPasses: 1 },
    });
    expect(f).toMatchObject({ medianRounds: 7, roundCapRate: 0, eliminationsPerGame: 1 });
  });

  it('takes the median over games', () => {
    const s = new SimStats();
    for (const rounds of [3, 30, 10, 12]) {
      const g = game();
      g[g.length - 1] = ev('game_ended', { reason: rounds === 30 ? 'round_cap' : 'last_seat_standing', rounds, placements: [] });
      s.add({ events: g, decisions: 1, agents: ['a', 'b'] });
    }
    expect(s.figures()).toMatchObject({ medianRounds: 11, roundCapRate: 0.25 });
  });

  it('given one game, then skill share and win-rate spread are null (one placement per agent says nothing); given two, they are figures', () => {
    expect(f.depth).toMatchObject({ skillShare: null, winRateSpread: null });
    const s = new SimStats();
    s.add({ events: game(), decisions: 1, agents: ['turtle', 'random'] });
    s.add({ events: game(), decisions: 1, agents: ['random', 'turtle'] });
    // Seat 0 won both: each agent won once and lost once, so the agent explains nothing.
    expect(s.figures().depth).toMatchObject({ skillShare: 0, winRateSpread: 0 });
  });
});
