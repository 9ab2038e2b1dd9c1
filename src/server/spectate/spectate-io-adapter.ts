import type { IncomingMessage } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import type { Namespace, Server, ServerOptions, Socket } from 'socket.io';
import type { ServerSettings } from '../config.js';
import { ClientAddresses } from '../http/client-address.js';
import { securityHeaders } from '../http/security-headers.js';
import type { JsonLogger } from '../../lib/json-logger.js';
import { SocketGate } from './socket-gate.js';

/**
 * How long a connection may stay open without joining a namespace (socket.io's default is 45 s):
 * a socket.io client asks for its namespace at once; only a client that does not still waits.
 */
const CONNECT_TIMEOUT_MS = 10_000;

/** engine.io's connection: the handshake request and a close. */
type EngineConnection = { request: IncomingMessage; close(): void; once(event: 'close', listener: () => void): unknown };

/**
 * Nest's socket.io adapter, plus the edges of socket.io: engine.io answers its long-polling and
 * upgrade requests itself, before Express, so the security headers are its middleware too; and
 * connections are counted by client address (SocketGate). A connection past the limits is refused
 * when it opens a namespace, with a `connect_error` saying why (`data.code` connect/address_limit
 * or connect/server_full), and closed.
 *
 * @example app.useWebSocketAdapter(new SpectateIoAdapter(app, settings, logger))
 */
export class SpectateIoAdapter extends IoAdapter {
  private readonly gate: SocketGate;
  private readonly addresses: ClientAddresses;

  constructor(
    app: INestApplicationContext,
    settings: Pick<ServerSettings, 'socketsPerIp' | 'socketsMax' | 'trustProxy'>,
    private readonly log?: JsonLogger,
  ) {
    super(app);
    this.gate = new SocketGate({ perAddress: settings.socketsPerIp, total: settings.socketsMax });
    this.addresses = new ClientAddresses(settings.trustProxy);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    // Nest passes a partial ServerOptions, typed as the whole: socket.io fills in the rest.
    const server = super.createIOServer(port, {
      ...options,
      connectTimeout: CONNECT_TIMEOUT_MS,
      allowRequest: (req, answer) => {
        const address = this.addresses.of(req);
        const ok = this.gate.mayOpen(address);
        // info, not warn: a flood would otherwise flood the log too.
        if (!ok) this.log?.emit('info', 'socket.io: handshake refused (the address holds twice its limit)', { address });
        answer(ok ? null : `too many connections from ${address}`, ok);
      },
    } as ServerOptions);
    server.engine.use(securityHeaders);
    server.engine.on('connection', (conn: EngineConnection) => {
      this.gate.opened(conn, this.addresses.of(conn.request));
      conn.once('close', () => this.gate.closed(conn));
    });
    // Every namespace, the root one included: any of them would hold the connection open.
    const guard = (ns: Namespace) => ns.use((socket, next) => this.admit(socket, next));
    guard(server.of('/'));
    server.on('new_namespace', guard);
    return server;
  }

  private admit(socket: Socket, next: (err?: Error) => void): void {
    const refusal = this.gate.admit(socket.conn);
    if (!refusal) return next();
    this.log?.emit('info', 'socket.io: connection refused', { code: refusal.code, address: this.addresses.of(socket.request) });
    next(Object.assign(new Error(refusal.message), { data: { code: refusal.code } }));
    // After socket.io has queued the connect_error (it does so on the next tick); the connection
    // then closes once that is written.
    setImmediate(() => socket.conn.close());
  }
}
