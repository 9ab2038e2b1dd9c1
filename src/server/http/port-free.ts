import { createServer } from 'node:net';

/**
 * Rejects with EADDRINUSE (or whatever binding fails with) when host:port cannot be listened on,
 * before anything is opened or created: a server that cannot listen must not resume games or deal
 * a demo game it will never serve (a later `resume` would play it). Port 0 is always free.
 *
 * @example await assertPortFree('127.0.0.1', 3000)
 */
export function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
