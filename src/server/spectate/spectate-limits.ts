/** Bounds of the spectator stream; the defaults suit the server, tests shrink them. */
export type SpectateLimits = {
  /** A live client with more packets queued than this is dropped with a `resync`. */
  maxPendingPackets: number;
  /** Events per store read and per catch-up chunk; a catching-up client drains past this before the next chunk. */
  pageSize: number;
  /** Events a feed keeps in memory behind its slowest channel, for joiners to catch up from. */
  retainEvents: number;
  /** How long a catching-up client may take to drain one chunk before it is looked at again. */
  drainTimeoutMs: number;
  /** A feed nobody follows is closed this long after its last activity (once it has nothing left to release)… */
  idleFeedMs: number;
  /** …or, for a game that stopped moving without ending, this long. */
  stalledFeedMs: number;
  /** `join`s one socket may send at once, and a minute after that (its address has its own limit, TILTYARD_JOINS_PER_MIN). */
  socketJoinBurst: number;
  socketJoinsPerMin: number;
};

export const DEFAULT_SPECTATE_LIMITS: SpectateLimits = {
  maxPendingPackets: 500,
  pageSize: 200,
  retainEvents: 1_000,
  drainTimeoutMs: 10_000,
  idleFeedMs: 60_000,
  stalledFeedMs: 600_000,
  socketJoinBurst: 10,
  socketJoinsPerMin: 60,
};

/** Injection token for overrides of DEFAULT_SPECTATE_LIMITS (optional). */
export const SPECTATE_LIMITS = Symbol('SpectateLimits');
