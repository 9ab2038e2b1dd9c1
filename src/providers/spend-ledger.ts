import { costOf } from './pricing.js';
import type { PriceTable, ProviderRequest } from './types.js';

/** A hold on the cap for one call in flight, settled to the call's real cost when it returns. */
export type Reservation = { readonly id: string; readonly usd: number };

export type ReserveOutcome = { ok: true; reservation: Reservation } | { ok: false; reason: string };

/**
 * A tournament's cost cap as its LLM calls see it: reserve a call's worst case before sending it,
 * settle the hold to what the call cost once it returns. Two implementations: SpendLedger (one
 * process, the embedded default) and RedisSpendLedger (every process of a scaled-out deployment
 * sharing one cap, src/scale/redis-spend-ledger.ts).
 */
export interface CostLedger {
  /** Aborted at the first refused call (anywhere, for a shared ledger): games stop starting steps. */
  readonly stopped: AbortSignal;
  /** The largest worst case asked for (granted or refused): the "one call's worst case" of the bound. */
  readonly worstCallUsd: number;
  reserve(usd: number, what: string): Promise<ReserveOutcome>;
  /** Replaces a hold by what the call cost (once; a second settle of the same hold is ignored). */
  settle(reservation: Reservation, usd: number): void;
}

/** The refusal's words, the same from every ledger. */
export const capReason = (what: string, usd: number, settled: number, capUsd: number): string =>
  `cost cap: ${what} may cost up to $${usd.toFixed(6)}, and $${settled.toFixed(6)} of the $${capUsd} cap is spent`;

/**
 * Tokens a wire format may add around what we send: role markers per message, and the tool-use
 * preamble Anthropic prepends when a tool is forced (a few hundred tokens). Generous on purpose:
 * the bound must hold, the estimate need not be tight.
 */
const OVERHEAD_TOKENS = 1_024;
const PER_MESSAGE_TOKENS = 8;

/**
 * An upper bound on a request's prompt tokens without a tokenizer: every tokenizer in use (byte-level
 * BPE, SentencePiece with byte fallback) spends at least one byte of UTF-8 per token, so the bytes
 * of the messages and the answer schema bound the tokens, plus the wire format's own overhead.
 *
 * @example promptTokenBound({ messages: [{ role: 'user', content: 'hi' }], answer }) // bytes + overhead
 */
export function promptTokenBound(req: Pick<ProviderRequest, 'messages' | 'answer'>): number {
  const bytes = Buffer.byteLength(JSON.stringify(req.messages)) + Buffer.byteLength(JSON.stringify(req.answer));
  return bytes + OVERHEAD_TOKENS + PER_MESSAGE_TOKENS * req.messages.length;
}

/**
 * The most one call can cost: its prompt's token bound and its whole `max_tokens` at the model's
 * price; null when the model has no price (nothing can bound it).
 *
 * @example worstCallUsd(DEFAULT_PRICES, { model: 'gpt-4o', messages, answer, maxOutputTokens: 800 })
 */
export function worstCallUsd(prices: PriceTable, req: Pick<ProviderRequest, 'model' | 'messages' | 'answer' | 'maxOutputTokens'>): number | null {
  const cost = costOf(prices, req.model, { inputTokens: promptTokenBound(req), outputTokens: req.maxOutputTokens });
  return cost.known ? cost.usd : null;
}

/**
 * One tournament's money, shared by every game it runs at once: what is spent (settled calls) plus
 * what is held (calls in flight, at their worst case) never passes the cap, because a call that
 * would pass it waits for other holds to settle, or is refused before it is sent when it cannot
 * fit beside what is already spent. The first refusal aborts `stopped`, which the
 * runner hands its games as a stop signal, so every game ends at its next step boundary. Spend can
 * pass the cap only by what a call's real cost exceeds its reservation (a server reporting more
 * tokens than `max_tokens` allows), which is why the bound is "cap + one call's worst case".
 *
 * @example
 * const ledger = new SpendLedger(0.10, await store.tournaments.cost(id));
 * const hold = await ledger.reserve(0.004, 'llm:openai:gpt-4o');
 * if (hold.ok) ledger.settle(hold.reservation, result.costUsd);
 */
export class SpendLedger implements CostLedger {
  private settled: number;
  private readonly held = new Map<string, number>();
  private nextId = 0;
  private worst = 0;
  private readonly stop = new AbortController();
  /** Calls waiting for holds to settle before they fit. */
  private waiting: Array<() => void> = [];

  constructor(
    readonly capUsd: number,
    spentUsd = 0,
  ) {
    this.settled = spentUsd;
  }

  /** Aborted at the first refused call: games stop starting steps. */
  get stopped(): AbortSignal {
    return this.stop.signal;
  }

  /** Settled cost so far (USD). */
  get spent(): number {
    return this.settled;
  }

  /** Held for calls in flight (USD). */
  get reserved(): number {
    let sum = 0;
    for (const usd of this.held.values()) sum += usd;
    return sum;
  }

  /** The largest worst case asked for (granted or refused): the "one call's worst case" of the bound. */
  get worstCallUsd(): number {
    return this.worst;
  }

  /**
   * Holds `usd` for a call about to be sent. A call that fits beside what is settled but not beside
   * the other holds waits for them to settle (their real cost is usually far below their worst
   * case) and tries again; one that cannot fit even then is refused, which stops the tournament.
   */
  async reserve(usd: number, what: string): Promise<ReserveOutcome> {
    this.worst = Math.max(this.worst, usd);
    for (;;) {
      if (this.stop.signal.aborted || this.settled + usd > this.capUsd) {
        const reason = capReason(what, usd, this.settled, this.capUsd);
        if (!this.stop.signal.aborted) this.stop.abort(new Error(reason));
        return { ok: false, reason };
      }
      if (this.settled + this.reserved + usd <= this.capUsd) break;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    const reservation = { id: String(this.nextId++), usd };
    this.held.set(reservation.id, usd);
    return { ok: true, reservation };
  }

  /** Replaces a hold by what the call cost (once; a second settle of the same hold is ignored). */
  settle(reservation: Reservation, usd: number): void {
    if (!this.held.delete(reservation.id)) return;
    this.settled += usd;
    const wake = this.waiting;
    this.waiting = [];
    for (const w of wake) w();
  }
}
