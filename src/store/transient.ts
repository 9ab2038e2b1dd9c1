/**
 * Which store errors are worth waiting out. A transient error says the database was briefly not
 * there or not able to answer (a restart, a dropped or terminated connection, a refused
 * connection, too many connections, a serialization failure or deadlock, a timeout): the same
 * call can succeed later. Everything else (a constraint, a bad query, a missing game, a closed
 * store) is permanent, and retrying it only hides a bug.
 */

/** SQLSTATEs that a later attempt can get past. */
const TRANSIENT_SQLSTATE = [
  /^08/, // connection exception (refused, lost, failed)
  /^57P0[123]$/, // admin shutdown, crash shutdown, cannot connect now (starting up)
  /^40001$/, // serialization failure
  /^40P01$/, // deadlock detected
  /^53300$/, // too many connections
  /^53400$/, // configuration limit exceeded
  /^57014$/, // query canceled (statement timeout)
  /^55P03$/, // lock not available
];

/** Prisma's codes for the same: cannot reach, timed out, server closed the connection, pool timeout, write conflict, too many connections. */
const TRANSIENT_PRISMA = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2034', 'P2037']);

/** Driver-adapter kinds that mean the server is away, not that the query is wrong. */
const TRANSIENT_KIND = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionWriteConflict']);

/** Socket errors of the driver (pg) when the server is down or the network blips. */
const TRANSIENT_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTCONN', 'ECONNABORTED']);

/** What drivers say in words only (pg's own errors carry no code). */
const TRANSIENT_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|terminating connection|server closed the connection|is not currently accepting connections|the database system is (starting up|shutting down|in recovery mode)|Client has encountered a connection error|Connection refused/i;

/** Our own store was closed: never coming back, whatever the driver says. */
const CLOSED_MESSAGE = /after calling end on the pool|PGlite is closed|Cannot use a pool after calling end/i;

type Fields = { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; errors?: unknown; meta?: unknown };

/**
 * Every error the given one carries: itself, its `cause` chain, an AggregateError's `errors`
 * (Node's connect to a host with several addresses), and the driver-adapter error Prisma keeps in
 * `meta.driverAdapterError`. Bounded, so a cyclic chain cannot loop.
 */
export function errorChain(e: unknown, limit = 24): Fields[] {
  const out: Fields[] = [];
  const queue: unknown[] = [e];
  const seen = new Set<unknown>();
  while (queue.length && out.length < limit) {
    const x = queue.shift();
    if (x === null || typeof x !== 'object' || seen.has(x)) continue;
    seen.add(x);
    const f = x as Fields;
    out.push(f);
    queue.push(f.cause);
    if (Array.isArray(f.errors)) queue.push(...(f.errors as unknown[]));
    const adapter = (f.meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError;
    if (adapter) queue.push(adapter);
  }
  return out;
}

/**
 * Whether waiting and trying again can help.
 *
 * @example isTransient(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })) // true
 */
export function isTransient(e: unknown): boolean {
  const chain = errorChain(e);
  if (chain.some((f) => typeof f.message === 'string' && CLOSED_MESSAGE.test(f.message))) return false;
  return chain.some((f) => {
    const code = typeof f.code === 'string' ? f.code : '';
    if (typeof f.kind === 'string' && TRANSIENT_KIND.has(f.kind)) return true;
    if (f.kind === 'postgres' || /^[0-9A-Z]{5}$/.test(code)) {
      if (TRANSIENT_SQLSTATE.some((r) => r.test(code))) return true;
    }
    if (TRANSIENT_PRISMA.has(code) || TRANSIENT_ERRNO.has(code)) return true;
    return typeof f.message === 'string' && TRANSIENT_MESSAGE.test(f.message);
  });
}

/**
 * The whole cause chain in one line, outermost first, each link once: "StoreUnavailableError: the
 * database went away ← DriverAdapterError: terminating connection… (57P01)". For failure reasons
 * and logs, where the first line alone lost the cause ("its job failed on a worker: ").
 *
 * @example describeChain(new Error('append failed', { cause: new Error('ECONNREFUSED') })) // 'Error: append failed ← Error: ECONNREFUSED'
 */
export function describeChain(e: unknown, maxLength = 2_000): string {
  const parts: string[] = [];
  for (const f of errorChain(e, 8)) {
    const name = (f as { name?: unknown }).name;
    const message = typeof f.message === 'string' ? gist(f.message) : '';
    const code = typeof f.code === 'string' && !message.includes(f.code) ? ` (${f.code})` : '';
    const text = `${typeof name === 'string' && name ? `${name}: ` : ''}${message || '(no message)'}${code}`;
    if (!parts.some((p) => p.includes(message) && message !== '')) parts.push(text);
  }
  if (parts.length === 0) parts.push(String(e));
  const line = parts.join(' ← ');
  return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line;
}

/**
 * A message's telling line: the first, except for Prisma's "Invalid `…` invocation in" preamble,
 * whose last line holds what the database said.
 */
function gist(message: string): string {
  const lines = message.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) return '';
  return (/^Invalid `/.test(lines[0]!) ? lines[lines.length - 1]! : lines[0]!).slice(0, 500);
}
