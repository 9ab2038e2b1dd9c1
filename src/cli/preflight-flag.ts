import { describePreflight, preflightSeats } from '../agents/seat/preflight.js';
import { UsageError } from './io.js';

/** The flag every command that starts games with LLM seats takes. */
export const PREFLIGHT_OPTION = { 'no-preflight': { type: 'boolean' } } as const;

export const PREFLIGHT_HELP = `  --no-preflight     start without checking each LLM seat's provider and model first (by default
                     one cheap request per distinct provider:model; a failure is exit 2, naming
                     the seat, the provider and the cause)`;

/**
 * Checks the LLM seats of a line-up before anything is stored: a bad URL, key or model is a usage
 * error (exit 2) with one line per failing model, unless `--no-preflight`.
 */
export async function preflightOrRefuse(specs: readonly string[], skip: boolean | undefined, of: 'seats' | 'entrants' = 'seats'): Promise<void> {
  if (skip) return;
  const failures = await preflightSeats(specs);
  if (failures.length)
    throw new UsageError(`preflight failed (the ${of === 'entrants' ? 'tournament' : 'game'} was not started; --no-preflight skips this check):\n${describePreflight(failures, of)}`);
}
