import { checkJsonBounds, describeBoundsFailure } from '../protocol/json-bounds.js';
import type { CallStatus, PriceTable, ProviderRequest, ProviderResult, Usage } from './types.js';
import { costOf } from './pricing.js';
import { httpFailure } from './http-failure.js';
import { postJson } from './http-post.js';
import { requestHash } from './request-hash.js';

/** What a wire format made of a 2xx body: everything but latency, cost and the request's identity. */
export type WireReading = {
  status: Extract<CallStatus, 'ok' | 'malformed' | 'refused' | 'error'>;
  json: unknown;
  text: string;
  usage: Usage;
  error: string | null;
  /** The model id the server says it ran (dated or routed), priced first when it is in the table. */
  servedModel: string | null;
};

export type HttpExchange = {
  provider: string;
  prices: PriceTable;
  fetch: typeof fetch;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Reads a 2xx body that parsed as JSON; never throws. */
  read: (body: unknown) => WireReading;
};

export const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0 };

/** A reading with no answer; wire readers spread usage and servedModel over it when they have them. */
export function reading(status: WireReading['status'], text: string, error: string): WireReading {
  return { status, json: null, text, usage: NO_USAGE, error, servedModel: null };
}

/**
 * The part every HTTP provider shares: one POST under the request's deadline and signal, then one
 * ProviderResult whatever happened — timeouts, network failures, HTTP errors and unreadable bodies
 * become statuses, so a provider built on this never throws for remote behaviour. Wire formats only
 * supply the URL, headers, body and a reader for the success body.
 *
 * @example
 * return callOverHttp(req, { provider: 'openai', prices, fetch, url, headers, body, read: readChatCompletion });
 */
export async function callOverHttp(req: ProviderRequest, x: HttpExchange): Promise<ProviderResult> {
  const base = { provider: x.provider, model: req.model, requestHash: requestHash(req) };
  const started = performance.now();
  const out = await postJson({
    fetch: x.fetch,
    url: x.url,
    headers: x.headers,
    body: x.body,
    deadlineMs: req.deadlineMs,
    signal: req.signal,
  });
  const latencyMs = performance.now() - started;
  const failed = (
    status: CallStatus,
    error: string,
    retryAfterMs: number | null = null,
  ): ProviderResult => ({
    ...base,
    status,
    error,
    retryAfterMs,
    latencyMs,
    json: null,
    text: '',
    usage: NO_USAGE,
    costUsd: 0,
  });

  if (out.kind === 'timeout') return failed('timeout', out.error);
  if (out.kind === 'network') return failed('unavailable', out.error);
  if (out.status < 200 || out.status > 299) {
    const f = httpFailure(out.status, out.headers, out.text, Date.now());
    return failed(f.status, f.error, f.retryAfterMs);
  }
  let body: unknown;
  try {
    body = JSON.parse(out.text);
  } catch {
    return failed('error', `HTTP ${out.status} with a body that is not JSON`);
  }
  // A hostile or broken endpoint must not reach the recursive readers below with a deep body.
  const bounds = checkJsonBounds(body);
  if (bounds) return failed('malformed', `HTTP ${out.status} body refused: ${describeBoundsFailure(bounds)}`);
  const r = x.read(body);
  // Price what was served when the table knows it (a router's pick, a dated id), else what was asked.
  const served = r.servedModel === null ? null : costOf(x.prices, r.servedModel, r.usage);
  const cost = served?.known ? served : costOf(x.prices, req.model, r.usage);
  return {
    ...base,
    status: r.status,
    json: r.status === 'ok' ? r.json : null,
    text: r.text,
    usage: r.usage,
    costUsd: cost.usd,
    latencyMs,
    error: r.error,
    retryAfterMs: null,
  };
}
