/**
 * How long the server asked us to wait, in ms, or null when it did not say (or said nonsense).
 * Reads OpenAI's `retry-after-ms` first (finer grained), then the standard `Retry-After` as
 * delay-seconds or an HTTP date (a date in the past means "now": 0).
 *
 * @example
 * retryAfterMs(new Headers({ 'retry-after': '2' }), Date.now()); // 2000
 * retryAfterMs(new Headers({ 'retry-after': 'Wed, 21 Oct 2037 07:28:00 GMT' }), Date.now()); // ms until then
 */
export function retryAfterMs(headers: Headers, nowMs: number): number | null {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.round(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
