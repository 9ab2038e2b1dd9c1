import { z } from 'zod';
import { EmotionVector, GameId } from '../protocol/index.js';
import { clonePlain } from './clone.js';
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

/**
 * GameConfig.safeParse, remembering what a few recent plain-JSON configs parsed to: simulations
 * start thousands of games from one config, and parsing its rules' defaults was a few per cent of a
 * random game. Only JSON-shaped input (no undefined, no -0 or non-finite numbers, plain objects with only enumerable string keys) is
 * remembered, keyed by its JSON text, for which the parse is a function of that text; each caller
 * gets its own copy. Anything else is parsed as before.
 */
export function parseGameConfig(config: unknown): ReturnType<typeof GameConfig.safeParse> {
  const key = isJsonShaped(config, 0) ? JSON.stringify(config) : null;
  const hit = key === null ? undefined : recentConfigs.get(key);
  if (hit) return { success: true, data: clonePlain(hit) };
  const parsed = GameConfig.safeParse(config);
  if (parsed.success && key !== null && key.length <= 16_384) {
    if (recentConfigs.size >= 16) recentConfigs.delete(recentConfigs.keys().next().value!);
    recentConfigs.set(key, clonePlain(parsed.data));
  }
  return parsed;
}

const recentConfigs = new Map<string, GameConfig>();

function isJsonShaped(x: unknown, depth: number): boolean {
  if (x === null || typeof x === 'string' || typeof x === 'boolean') return true;
  if (typeof x === 'number') return Number.isFinite(x) && !Object.is(x, -0);
  if (typeof x !== 'object' || depth > 8) return false;
  if (Array.isArray(x)) return x.every((v) => isJsonShaped(v, depth + 1));
  if (Object.getPrototypeOf(x) !== Object.prototype) return false;
  for (const k of Object.keys(x)) if (k === '__proto__' || !isJsonShaped((x as Record<string, unknown>)[k], depth + 1)) return false;
  // Hidden keys (non-enumerable, symbols) are not in the JSON text, yet a parse might read them.
  return Reflect.ownKeys(x).length === Object.keys(x).length;
}
