import { BadRequestException } from '@nestjs/common';
import { describePreflight, preflightSeats } from '../../agents/seat/preflight.js';

/**
 * `POST /games` and `POST /tournaments`: unless the body says `"preflight": false`, each distinct
 * LLM provider:model of the seats answers one cheap request first; a bad URL, key or model is a 400
 * naming the seat (a tournament's: the entrant), the provider and the cause, and nothing is created.
 */
export async function preflightOr400(agents: readonly string[], preflight: boolean | undefined, of: 'seats' | 'entrants' = 'seats'): Promise<void> {
  if (preflight === false) return;
  const failures = await preflightSeats(agents);
  if (failures.length) throw new BadRequestException(`preflight failed (nothing was created; "preflight": false skips this check): ${describePreflight(failures, of).replace(/\n/g, '; ')}`);
}
