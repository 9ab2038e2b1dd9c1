import { z } from 'zod';
import { EmotionVector, GameId } from '../protocol/index.js';
import { RulesConfig } from './rules.js';

export const SeatConfig = z.object({
  display_name: z.string().min(1).max(40).optional(),
  /** Personality baseline: emotions start here and drift back toward it. */
  baseline: EmotionVector.partial().optional(),
});
export type SeatConfig = z.infer<typeof SeatConfig>;

/** Everything a game needs besides its seed. Validated at every boundary that builds one. */
export const GameConfig = z.object({
  game_id: GameId.optional(),
  seats: z.union([z.number().int(), z.array(SeatConfig)]).default(4),
  rules: RulesConfig.prefault({}),
});
export type GameConfig = z.infer<typeof GameConfig>;
export type GameConfigInput = z.input<typeof GameConfig>;
