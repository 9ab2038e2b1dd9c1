/** The event store: games, their hash-chained event logs, snapshots and agent decisions, on PGlite or PostgreSQL. */
export { openStore, DEFAULT_SNAPSHOT_EVERY, type OpenStoreOptions } from './open-store.js';
export { EventStore } from './event-store.js';
export type { CreateGameInput } from './games.js';
export { MAX_FORKS_LISTED, type ForkPage } from './forks.js';
export type { PreparedGame, WholeGame } from './append-game.js';
export { prepareWholeGame } from './append-game.js';
export { NUL, withoutNul } from './jsonb-text.js';
export { TournamentStore } from './tournament-store.js';
export { LadderStore } from './ladder-store.js';
export { LadderNotFoundError, newLadderId, type DealRecord, type EntrantInput, type EntrantRecord, type EntrantStatus, type LadderGameRecord, type LadderRecord, type RatingPoint } from './ladders.js';
export type { ActionRow } from './cold-actions.js';
export type { CompactOutcome } from './compact.js';
export type { CompactAllOptions, CompactAllResult, CompactProgress } from './compact-all.js';
export type { ThawAllResult, ThawProgress, ThawSelection } from './thaw-all.js';
export type { ThawOutcome } from './thaw.js';
export { FencedWriteError } from './tournament-fence.js';
export {
  TOURNAMENT_STATUSES,
  TournamentStatus,
  TournamentNotFoundError,
  newTournamentId,
  type CreateTournamentInput,
  type LinkInput,
  type RatingInput,
  type RatingRecord,
  type TournamentGameRecord,
  type TournamentProgress,
  type TournamentRecord,
} from './tournaments.js';
export type { ReasoningRow, TraceRecord } from './traces.js';
export type { ModelUsage, ProviderCallRow } from './provider-calls.js';
export type { SeatTokenRow } from './seat-tokens.js';
export {
  ActionRecord,
  GameStatus,
  GAME_STATUSES,
  SeatRecord,
  type AppendOptions,
  type AppendResult,
  type GamePage,
  type GameRecord,
  type ListGamesFilter,
  type Page,
} from './types.js';
export {
  StoreError,
  StoreUnavailableError,
  StoreFullError,
  MigrationError,
  GameNotFoundError,
  GameExistsError,
  ConcurrencyConflictError,
  EventIdConflictError,
  InvalidInputError,
  SeqOutOfRangeError,
  IntegrityError,
} from './errors.js';
export { canonicalJson, canonicalKeys } from './canonical-json.js';
export { GENESIS_HASH, eventHash, stateHash } from './hash.js';
export { isTransient, describeChain, errorChain } from './transient.js';
export { isDiskFull } from './fs-errors.js';
export { withRetry, retryFromEnv, logTransientWaits, StoreFaults, DEFAULT_RETRY, DEFAULT_STORE_RETRY_MS, type RetryPolicy, type TransientWait } from './retry.js';
