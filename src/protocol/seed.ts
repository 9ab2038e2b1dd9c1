import { z } from 'zod';

/** The largest seed: 2^53 − 1, the largest whole number a JSON number carries exactly. */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;

const outOfRange = (issue: { input?: unknown }): string =>
  `must be a whole number from 0 to ${MAX_SEED} (2^53 − 1), got ${typeof issue.input === 'number' ? String(issue.input) : typeof issue.input}`;

/**
 * A game's seed, as every door takes it: `POST /games`, `play/run/simulate --seed`, tournaments.
 * One range everywhere, so any game the server plays can be played again on the CLI.
 *
 * @example Seed.parse(42) // 42; Seed.parse(-1) throws "must be a whole number from 0 to …, got -1"
 */
export const Seed = z
  .number({ error: outOfRange })
  // abort: one issue per bad seed (2^53 fails both int and max), so an API error says it once.
  .int({ error: outOfRange, abort: true })
  .min(0, { error: outOfRange })
  .max(MAX_SEED, { error: outOfRange });
export type Seed = z.infer<typeof Seed>;
