import type { SeatDecision } from '../agents/seat/types.js';
import { RunnerError } from './runner-errors.js';

/**
 * A seat's LLM provider failed every call for its configured number of decisions in a row
 * (`outage_decisions` in the providers file, default 5): a dead endpoint, a revoked key, a model
 * that is gone. Playing on would only fill the log with forced passes that look like a normal
 * game, so the game is failed at once with this reason, and `run` / `tournament` say so.
 */
export class ProviderDownError extends RunnerError {
  override readonly name = 'ProviderDownError';
  constructor(
    readonly gameId: string,
    readonly seat: string,
    readonly reason: string,
  ) {
    super(`game ${gameId}: seat ${seat}'s provider is down: ${reason}`);
  }
}

/** Throws ProviderDownError when the seat's answer says its provider is down (trace failure provider/down). */
export function checkProviderDown(gameId: string, seat: string, answer: SeatDecision): void {
  const failure = answer.trace?.failure;
  if (failure?.code === 'provider/down') throw new ProviderDownError(gameId, seat, failure.message);
}
