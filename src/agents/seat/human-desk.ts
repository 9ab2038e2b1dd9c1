import type { ToolInput } from '../../protocol/index.js';
import type { Judge } from './types.js';

/** Why the desk did not take an answer: 409 nothing pending (or a stale requestId), 422 the engine refused it. */
export type DeskRefusal = { ok: false; status: 409 | 422; code: string; message: string };

type Pending = { input: ToolInput; judge: Judge | undefined; settle: (decision: unknown) => void; clock: Clock | null };

/** A pending request's clock: how long the seat has for it, and when it was put on the desk (the desk's `now`). */
type Clock = { timeoutMs: number; openedAt: number };

/** How long a seat has for its pending request, and how much of it is left (for the seat page's countdown). */
export type DeskClock = { timeoutMs: number; remainingMs: number };

const key = (gameId: string, playerId: string) => `${gameId}/${playerId}`;

/**
 * Where human seats' decision requests wait for their answers: the game's runner awaits a promise
 * the desk settles when an answer arrives over HTTP (no polling, no timer here; the seat owns its
 * timeout). One pending request per seat at most, since a game asks one seat at a time.
 *
 * @example const answer = desk.open('game_ab', 'plr_2', input, judge); desk.answer('game_ab', 'plr_2', input.requestId, d)
 */
export class HumanDesk {
  private readonly pending = new Map<string, Pending>();
  /** Monotonic milliseconds; a test may swap in its own (a property, so Nest builds the desk with no arguments). */
  now: () => number = () => performance.now();

  /**
   * Puts a request on the desk; resolves with the answer a caller gives through `answer`. With
   * `timeoutMs` (the seat's own time-out, which the seat enforces), the desk can say how much of it is left.
   */
  open(gameId: string, playerId: string, input: ToolInput, judge: Judge | undefined, timeoutMs?: number): Promise<unknown> {
    const clock = timeoutMs === undefined ? null : { timeoutMs, openedAt: this.now() };
    return new Promise((resolve) => this.pending.set(key(gameId, playerId), { input, judge, settle: resolve, clock }));
  }

  /** The pending request's time-out and what is left of it; null when nothing is pending or it has no clock. */
  clockOf(gameId: string, playerId: string): DeskClock | null {
    const c = this.pending.get(key(gameId, playerId))?.clock;
    if (!c) return null;
    return { timeoutMs: c.timeoutMs, remainingMs: Math.max(0, Math.round(c.timeoutMs - (this.now() - c.openedAt))) };
  }

  /** Takes a request off the desk unanswered (time-out, shutdown); false when it was gone already. */
  withdraw(gameId: string, playerId: string, requestId: string): boolean {
    const k = key(gameId, playerId);
    if (this.pending.get(k)?.input.requestId !== requestId) return false;
    this.pending.delete(k);
    return true;
  }

  /** The request a seat has pending, exactly as an agent process would receive it; null when none. */
  requestOf(gameId: string, playerId: string): ToolInput | null {
    return this.pending.get(key(gameId, playerId))?.input ?? null;
  }

  /**
   * An answer to a pending request: taken (the game moves on) when the engine would accept it;
   * refused with the engine's code and message while the request stays pending, so the person
   * can try again; 409 when nothing is pending or `requestId` names an older request.
   */
  answer(gameId: string, playerId: string, requestId: string, decision: unknown): { ok: true } | DeskRefusal {
    const k = key(gameId, playerId);
    const p = this.pending.get(k);
    if (!p) return { ok: false, status: 409, code: 'seat/nothing_pending', message: `${playerId} has no decision pending` };
    if (p.input.requestId !== requestId) return { ok: false, status: 409, code: 'seat/stale_request', message: `request ${requestId} is not the pending one (${p.input.requestId})` };
    const verdict = p.judge?.(decision) ?? null;
    if (verdict) return { ok: false, status: 422, code: verdict.code, message: verdict.message };
    this.pending.delete(k);
    p.settle(decision);
    return { ok: true };
  }
}
