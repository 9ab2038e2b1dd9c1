/**
 * The store's failures. Each is an Error subclass that keeps its `cause`, so callers branch on
 * the class and logs still show the driver's own words.
 */
export class StoreError extends Error {
  override readonly name: string = 'StoreError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The database cannot be reached or opened (bad URL, server down, unreadable data dir). */
export class StoreUnavailableError extends StoreError {
  override readonly name: string = 'StoreUnavailableError';
}

/**
 * The database's disk is full (ENOSPC, PostgreSQL's 53100 disk_full): writes fail until space is
 * freed, and what failed was not written (one transaction each). Unavailable, not broken: a
 * tournament stops (`stopped`, resumable) rather than failing its games.
 */
export class StoreFullError extends StoreUnavailableError {
  override readonly name = 'StoreFullError';
}

/** A migration failed, or the database's migration history disagrees with prisma/migrations. */
export class MigrationError extends StoreError {
  override readonly name = 'MigrationError';
}

/** No game with that id. */
export class GameNotFoundError extends StoreError {
  override readonly name = 'GameNotFoundError';
  constructor(readonly gameId: string) {
    super(`no game ${gameId}`);
  }
}

/** createGame with an id that already exists with a different seed or configuration. */
export class GameExistsError extends StoreError {
  override readonly name = 'GameExistsError';
  constructor(readonly gameId: string) {
    super(`game ${gameId} already exists with a different seed or configuration`);
  }
}

/** A stale writer: the log's head is not where the caller expected it. */
export class ConcurrencyConflictError extends StoreError {
  override readonly name = 'ConcurrencyConflictError';
  constructor(
    readonly gameId: string,
    readonly expectedSeq: number,
    readonly actualSeq: number,
  ) {
    super(`game ${gameId}: expected the log at seq ${expectedSeq}, it is at ${actualSeq}`);
  }
}

/** An event_id already stored for this game names a different event. */
export class EventIdConflictError extends StoreError {
  override readonly name = 'EventIdConflictError';
  constructor(
    readonly gameId: string,
    readonly eventId: string,
  ) {
    super(`game ${gameId}: event ${eventId} is already stored with different content`);
  }
}

/** Input the store refuses: events that do not continue the log, a malformed cursor (caller bugs). */
export class InvalidInputError extends StoreError {
  override readonly name = 'InvalidInputError';
}

/** A seq past the head of the log (or below 0). */
export class SeqOutOfRangeError extends StoreError {
  override readonly name = 'SeqOutOfRangeError';
  constructor(
    readonly gameId: string,
    readonly seq: number,
    readonly lastSeq: number,
  ) {
    super(`game ${gameId}: seq ${seq} is outside 0..${lastSeq}`);
  }
}

/**
 * Stored data that fails its integrity check on read — a cold segment whose bytes or hash columns
 * do not match its seal, events that do not hash to the stored chain, a missing segment, cold
 * actions that do not match theirs — so it is not served. `part` says which; firstSeq..lastSeq
 * are the seqs the failing part holds (the decisions: the whole log). `cause` keeps what the
 * decoder said, when it was the decoder that failed.
 */
export class IntegrityError extends StoreError {
  override readonly name = 'IntegrityError';
  constructor(
    readonly gameId: string,
    readonly part: 'events' | 'actions',
    readonly firstSeq: number,
    readonly lastSeq: number,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    const what = part === 'events' ? `events ${firstSeq}–${lastSeq}` : 'the stored decisions';
    super(`game ${gameId}: ${what} fail their integrity check (${reason}); not served (tiltyard verify ${gameId} checks the whole log)`, options);
  }
}
