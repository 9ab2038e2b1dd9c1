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

/**
 * A stored game's config with its rules version pinned (games.rules_version): a game created with
 * `rules: {}` under 1.0.0 must rebuild under 1.0.0's defaults, not under whatever this build's are.
 */
export function pinnedConfig(config: GameConfigInput, rulesVersion: string): GameConfigInput {
  const rules = (config.rules ?? {}) as Record<string, unknown>;
  return { ...config, rules: { ...rules, rules_version: (rules['rules_version'] as string | undefined) ?? rulesVersion } };
}
