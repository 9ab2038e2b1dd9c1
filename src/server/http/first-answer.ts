import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long a server nobody asks anything waits before it starts its background work anyway. */
export const IDLE_START_MS = 1000;

/**
 * `answered()` resolves once the server has sent its first complete answer, or `idleMs` after it
 * was called (call it once listening) if nobody asks.
 * The demo table is dealt behind it: dealing (and the first steps, PGlite's synchronous WASM on
 * this thread) made a fresh server answer its first /health a second late, since the probe that
 * arrives just after listening queued behind that work. `middleware` must run on every request.
 *
 * @example const first = firstAnswer(); app.use(first.middleware); await app.listen(0); await first.answered();
 */
export function firstAnswer(idleMs = IDLE_START_MS): { middleware: (req: IncomingMessage, res: ServerResponse, next: () => void) => void; answered: () => Promise<void> } {
  let done = false;
  let resolve!: () => void;
  const first = new Promise<void>((r) => (resolve = r));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    resolve();
  };
  return {
    answered() {
      if (!done && !timer) (timer = setTimeout(finish, idleMs)).unref();
      return first;
    },
    middleware(_req, res, next) {
      if (!done) res.once('finish', finish);
      next();
    },
  };
}
