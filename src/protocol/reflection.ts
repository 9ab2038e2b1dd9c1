import { z } from 'zod';
import { ManipulationOutcome } from './enums.js';
import { PlayerId, Probability } from './ids.js';

/**
 * Seed 003 §7.3. The engine stamps `prediction_accuracy` and `manipulation_outcome` from what it
 * scored; the agent contributes `memory_updates`. `manipulation_outcome` is null for a round without
 * a manipulation attempt.
 */
export const ReflectionRecord = z.object({
  player_id: PlayerId,
  turn: z.number().int().min(0),
  prediction_accuracy: Probability,
  manipulation_outcome: ManipulationOutcome.nullable(),
  memory_updates: z.array(z.string().max(500)).max(10),
});
export type ReflectionRecord = z.infer<typeof ReflectionRecord>;
