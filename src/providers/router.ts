import { abortableSleep } from '../lib/abortable-sleep.js';
import type { BudgetAlert, BudgetMeter } from './budget.js';
import { worstCallUsd, type CostLedger } from './spend-ledger.js';
import type { PriceTable, Provider, ProviderRequest, ProviderResult } from './types.js';

/** A model on a provider, as users write it: `openai:gpt-4o-mini`, `mock`, `ollama:llama3.1`. */
export type ModelRef = { provider: string; model: string };
export const modelRefText = (m: ModelRef): string => `${m.provider}:${m.model}`;

/** A tournament's cost cap as routing sees it: the shared ledger and the prices to reserve at. */
export type SpendCap = { ledger: CostLedger; prices: PriceTable };

export type RouteOptions = {
  providers: ReadonlyMap<string, Provider>;
  /** The seat's model, then its fallbacks in order. */
  chain: readonly ModelRef[];
  budgets: { decision: BudgetMeter; game: BudgetMeter };
  sleep?: (ms: number) => Promise<void>;
  /** The longest a 429/503 wait may be (a longer Retry-After moves on to the next model). */
  maxWaitMs?: number;
  /** Waits (on 429/5xx) per model before moving on. */
  maxWaits?: number;
  onCall?: (result: ProviderResult) => void;
  onAlert?: (alert: BudgetAlert) => void;
  /** Every call (each retry too) reserves its worst case here first and is not sent if that would pass the cap. */
  spend?: SpendCap;
};

export type RouteResult = {
  /** The answer-bearing result (status ok or malformed), or the last failure, or null if no call was made. */
  result: ProviderResult | null;
  /** Whether a model produced text to work with (ok or malformed). */
  answered: boolean;
  /** The chain position of the model `result` came from (null when no call was made): a repair turn goes back to it. */
  chainIndex: number | null;
  /** Why routing stopped without an answer. */
  reason: string | null;
  calls: number;
  /** Set when the cost cap refused a call: the decision must not be committed (the game stops here). */
  capped?: string;
};

/**
 * Routes one request along a model chain, within budgets (docs/providers.md has the table):
 * a timed-out call is retried once on the same model; a 429 waits for Retry-After (or an exponential
 * backoff from 250 ms) and is retried while the decision's wall budget lasts (without one, waits over
 * `maxWaitMs` move on); a 5xx waits so up to
 * `maxWaits` times; a refusal, an error, or a model out of
 * retries hands over to the next model. An exhausted decision or game budget stops routing before
 * the next call. Malformed answers are returned: repairing them is the caller's job.
 *
 * @example const r = await route({ messages, answer, maxOutputTokens: 800, deadlineMs: 20_000 }, { providers, chain, budgets });
 */
export async function route(request: Omit<ProviderRequest, 'model'>, options: RouteOptions): Promise<RouteResult> {
  const { budgets } = options;
  const sleep = options.sleep ?? abortableSleep;
  const maxWaitMs = options.maxWaitMs ?? 10_000;
  const maxWaits = options.maxWaits ?? 2;
  let last: ProviderResult | null = null;
  let lastIndex: number | null = null;
  let calls = 0;
  // Since when the next attempt has been waiting to be sent: the route's start, then each attempt's
  // end (so a retry's backoff and the cap's holds count as queued, never as the model's latency).
  let waitingSince = performance.now();

  const exhausted = (): string | null => {
    for (const meter of [budgets.decision, budgets.game]) {
      const dim = meter.exhausted();
      if (dim) return `${meter.scope} budget exhausted (${dim})`;
    }
    return null;
  };
  const charge = (r: ProviderResult) => {
    const spend = { tokens: r.usage.inputTokens + r.usage.outputTokens, wallMs: r.latencyMs, costUsd: r.costUsd };
    for (const meter of [budgets.decision, budgets.game]) for (const a of meter.charge(spend)) options.onAlert?.(a);
  };

  for (const [index, ref] of options.chain.entries()) {
    const provider = options.providers.get(ref.provider);
    // A model whose provider is not configured is skipped; the last failure (if any) still stands.
    if (!provider) continue;
    let timeouts = 0;
    let waits = 0;
    for (;;) {
      const stop = exhausted();
      if (stop) return { result: last, answered: false, reason: stop, calls, chainIndex: lastIndex };
      // Whole ms: spent wall time is fractional, and AbortSignal.timeout refuses a fractional delay.
      const deadlineMs = Math.max(1, Math.floor(Math.min(request.deadlineMs, budgets.decision.wallLeftMs(), budgets.game.wallLeftMs())));
      const hold = await reserve(options.spend, request, ref);
      if (hold && !hold.ok) return { result: last, answered: false, reason: hold.reason, calls, chainIndex: lastIndex, capped: hold.reason };
      const settle = (usd: number) => hold && options.spend?.ledger.settle(hold.reservation, usd);
      const queuedMs = performance.now() - waitingSince;
      const sent = await provider.call({ ...request, model: ref.model, deadlineMs }).catch((e: unknown) => {
        settle(hold?.reservation.usd ?? 0);
        throw e;
      });
      waitingSince = performance.now();
      const r: ProviderResult = { ...sent, queuedMs };
      // A call cut off by its deadline may still be billed: it keeps its whole reservation.
      settle(r.status === 'timeout' ? (hold?.reservation.usd ?? 0) : r.costUsd);
      calls++;
      last = r;
      lastIndex = index;
      options.onCall?.(r);
      charge(r);
      if (r.status === 'ok' || r.status === 'malformed') return { result: r, answered: true, reason: null, calls, chainIndex: index };
      if (r.status === 'timeout' && timeouts++ === 0) continue;
      // A 429 says "later", not "no": it is retried for as long as the decision's budget lasts
      // (honouring Retry-After), whereas a 5xx gets maxWaits waits before the next model.
      const limited = r.status === 'rate_limited' && waits < MAX_RATE_LIMIT_WAITS;
      if (limited || (r.status === 'unavailable' && waits < maxWaits)) {
        const wait = r.retryAfterMs ?? Math.min(250 * 2 ** waits, 8_000);
        waits++;
        const left = Math.min(budgets.decision.wallLeftMs(), budgets.game.wallLeftMs());
        // Without a wall budget a 429 has nothing to be measured against but the cap.
        if ((!(limited && Number.isFinite(left)) && wait > maxWaitMs) || wait >= left) break;
        await sleep(wait);
        for (const meter of [budgets.decision, budgets.game]) for (const a of meter.charge({ wallMs: wait })) options.onAlert?.(a);
        continue;
      }
      break; // refused, error, out of retries: the next model
    }
  }
  return { result: last, answered: false, reason: last ? `no model answered (last: ${last.provider}:${last.model} ${callCause(last)})` : 'no provider is configured for this chain', calls, chainIndex: lastIndex };
}

/** The call's reservation on the cap (null without one); a model with no price is refused outright. */
async function reserve(spend: SpendCap | undefined, request: Omit<ProviderRequest, 'model'>, ref: ModelRef) {
  if (!spend) return null;
  const usd = worstCallUsd(spend.prices, { ...request, model: ref.model });
  if (usd === null) return { ok: false as const, reason: `cost cap: ${modelRefText(ref)} has no price, so nothing bounds what it costs (add it to the providers file's "prices")` };
  return spend.ledger.reserve(usd, modelRefText(ref));
}

/** Waits on 429 per model: bounded so a server answering 429 with Retry-After: 0 cannot loop forever. */
export const MAX_RATE_LIMIT_WAITS = 30;

/**
 * A failed call's cause in one phrase: its error, which names it already (a refusal's error is
 * "refused: …"; "refused: refused: …" helps no one), prefixed only for an unreadable reply.
 *
 * @example callCause({ status: 'refused', error: 'refused: I cannot help' }) // 'refused: I cannot help'
 */
export function callCause(r: Pick<ProviderResult, 'status' | 'error'>): string {
  if (!r.error) return r.status;
  // The transport's and the server's own words already say what happened ("connection refused (…)",
  // "timeout after 500 ms", "HTTP 429: …"); only a reply that could not be read needs its status.
  return r.status === 'malformed' && !r.error.startsWith('malformed') ? `malformed: ${r.error}` : r.error;
}
