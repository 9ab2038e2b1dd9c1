/** A persistent runner cannot go on with a stored game (an unknown agent, a malformed game row). */
export class RunnerError extends Error {
  override readonly name: string = 'RunnerError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The stored game and what replaying it produces disagree: an agent's fresh answer differs from
 * the recorded one, the recorded decisions do not follow the engine, or re-running them emits
 * other events than the log holds. `seq` is the log position where they part.
 */
export class DivergenceError extends RunnerError {
  override readonly name = 'DivergenceError';
  constructor(
    readonly gameId: string,
    readonly seq: number,
    readonly reason: string,
  ) {
    super(`game ${gameId} diverges at seq ${seq}: ${reason}`);
  }
}

/** A game marked `failed` (its runner failed too often in a row) is not resumed again. */
export class GameFailedError extends RunnerError {
  override readonly name = 'GameFailedError';
  constructor(
    readonly gameId: string,
    readonly reason: string | null,
  ) {
    super(`game ${gameId} failed${reason ? ` (${reason})` : ''}; it is not resumed`);
  }
}
