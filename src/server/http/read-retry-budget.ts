import type { EventStore } from '../../store/index.js';

/** How long a GET waits for a database that went away before it answers 503 (ms). */
export const READ_RETRY_MS = 5_000;

type Next = () => void;

/**
 * Express middleware: GET and HEAD requests run with a store wait budget of READ_RETRY_MS (the
 * error filter turns what is left of an outage into a 503), everything else with the store's own.
 */
export function readRetryBudget(store: EventStore): (req: { method?: string }, res: unknown, next: Next) => void {
  return (req, _res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') store.withRetryBudget(READ_RETRY_MS, next);
    else next();
  };
}
