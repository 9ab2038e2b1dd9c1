import type { SeatDecision } from '../agents/seat/types.js';
import type { EventStore } from '../store/index.js';
import { RunnerError } from './runner-errors.js';

/** Over-bound answers one seat may send in one game; at this many the game is failed. */
export const MAX_BOUND_STRIKES = 3;

/** The failures that mean an agent's output broke the protocol's bounds (src/protocol/json-bounds.ts). */
const BOUND_CODES: ReadonlySet<string> = new Set(['protocol/too_deep', 'protocol/too_large']);

type Failure = { code: string; message: string };

const boundFailure = (entries: unknown): Failure | null => {
  const failure = (entries as { failure?: Failure | null } | null)?.failure;
  return failure && typeof failure.code === 'string' && BOUND_CODES.has(failure.code) ? failure : null;
};

/**
 * A seat's agent sent output over the protocol's bounds MAX_BOUND_STRIKES times in one game. Not
 * a passing fault to retry: the game is failed at once, with this message as its reason.
 */
export class AgentStrikesError extends RunnerError {
  override readonly name = 'AgentStrikesError';
  constructor(
    readonly gameId: string,
    readonly seat: string,
    readonly agent: string,
    readonly failure: Failure,
  ) {
    super(`seat ${seat} (${agent}) sent output over the protocol bounds ${MAX_BOUND_STRIKES} times (last: ${failure.code}: ${failure.message})`);
  }
}

/**
 * The strike policy's count, per seat: every answer whose trace failed with protocol/too_deep or
 * protocol/too_large is a strike. Below MAX_BOUND_STRIKES the seat's fallback answers and the game
 * goes on; at it the game fails. The count lives in the stored traces (one per decision, written
 * after its step), so a resumed game starts from what its earlier runners counted.
 */
export class BoundStrikes {
  private constructor(private readonly counts: Map<string, number>) {}

  /** The strikes a game's stored traces hold. */
  static async of(store: EventStore, gameId: string): Promise<BoundStrikes> {
    const counts = new Map<string, number>();
    for (const t of await store.readTraces(gameId)) if (boundFailure(t.entries)) counts.set(t.player_id, (counts.get(t.player_id) ?? 0) + 1);
    return new BoundStrikes(counts);
  }

  /** Counts one committed answer; throws AgentStrikesError when it is the seat's last strike. */
  note(gameId: string, seat: string, answer: SeatDecision): void {
    const failure = boundFailure(answer.trace);
    if (!failure) return;
    const n = (this.counts.get(seat) ?? 0) + 1;
    this.counts.set(seat, n);
    if (n >= MAX_BOUND_STRIKES) throw new AgentStrikesError(gameId, seat, answer.trace?.agent ?? 'its agent', failure);
  }
}
