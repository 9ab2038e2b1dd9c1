import type { GameEvent } from '../protocol/index.js';

/** A behaviour-shift read an attack plan made, and its scoring once its rounds are over. */
export type PredictionRow = {
  seq: number;
  turn: number;
  predictor: string;
  target: string;
  predicted: string;
  from_turn: number;
  to_turn: number;
  scored_seq: number | null;
  observed: string[] | null;
  correct: boolean | null;
};
export type PredictionTable = { rows: PredictionRow[]; accuracy: Record<string, { scored: number; correct: number; rate: number | null }> };

/**
 * Predictions and their accuracy per predictor (public once the attack resolved). A score settles
 * the oldest open read with the same predictor, target and prediction, as the engine does.
 */
export function predictionTable(events: readonly GameEvent[]): PredictionTable {
  const rows: PredictionRow[] = [];
  const accuracy: PredictionTable['accuracy'] = {};
  for (const e of events) {
    if (e.type === 'action_resolved' && e.payload.prediction && e.payload.attack_plan) {
      const x = e.payload.prediction;
      rows.push({ seq: e.seq, turn: e.turn, predictor: e.payload.actor_player_id, target: e.payload.attack_plan.target_player_id, predicted: x.predicted, from_turn: x.from_turn, to_turn: x.to_turn, scored_seq: null, observed: null, correct: null });
    } else if (e.type === 'prediction_scored') {
      const p = e.payload;
      const row = rows.find((r) => r.scored_seq === null && r.predictor === p.predictor_player_id && r.target === p.target_player_id && r.predicted === p.predicted);
      if (row) Object.assign(row, { scored_seq: e.seq, observed: p.observed, correct: p.correct });
      const a = (accuracy[p.predictor_player_id] ??= { scored: 0, correct: 0, rate: null });
      a.scored++;
      if (p.correct) a.correct++;
      a.rate = a.correct / a.scored;
    }
  }
  return { rows, accuracy };
}
