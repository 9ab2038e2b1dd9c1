import type { SpectateSocket as Socket } from './messages.js';

/**
 * How many packets socket.io holds for this client that its connection has not taken yet.
 * engine.io queues them in `writeBuffer` while the transport is busy: a websocket waiting for the
 * kernel to accept its last batch (the client reads too slowly), or a long-poll waiting for the
 * client's next request. The field is typed private but is the only measure of a client's
 * backlog that counts what a room broadcast queued too; missing, it reads as 0.
 *
 * @example if (pendingPackets(socket) > 1000) dropWithResync(socket)
 */
export function pendingPackets(socket: Socket): number {
  const conn = socket.conn as unknown as { writeBuffer?: readonly unknown[] };
  return conn.writeBuffer?.length ?? 0;
}

/**
 * Resolves once the connection has handed its queued packets to the transport (engine.io's
 * `drain`), or `timeoutMs` passed, or the socket disconnected: true only in the first case.
 */
export function drained(socket: Socket, timeoutMs: number): Promise<boolean> {
  if (socket.disconnected) return Promise.resolve(false);
  if (pendingPackets(socket) === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      socket.conn.off('drain', onDrain);
      socket.off('disconnect', onGone);
      resolve(ok);
    };
    const onDrain = () => finish(true);
    const onGone = () => finish(false);
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.conn.on('drain', onDrain);
    socket.once('disconnect', onGone);
  });
}
