import type { CallStatus } from './types.js';
import { retryAfterMs } from './retry-after.js';

export type HttpFailure = { status: CallStatus; error: string; retryAfterMs: number | null };

/**
 * Maps a non-2xx reply to a call status: 429 → rate_limited, 5xx (Anthropic's 529 overloaded
 * included) → unavailable, any other status → error. The error line carries the server's own
 * message, read from the shapes OpenAI-compatible servers and Anthropic use.
 *
 * @example
 * httpFailure(429, new Headers({ 'retry-after': '3' }), '{"error":{"message":"slow down"}}', Date.now());
 * // { status: 'rate_limited', error: 'HTTP 429: slow down', retryAfterMs: 3000 }
 */
export function httpFailure(
  httpStatus: number,
  headers: Headers,
  text: string,
  nowMs: number,
): HttpFailure {
  const status: CallStatus =
    httpStatus === 429 ? 'rate_limited' : httpStatus >= 500 ? 'unavailable' : 'error';
  return {
    status,
    error: `HTTP ${httpStatus}: ${serverMessage(text)}`,
    retryAfterMs: retryAfterMs(headers, nowMs),
  };
}

/**
 * `{error: {message}}` (OpenAI, Anthropic's `{type: 'error', error: {type, message}}`, vLLM),
 * `{error: "…"}` (Ollama), `{message}` or `{detail}` (assorted proxies); else the start of the body.
 */
export function serverMessage(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return snippet(text);
  }
  const error = field(body, 'error');
  const message =
    field(error, 'message') ?? error ?? field(body, 'message') ?? field(body, 'detail');
  return typeof message === 'string' && message !== '' ? message : snippet(text);
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object'
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function snippet(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '') return '(empty body)';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
