import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { TournamentReport } from '../../src/server/docs/tournament-schemas.js';
import { reportToCsv } from '../../src/tournament/report-csv.js';
import { tournamentReport } from '../../src/tournament/report.js';

/** Only the fields the fold reads; envelopes are irrelevant to it. */
const ev = (type: string, turn: number, payload: Record<string, unknown>) => ({ type, turn, payload }) as unknown as GameEvent;
const emo = (fear: number, tilt = 0) => ({ valence: 0, arousal: 0, dominance: 0, fear, anger: 0, shame: 0, confidence: 0.2, greed: 0, tilt });
const plan = (target: string, manipulation_plan: string, emotional_intent: string) => ({ target_player_id: target, manipulation_plan, emotional_intent });
const resolved = (turn: number, actor: string, slipped: boolean, outcome: string | null, attack_plan: unknown = null) =>
  ev('action_resolved', turn, { actor_player_id: actor, target_player_ids: [], attack_plan, manipulation_outcome: outcome, slipped });

// alpha (plr_1), bravo (plr_2), charlie (plr_3): every figure below is worked out by hand.
const log: GameEvent[] = [
  ev('game_started', 0, {
    cards: { card_001: 'Feint', card_002: 'Brace', card_003: 'Needle' },
    players: [
      { player_id: 'plr_1', seat: 0, baseline: emo(0.6) },
      { player_id: 'plr_2', seat: 1, baseline: emo(0) },
      { player_id: 'plr_3', seat: 2, baseline: emo(0.1) },
    ],
  }),
  // alpha plays a gambit at fear 0.6 (high) and manipulates bravo successfully at turn 1.
  ev('action_submitted', 1, { player_id: 'plr_1', kind: 'play_card', action: { payload: { card_id: 'card_001' } } }),
  resolved(1, 'plr_1', false, 'success', plan('plr_2', 'bait', 'fear')),
  // bravo reacts with a guard at fear 0 (low).
  ev('reaction_submitted', 1, { player_id: 'plr_2', card: { type: 'guard' } }),
  // Turn 2, within 2 rounds of it: bravo slips (a forced error credited to alpha) and fails against alpha.
  resolved(2, 'plr_2', true, 'failed', plan('plr_1', 'threat_framing', 'anger')),
  // charlie slips outside any pressure and half-succeeds against alpha.
  resolved(2, 'plr_3', true, 'partial', plan('plr_1', 'bait', 'shame')),
  // Turn 4: bravo's window is over (turn 1 + 2); a clean action with no contest.
  resolved(4, 'plr_2', false, null),
  ev('prediction_scored', 4, { predictor_player_id: 'plr_1', target_player_id: 'plr_2', correct: true }),
  ev('prediction_scored', 4, { predictor_player_id: 'plr_1', target_player_id: 'plr_3', correct: false }),
  ev('prediction_scored', 4, { predictor_player_id: 'plr_3', target_player_id: 'plr_1', correct: true }),
  ev('ledger_settled', 4, {
    settlements: [
      { commitment_id: 'c1', kind: 'promise', speaker_player_id: 'plr_2', target_player_id: 'plr_1', outcome: 'broken' },
      { commitment_id: 'c2', kind: 'promise', speaker_player_id: 'plr_2', target_player_id: 'plr_3', outcome: 'kept' },
      { commitment_id: 'c3', kind: 'concession', speaker_player_id: 'plr_2', target_player_id: 'plr_1', outcome: 'kept' },
      { commitment_id: 'c4', kind: 'threat', speaker_player_id: 'plr_1', target_player_id: 'plr_2', outcome: 'credible' },
    ],
  }),
  ev('emotion_updated', 4, { player_id: 'plr_3', emotions: emo(0.1, 0.6) }),
  // charlie, tilted, plays a pressure card at fear 0.1 (low).
  ev('action_submitted', 5, { player_id: 'plr_3', kind: 'play_card', card: { type: 'pressure' } }),
  ev('game_ended', 5, {
    reason: 'last_seat_standing',
    rounds: 5,
    placements: [
      { player_id: 'plr_1', placement: 1 },
      { player_id: 'plr_2', placement: 3 },
      { player_id: 'plr_3', placement: 2 },
    ],
  }),
];

const calls = [
  { player_id: 'plr_3', input_tokens: 100, output_tokens: 20, cost_usd: 0.001, latency_ms: 200, status: 'ok' },
  { player_id: 'plr_3', input_tokens: 50, output_tokens: 10, cost_usd: 0.0005, latency_ms: 400, status: 'timeout' },
  { player_id: null, input_tokens: 999, output_tokens: 999, cost_usd: 9, latency_ms: 9, status: 'ok' },
];

/** A two-seat game where alpha succeeds against bravo or not, and the placements given. */
const duel = (manipulated: boolean, bravoPlace: number): GameEvent[] => [
  ev('game_started', 0, { players: [{ player_id: 'plr_1', seat: 0 }, { player_id: 'plr_2', seat: 1 }] }),
  resolved(1, 'plr_1', false, manipulated ? 'success' : 'failed', plan('plr_2', 'bait', 'fear')),
  ev('game_ended', 2, { reason: 'last_seat_standing', rounds: 2, placements: [{ player_id: 'plr_1', placement: 3 - bravoPlace }, { player_id: 'plr_2', placement: bravoPlace }] }),
];

describe('tilt resilience sample sizes', () => {
  const bravo = (games: GameEvent[][]) => tournamentReport(games.map((events) => ({ events, seats: ['alpha', 'bravo'] }))).agents.find((a) => a.agent === 'bravo')!.tilt_resilience;

  it('given an agent manipulated in every game, then there is no delta and the note says why, with both sample sizes', () => {
    const t = bravo([duel(true, 2), duel(true, 2), duel(true, 1), duel(true, 2)]);
    expect(t).toMatchObject({ manipulated_games: 4, other_games: 0, placement_when_manipulated: 1.75, placement_otherwise: null, placement_delta: null, status: 'not_enough_games' });
    expect(t.note).toBe('not enough games: manipulated in every game (each side needs 3)');
  });

  it('given fewer than 3 games on one side, then the means stand but the delta is withheld', () => {
    const t = bravo([duel(true, 2), duel(true, 2), duel(true, 2), duel(false, 1), duel(false, 1)]);
    expect(t).toMatchObject({ manipulated_games: 3, other_games: 2, placement_when_manipulated: 2, placement_otherwise: 1, placement_delta: null, status: 'not_enough_games' });
    expect(t.note).toBe('not enough games: only 2 games without a manipulation (each side needs 3)');
  });

  it('given any report, then it matches the documented schema (OpenAPI TournamentReport)', () => {
    const report = tournamentReport([{ game_id: 'game_1', events: duel(true, 2).map((e, i) => ({ ...e, seq: i + 1 })), seats: ['alpha', 'bravo'] }]);
    expect(TournamentReport.safeParse({ tournament_id: 'trn_x', status: 'ended', games_counted: 1, report }).error).toBeUndefined();
  });

  it('given 3 games on each side, then the delta is the difference of the means', () => {
    const t = bravo([duel(true, 2), duel(true, 2), duel(true, 1), duel(false, 1), duel(false, 1), duel(false, 2)]);
    expect(t).toMatchObject({ manipulated_games: 3, other_games: 3, placement_when_manipulated: 1.6667, placement_otherwise: 1.3333, placement_delta: 0.3334, status: 'ok', note: null });
    // Its interval (cluster bootstrap, fixed seed) holds the delta and stays within what the sides allow.
    const ci = t.placement_delta_ci!;
    expect(ci.value).toBe(0.3334);
    expect(ci.low).toBeLessThan(0.3334);
    expect(ci.high).toBeGreaterThan(0.3334);
    expect(ci.low).toBeGreaterThanOrEqual(-1);
    expect(ci.high).toBeLessThanOrEqual(1);
    expect(bravo([duel(true, 2), duel(true, 2), duel(true, 1), duel(false, 1), duel(false, 1), duel(false, 2)]).placement_delta_ci).toEqual(ci);
  });

  it('given games grouped in duplicate groups that place alike, then the delta interval resamples groups and is wider than per game', () => {
    // Six deals, each played twice (two seat rotations) with the same outcome: 12 games, 6 groups' evidence.
    const deals = [[true, 2], [true, 2], [true, 1], [false, 1], [false, 1], [false, 2]] as const;
    const games = deals.flatMap(([m, p], d) => [0, 1].map((r) => ({ events: duel(m, p), seats: ['alpha', 'bravo'], key: `r0000-t0000-d000${d}-p${r}` })));
    const ungrouped = games.map(({ key: _, ...g }) => g);
    const of = (gs: typeof ungrouped) => tournamentReport(gs).agents.find((a) => a.agent === 'bravo')!.tilt_resilience.placement_delta_ci!;
    const [grouped, perGame] = [of(games), of(ungrouped)];
    expect(grouped.value).toBe(perGame.value);
    expect(grouped.high - grouped.low).toBeGreaterThan(perGame.high - perGame.low);
  });
});

describe('tournamentReport on a hand-made log', () => {
  const report = tournamentReport([{ events: log, seats: ['alpha', 'bravo', 'charlie'], providerCalls: calls }]);
  const agent = (name: string) => report.agents.find((a) => a.agent === name)!;
  const pair = (a: string, b: string) => report.pairs.find((p) => p.agent === a && p.target === b);

  it('counts manipulation given and received, by plan and by emotional intent', () => {
    expect(agent('alpha').manipulation_given).toEqual({ attempts: 1, successes: 1, partial: 0, success_rate: 1 });
    expect(agent('alpha').manipulation_received).toEqual({ attempts: 2, successes: 0, partial: 1, success_rate: 0 });
    expect(agent('bravo').manipulation_received).toEqual({ attempts: 1, successes: 1, partial: 0, success_rate: 1 });
    expect(agent('alpha').by_plan.bait).toEqual({ attempts: 1, successes: 1, partial: 0, success_rate: 1 });
    expect(agent('alpha').by_plan.status_challenge).toEqual({ attempts: 0, successes: 0, partial: 0, success_rate: null });
    expect(agent('charlie').by_plan.bait).toEqual({ attempts: 1, successes: 0, partial: 1, success_rate: 0 });
    expect(agent('bravo').by_intent.anger).toEqual({ attempts: 1, successes: 0, partial: 0, success_rate: 0 });
    expect(agent('alpha').by_intent.fear.successes).toBe(1);
  });

  it('says who manipulated whom, with forced errors, predictions and promises per pair', () => {
    expect(pair('alpha', 'bravo')).toEqual({
      agent: 'alpha',
      target: 'bravo',
      manipulation: { attempts: 1, successes: 1, partial: 0, success_rate: 1 },
      forced_errors: 1,
      predictions: 1,
      correct_predictions: 1,
      prediction_accuracy: 1,
      promises_kept: 0,
      promises_broken: 0,
    });
    expect(pair('alpha', 'charlie')).toMatchObject({ predictions: 1, correct_predictions: 0, prediction_accuracy: 0, forced_errors: 0 });
    expect(pair('bravo', 'alpha')).toMatchObject({ manipulation: { attempts: 1, successes: 0, partial: 0, success_rate: 0 }, promises_kept: 1, promises_broken: 1 });
    expect(pair('bravo', 'charlie')).toMatchObject({ promises_kept: 1, promises_broken: 0, manipulation: { attempts: 0 } });
    expect(pair('charlie', 'alpha')).toMatchObject({ manipulation: { partial: 1 }, prediction_accuracy: 1 });
    expect(pair('charlie', 'bravo')).toBeUndefined();
    expect(report.pairs.map((p) => `${p.agent}>${p.target}`)).toEqual(['alpha>bravo', 'alpha>charlie', 'bravo>alpha', 'bravo>charlie', 'charlie>alpha']);
  });

  it('separates slips under pressure (forced errors) from the baseline', () => {
    expect(agent('bravo')).toMatchObject({ actions: 2, slips: 1, slip_rate: 0.5 });
    expect(agent('bravo').forced_errors).toEqual({ pressured_actions: 1, pressured_slips: 1, pressured_slip_rate: 1, baseline_slip_rate: 0, lift: 1 });
    expect(agent('charlie').forced_errors).toEqual({ pressured_actions: 0, pressured_slips: 0, pressured_slip_rate: null, baseline_slip_rate: 1, lift: null });
  });

  it('scores predictions and the ledger per speaker', () => {
    expect(agent('alpha')).toMatchObject({ predictions: 2, correct_predictions: 1, prediction_accuracy: 0.5 });
    expect(agent('bravo')).toMatchObject({ promises_kept: 2, promises_broken: 1, promise_keep_rate: 0.6667 });
    expect(agent('bravo').ledger).toEqual({ promise: { broken: 1, kept: 1 }, concession: { kept: 1 } });
    expect(agent('alpha').ledger).toEqual({ threat: { credible: 1 } });
  });

  it('measures tilt resilience by placement when manipulated and when tilted', () => {
    expect(agent('bravo').tilt_resilience).toEqual({
      manipulated_games: 1,
      other_games: 0,
      placement_when_manipulated: 3,
      placement_otherwise: null,
      placement_delta: null,
      placement_delta_ci: null,
      status: 'not_enough_games',
      note: 'not enough games: manipulated in only 1 game; manipulated in every game (each side needs 3)',
      tilted_games: 0,
      placement_when_tilted: null,
    });
    expect(agent('charlie').tilt_resilience).toMatchObject({ manipulated_games: 0, other_games: 1, placement_otherwise: 2, tilted_games: 1, placement_when_tilted: 2, status: 'not_enough_games' });
    expect(agent('charlie').tilt_resilience.note).toBe('not enough games: never manipulated; only 1 game without a manipulation (each side needs 3)');
  });

  it('mixes card types and couples them to fear per agent', () => {
    expect(agent('alpha').card_mix).toEqual({ gambit: 1, guard: 0, trap: 0, mask: 0, pressure: 0, ritual: 0 });
    expect(agent('alpha').emotion_coupling).toEqual({ high_fear: 0, low_fear: null, high_fear_samples: 1, low_fear_samples: 0 });
    expect(agent('bravo').emotion_coupling).toEqual({ high_fear: null, low_fear: 1, high_fear_samples: 0, low_fear_samples: 1 });
    expect(agent('charlie')).toMatchObject({ card_plays: 1, card_mix: { pressure: 1 } });
  });

  it('sums LLM usage from provider calls per seat', () => {
    expect(agent('charlie').usage).toEqual({ calls: 2, failed_calls: 1, input_tokens: 150, output_tokens: 30, cost_usd: 0.0015, mean_latency_ms: 300 });
    expect(agent('alpha').usage).toBeNull();
  });

  it('reads seats given by player_id the same as by seat index, and keeps the overall figures', () => {
    const byPlayer = tournamentReport([{ events: log, seats: { plr_1: 'alpha', plr_2: 'bravo', plr_3: 'charlie' }, providerCalls: calls }]);
    expect(byPlayer).toEqual(report);
    expect(report.games).toBe(1);
    expect(report.overall.byAgent['alpha']).toMatchObject({ games: 1, wins: 1 });
    expect(report.overall.rejectionRate).toBeNull();
  });

  it('exports one CSV per table with stable columns', () => {
    const csv = reportToCsv(report);
    const agents = csv['agents.csv'].trimEnd().split('\n');
    expect(agents).toHaveLength(4);
    const header = agents[0]!.split(',');
    expect(header.slice(0, 9)).toEqual(['agent', 'games', 'wins', 'win_rate', 'mean_placement', 'manipulation_given_attempts', 'manipulation_given_successes', 'manipulation_given_partial', 'manipulation_given_success_rate']);
    expect(header).toContain('forced_errors_lift');
    expect(header).toContain('card_mix_gambit');
    expect(header.slice(-6)).toEqual(['usage_calls', 'usage_failed_calls', 'usage_input_tokens', 'usage_output_tokens', 'usage_cost_usd', 'usage_mean_latency_ms']);
    const row = (name: string) => Object.fromEntries(header.map((h, i) => [h, agents.find((l) => l.startsWith(`${name},`))!.split(',')[i]]));
    expect(row('charlie')).toMatchObject({ games: '1', usage_calls: '2', usage_cost_usd: '0.0015', forced_errors_baseline_slip_rate: '1' });
    expect(row('alpha')).toMatchObject({ usage_calls: '', forced_errors_lift: '', wins: '1' });
    expect(csv['pairs.csv'].split('\n')[0]).toBe(
      'agent,target,manipulation_attempts,manipulation_successes,manipulation_partial,manipulation_success_rate,forced_errors,predictions,correct_predictions,prediction_accuracy,promises_kept,promises_broken',
    );
    expect(csv['pairs.csv'].split('\n')[1]).toBe('alpha,bravo,1,1,0,1,1,1,1,1,0,0');
    expect(csv['plans.csv'].trimEnd().split('\n')).toHaveLength(1 + 3 * 6);
    expect(csv['plans.csv']).toContain('\ncharlie,bait,1,0,1,0\n');
    expect(csv['intents.csv']).toContain('\nalpha,fear,1,1,0,1\n');
    const shifts = csv['shifts.csv'].trimEnd().split('\n');
    expect(shifts[0]).toBe('target,emotional_intent,samples,attack_share_after,attack_share_baseline,attack_shift,attack_shift_low,attack_shift_high,defensive_share_after,defensive_share_baseline,defensive_shift,defensive_shift_low,defensive_shift_high,status,clusters,few_samples');
    // Six intents pooled, then three agents × six intents. bravo attacked in round 2, after alpha's
    // fright; its rounds are that attack and round 4's play with no card shown (defensive): baseline ½, ½.
    expect(shifts).toHaveLength(1 + 6 + 3 * 6);
    expect(shifts[1]).toBe('*,fear,1,1,0.5,,,,0,0.5,,,,not_enough_samples,1,true');
    expect(shifts).toContain('bravo,fear,1,1,0.5,,,,0,0.5,,,,not_enough_samples,1,true');
    expect(csv['ledger.csv']).toBe('agent,kind,outcome,count\nalpha,threat,credible,1\nbravo,concession,kept,1\nbravo,promise,broken,1\nbravo,promise,kept,1\n');
  });
});
