/** What one POST came to: a response read in full, the deadline (or the caller) cutting it off, or the network failing. */
export type PostOutcome =
  | { kind: 'response'; status: number; headers: Headers; text: string }
  | { kind: 'timeout'; error: string }
  | { kind: 'network'; error: string };

export type PostJson = {
  fetch: typeof fetch;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  deadlineMs: number;
  signal?: AbortSignal;
};

/** AbortSignal.timeout rejects delays outside [0, 2^32 − 1]; a nonsense deadline means "already due". */
const MAX_TIMER_MS = 2 ** 32 - 1;

/**
 * POSTs JSON and reads the whole reply under one deadline: the timer covers connecting, the headers
 * and the body, so a server that sends headers and then stalls still times out. Never throws.
 *
 * @example
 * const out = await postJson({ fetch, url, headers: {}, body: { model: 'm' }, deadlineMs: 5_000 });
 * if (out.kind === 'response') console.log(out.status, out.text);
 */
export async function postJson(p: PostJson): Promise<PostOutcome> {
  const deadline = AbortSignal.timeout(
    Number.isFinite(p.deadlineMs) ? Math.floor(Math.min(Math.max(0, p.deadlineMs), MAX_TIMER_MS)) : 0,
  );
  const signal = p.signal ? AbortSignal.any([deadline, p.signal]) : deadline;
  try {
    const res = await p.fetch(p.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...p.headers },
      body: JSON.stringify(p.body),
      signal,
    });
    return { kind: 'response', status: res.status, headers: res.headers, text: await res.text() };
  } catch (err) {
    // Ask the signals, not the error: fetch surfaces an abort as whatever reason the signal carried.
    if (deadline.aborted)
      return { kind: 'timeout', error: `timeout after ${p.deadlineMs} ms (no complete reply within the deadline)` };
    if (p.signal?.aborted)
      return { kind: 'timeout', error: `cancelled by the caller (${describe(p.signal.reason)})` };
    return { kind: 'network', error: networkCause(err instanceof Error && err.cause !== undefined ? err.cause : err) };
  }
}

/** The plain-words name of the usual network failures, then Node's own description. */
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connect timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
};

function networkCause(err: unknown): string {
  const text = describe(err);
  const code = Object.keys(NETWORK_WORDS).find((c) => text.includes(c));
  return code ? `${NETWORK_WORDS[code]} (${text})` : `network: ${text}`;
}

/** Node's fetch hides the useful part (ECONNREFUSED…) in `cause`, sometimes an AggregateError with no message. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  const message = err.message || err.name;
  return typeof code === 'string' && !message.includes(code) ? `${code} ${message}` : message;
}
