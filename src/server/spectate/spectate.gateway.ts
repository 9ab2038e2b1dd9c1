import {
  ConnectedSocket,
  MessageBody,
  SubscribeMessage,
  WebSocketGateway,
  type OnGatewayConnection,
  type OnGatewayDisconnect,
  type OnGatewayInit,
} from '@nestjs/websockets';
import type { SpectateNamespace, SpectateSocket } from './messages.js';
import { SpectateService } from './spectate.service.js';

/**
 * `/spectate`: socket.io for people watching games. Translates socket events into calls on
 * SpectateService and nothing more; the protocol is in messages.ts.
 */
@WebSocketGateway({ namespace: '/spectate' })
export class SpectateGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  constructor(private readonly spectate: SpectateService) {}

  afterInit(ns: SpectateNamespace): void {
    this.spectate.attach(ns);
  }

  handleConnection(socket: SpectateSocket): void {
    this.spectate.connected(socket);
  }

  handleDisconnect(socket: SpectateSocket): void {
    this.spectate.disconnected(socket);
  }

  @SubscribeMessage('join')
  join(@ConnectedSocket() socket: SpectateSocket, @MessageBody() payload: unknown): Promise<void> {
    return this.spectate.join(socket, payload);
  }

  @SubscribeMessage('leave')
  leave(@ConnectedSocket() socket: SpectateSocket): void {
    this.spectate.leave(socket);
  }

  @SubscribeMessage('lobby')
  lobby(@ConnectedSocket() socket: SpectateSocket, @MessageBody() payload: unknown): void {
    this.spectate.lobby(socket, payload);
  }

  /** Nothing to do: receiving it (any message) is what keeps the client fresh. */
  @SubscribeMessage('heartbeat_ack')
  heartbeatAck(): void {}
}
