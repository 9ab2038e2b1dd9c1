import type { EmotionState } from '../../../protocol/index.js';

/**
 * The thresholds of the behavioural coupling (rules brief, "Built-in personalities"). Fear ≥ 0.5
 * sends a seat into its shell; below 0.2 it is calm (the simulator's emotion-coupling bands).
 */
export const HIGH_FEAR = 0.5;
export const CALM = 0.2;
/** Anger at or above this makes the seat go after whoever it holds the biggest grievance against. */
export const HIGH_ANGER = 0.4;

export const afraid = (e: EmotionState): boolean => e.fear >= HIGH_FEAR;
export const calm = (e: EmotionState): boolean => e.fear < CALM;
export const angry = (e: EmotionState): boolean => e.anger >= HIGH_ANGER;
