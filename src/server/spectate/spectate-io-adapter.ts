import { IoAdapter } from '@nestjs/platform-socket.io';
import type { Server, ServerOptions } from 'socket.io';
import { securityHeaders } from '../http/security-headers.js';

/**
 * Nest's socket.io adapter, plus what the HTTP side of socket.io needs: engine.io answers its
 * long-polling and upgrade requests itself, before Express, so the security headers are its
 * middleware too.
 *
 * @example app.useWebSocketAdapter(new SpectateIoAdapter(app))
 */
export class SpectateIoAdapter extends IoAdapter {
  override createIOServer(port: number, options?: ServerOptions): Server {
    const server = super.createIOServer(port, options);
    server.engine.use(securityHeaders);
    return server;
  }
}
