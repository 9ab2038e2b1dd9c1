import { io, type Socket } from 'socket.io-client';

/** The server → client messages of `/spectate` the visualizer uses (see src/server/spectate/messages.ts). */
export type SnapshotMsg = { game_id: string; seq: number; view: string; state: unknown; state_hash: string };
export type EventMsg = { game_id: string; seq: number; event: { seq: number } & Record<string, unknown>; committed_at: number | null; sent_at: number };
export type StateHashMsg = { game_id: string; seq: number; view: string; state_hash: string };
export type LobbyNoticeMsg = { type: 'game_started' | 'game_ended'; game_id: string; agents?: string[]; placements?: unknown; at: string };
export type ErrorMsg = { code: string; message: string };

/**
 * One socket.io connection to `/spectate` (websocket transport: no long-polling fallback needed on
 * the same origin). Socket.io reconnects by itself; callers re-send `join`/`lobby` on `connect`.
 */
export function spectateSocket(token: string): Socket {
  return io('/spectate', {
    transports: ['websocket'],
    auth: token ? { token } : {},
    reconnectionDelay: 250,
    reconnectionDelayMax: 2000,
  });
}

/** Answers heartbeats so the server does not drop a quiet tab as stale. */
export function keepAlive(socket: Socket): void {
  socket.on('heartbeat', () => socket.emit('heartbeat_ack'));
}
