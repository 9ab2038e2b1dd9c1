import { z } from 'zod';
import type { StateView } from '../../game/index.js';
import type { GameEvent } from '../../protocol/index.js';
import type { BroadcastOperator, Namespace, Socket } from 'socket.io';
import type { LobbyNotice } from '../../live/game-bus.js';
import { SafeString } from '../safe-text.js';
import type { TournamentEndedNotice, TournamentGameEndedNotice, TournamentStartedNotice } from '../../live/tournament-notices.js';

/**
 * The `/spectate` socket protocol, both ways. Clients send `join`, `leave`, `lobby` and
 * `heartbeat_ack` (any message counts as a sign of life); the server sends the rest.
 */

/** No NUL, control character or lone surrogate in anything a client names (a join error, not a 500). */
const Token = SafeString.min(1).max(512);

/**
 * `join`: follow one game (a socket follows at most one; a new join replaces the old one once it
 * is accepted). `afterSeq` resumes after the last seq the client holds; without it the client
 * starts at the head it may see. Strict, so a misspelt `after_seq` is an error rather than a
 * silent restart from the head.
 */
export const JoinMessage = z.strictObject({
  gameId: SafeString.min(1).max(200),
  afterSeq: z.int().min(0).optional(),
  /** spectator | researcher | admin | plr_N (default: the token's role). */
  view: SafeString.min(1).max(40).optional(),
  /** Falls back to the handshake's `auth.token`. */
  token: Token.optional(),
});
export type JoinMessage = z.infer<typeof JoinMessage>;

/** `lobby`: hear games and tournaments start and end. Admins and researchers hear ends live. */
export const LobbyMessage = z.strictObject({ token: Token.optional() }).optional();

export const ERROR_CODES = [
  'join/invalid',
  'join/seq_out_of_range',
  'join/rate_limited',
  'lobby/invalid',
  'game/not_found',
  /** The game's stored log failed its integrity check: nothing more of it is sent. */
  'game/integrity',
  'auth/unauthorized',
  'auth/forbidden',
  'server/unavailable',
  'tournament/duplicate_set_running',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Server → client messages, by event name. */
export type ServerMessages = {
  /** A refused request; nothing else changed (a current subscription carries on). */
  error: { code: ErrorCode; message: string };
  /** The viewer's projected state after `seq`; events follow from seq + 1. */
  snapshot: { game_id: string; seq: number; view: string; state: StateView; state_hash: string };
  /**
   * One projected event. `committed_at` (ms) when the server saw it committed, null for events
   * read back from the store; `sent_at` (ms) when the server emitted it.
   */
  event: { game_id: string; seq: number; event: GameEvent; committed_at: number | null; sent_at: number };
  /**
   * Each seat's chance to win after event `seq` (src/eval), for this view: sent after the events
   * of each step the client is sent (and on joining), folded from those same events only. `form`:
   * public (read off the public table) or omniscient (admins, the broadcast, researchers once the
   * game is over); `p` by player id sums to 1.
   */
  win_probability: { game_id: string; seq: number; view: string; model: string; form: 'public' | 'omniscient'; p: Record<string, number> };
  /** Follows event `seq` when seq is a multiple of the hash interval: the snapshot hash there. */
  state_hash: { game_id: string; seq: number; view: string; state_hash: string };
  /** The client fell too far behind: join again with `afterSeq: seq` (the last seq it was sent). */
  resync: { game_id: string; seq: number; reason: string };
  /** Answer with `heartbeat_ack` (or anything) within the stale limit or be disconnected. */
  heartbeat: { ts: number; seq: number | null };
  lobby_joined: { role: string };
  game_started: LobbyNotice & { type: 'game_started' };
  game_ended: LobbyNotice & { type: 'game_ended' };
  /** A game whose runner failed too often in a row: it is `failed` and will not be resumed. */
  game_failed: LobbyNotice & { type: 'game_failed' };
  /** Tournaments (schemas in src/live/tournament-notices.ts): started, one of its games ended, ended. */
  tournament_started: TournamentStartedNotice;
  tournament_game_ended: TournamentGameEndedNotice;
  tournament_ended: TournamentEndedNotice;
};

/**
 * The `event` message for one projected event, laid out in one place for every path (live
 * broadcast, catch-up from memory or from the store): socket.io writes it with JSON.stringify, so
 * a spectator's bytes depend only on the event object, which reaches here in the log's key order
 * whichever way it came (see bus-channel.ts).
 *
 * @example ns.to(room).emit('event', eventMessage('game_ab12', projected, 1_700_000_000_000, Date.now()))
 */
export const eventMessage = (gameId: string, event: GameEvent, committedAt: number | null, sentAt: number): ServerMessages['event'] => ({
  game_id: gameId,
  seq: event.seq,
  event,
  committed_at: committedAt,
  sent_at: sentAt,
});

/** What clients may send: payloads are unknown until a schema has parsed them. */
export type ClientMessages = {
  join: (payload: unknown) => void;
  leave: (payload?: unknown) => void;
  lobby: (payload?: unknown) => void;
  heartbeat_ack: (payload?: unknown) => void;
};
export type ServerEmits = { [K in keyof ServerMessages]: (message: ServerMessages[K]) => void };
export type SpectateSocket = Socket<ClientMessages, ServerEmits>;
export type SpectateNamespace = Namespace<ClientMessages, ServerEmits>;

/**
 * Sends a lobby notice under the event name its `type` gives: every ServerMessages entry of that
 * name is exactly that member of the union, which TypeScript cannot pair up on its own.
 */
export function emitNotice(to: BroadcastOperator<ServerEmits, unknown>, notice: LobbyNotice): void {
  (to as unknown as { emit(event: LobbyNotice['type'], message: LobbyNotice): boolean }).emit(notice.type, notice);
}
