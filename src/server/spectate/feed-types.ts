import type { StateView, Viewer } from '../../game/index.js';
import type { SpectateSocket } from './messages.js';

/** Anonymous spectators of a game with a hold-back, and broadcast views, follow the delayed channel; everyone else the live one. */
export type Channel = 'live' | 'delayed';

/** A client following a feed live, in its room. */
export type Member = {
  socket: SpectateSocket;
  view: string;
  viewer: Viewer;
  channel: Channel;
  /** The feed stopped sending to it after `seq` (it fell behind, or the feed reset): it must rejoin. */
  dropped(seq: number): void;
};

export type Snapshot = { state: StateView; hash: string };

export type FeedLimits = {
  /** A state_hash follows every event whose seq is a multiple of this. */
  hashEvery: number;
  /** Events kept in memory behind the slowest channel's head, for joiners to catch up from. */
  retainEvents: number;
  /** A member with more packets than this queued is dropped with a `resync`. */
  maxPendingPackets: number;
  /** Events per store read. */
  pageSize: number;
};

