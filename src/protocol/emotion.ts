import { z } from 'zod';
import { EMOTIONS, EmotionName } from './enums.js';
import { PlayerId, Probability, Signed } from './ids.js';

const emotionShape = Object.fromEntries(EMOTIONS.map((e) => [e, Signed])) as Record<
  (typeof EMOTIONS)[number],
  typeof Signed
>;

/** The nine affect dimensions, each in [-1, 1]. */
export const EmotionVector = z.object(emotionShape);
export type EmotionVector = z.infer<typeof EmotionVector>;

/** Seed 003 §3.4: the vector plus social maps (trust in [-1, 1], grievance in [0, 1]). */
export const EmotionState = EmotionVector.extend({
  trust: z.record(PlayerId, Signed),
  grievance: z.record(PlayerId, Probability),
});
export type EmotionState = z.infer<typeof EmotionState>;

/** A partial change to the vector; each component is a delta (not a level), so it may exceed ±1 before clamping. */
export const EmotionDelta = z.partialRecord(EmotionName, z.number().min(-2).max(2));
export type EmotionDelta = z.infer<typeof EmotionDelta>;

/** What other seats can read off a seat: its dominant emotion at exposure ≥ 4, its vector at ≥ 8. */
export const Tell = z.object({
  dominant: EmotionName.nullable(),
  vector: EmotionVector.nullable(),
  masked: z.boolean(),
});
export type Tell = z.infer<typeof Tell>;
