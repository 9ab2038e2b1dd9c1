import type { BehaviorShift } from '../protocol/index.js';
import { BEHAVIOR_SHIFTS } from '../protocol/index.js';
import { cardDef } from './cards.js';
import type { StepContext } from './context.js';
import { currentRound } from './evolve.js';
import { player } from './players.js';
import type { GameState, PlayerId, RoundRecord } from './state.js';

/** `expected_behavior_shift` counts as a read when it begins with one of the five words. */
export function parseShift(text: string): BehaviorShift | null {
  const head = text.trim().toLowerCase().split(/[^a-z_]/, 1)[0] ?? '';
  return (BEHAVIOR_SHIFTS as readonly string[]).includes(head) ? (head as BehaviorShift) : null;
}

const DEFENSIVE_TYPES = new Set(['guard', 'mask', 'trap']);

/** What a seat's round looked like from the predictor's side, in the predictions' own words. */
export function classifyRound(round: RoundRecord, target: PlayerId, predictor: PlayerId): BehaviorShift[] {
  const attacks = round.attacks[target] ?? [];
  const plays = round.plays[target] ?? [];
  const labels: BehaviorShift[] = [];
  if (attacks.includes(predictor)) labels.push('retaliate');
  if (attacks.some((t) => t !== predictor)) labels.push('lash_out');
  if ((round.reckless[target] ?? 0) > 0) labels.push('reckless');
  const guarded = plays.some((n) => !n.startsWith('activate:') && (DEFENSIVE_TYPES.has(cardDef(n).type) || n === 'Rebuild'));
  if (attacks.length === 0 && (guarded || (round.reactions[target] ?? 0) > 0)) labels.push('defensive');
  if ((round.actions[target] ?? 0) === 0) labels.push('withdrawn');
  return labels;
}

/** Scores the reads whose window covers this round: correct as soon as one round matches. */
export function scorePredictions(ctx: StepContext): void {
  const s: GameState = ctx.state;
  const round = currentRound(s);
  for (const p of s.predictions.slice()) {
    if (s.turn < p.from_turn) continue;
    if (!player(s, p.predictor).alive) continue;
    const observed = classifyRound(round, p.target, p.predictor);
    const correct = observed.includes(p.predicted);
    if (!correct && s.turn < p.to_turn) continue;
    ctx.emit('prediction_scored', {
      predictor_player_id: p.predictor,
      target_player_id: p.target,
      predicted: p.predicted,
      observed,
      correct,
      tempo_delta: correct ? Math.min(s.rules.tempo.correct_read, s.rules.tempo_cap - player(s, p.predictor).tempo) : 0,
    });
  }
}
