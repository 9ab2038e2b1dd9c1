import { createServer } from 'node:http';
import { Server } from 'socket.io';
import { Watcher, type WatcherOptions } from '../spectate-support.js';
import type { SpectateNamespace } from '../../../src/server/spectate/messages.js';
import type { SpectateService } from '../../../src/server/spectate/spectate.service.js';

export type ServedSpectate = {
  url: string;
  /** A connected client, closed with the server. */
  watch(options?: WatcherOptions): Promise<Watcher>;
  close(): Promise<void>;
};

/**
 * A SpectateService without Nest, on a real socket.io server on a random loopback port, wired as
 * the gateway wires it, for int tests that own the service's store, bus, limits and clock.
 * `through` stands between the feeds and the namespace they send on (a test that times sending).
 *
 * @example const served = await serveSpectate(service); (await served.watch()).join({ gameId }); await served.close()
 */
export async function serveSpectate(service: SpectateService, through: (ns: SpectateNamespace) => SpectateNamespace = (ns) => ns): Promise<ServedSpectate> {
  const http = createServer();
  const io = new Server(http);
  const ns = io.of('/spectate') as unknown as SpectateNamespace;
  service.attach(through(ns));
  ns.on('connection', (socket) => {
    service.connected(socket);
    socket.on('join', (p: unknown) => void service.join(socket, p));
    socket.on('lobby', (p: unknown) => service.lobby(socket, p));
    socket.on('leave', () => service.leave(socket));
    socket.on('disconnect', () => service.disconnected(socket));
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  const watchers: Watcher[] = [];
  return {
    url,
    async watch(options) {
      const w = await Watcher.connect(url, options);
      watchers.push(w);
      return w;
    },
    async close() {
      for (const w of watchers) w.close();
      service.onModuleDestroy();
      await new Promise<void>((r) => void io.close(() => r()));
    },
  };
}
