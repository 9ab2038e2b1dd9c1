import type { GameEvent } from '../protocol/index.js';
import { KeyedListeners } from '../lib/keyed-listeners.js';
import { CommitLog } from './commit-log.js';
import type { TournamentNotice } from './tournament-notices.js';

/** One committed engine step: its events (full, unredacted: project before sending anywhere). */
export type CommittedStep = {
  game_id: string;
  events: GameEvent[];
  /** The head after this step. */
  last_seq: number;
  /** Wall-clock ms when it was committed (spectator delay counts from here). */
  committed_at: number;
};

/** What the lobby hears: games starting, ending and failing for good (status `failed`), and tournaments (see tournament-notices.ts). */
export type LobbyNotice =
  | { type: 'game_started'; game_id: string; agents: string[]; at: string }
  | { type: 'game_ended'; game_id: string; placements: unknown; at: string }
  | { type: 'game_failed'; game_id: string; reason: string; at: string }
  | TournamentNotice;

/**
 * How long anonymous listeners wait for a notice that tells how a game ended (unset: the lobby
 * looks up the game's own spectator delay); `adminOnly`: a notice only admins may hear (a fork
 * that kept its parent's deck starting or failing: it is shown to no one else until it ends).
 */
export type LobbyDelivery = { publicDelayMs?: number; adminOnly?: boolean };

/**
 * In-process publish/subscribe of committed steps, per game, and of lobby notices. Listeners are
 * called synchronously in commit order and must not block (queue and return): one slow spectator
 * must never slow a game. Past one process, a RedisGameBus (src/scale/redis-bus.ts) carries steps
 * and notices between processes and delivers them here on every node.
 */
export class GameBus {
  private readonly games = new KeyedListeners<CommittedStep>();
  private readonly lobby = new Set<(notice: LobbyNotice, delivery: LobbyDelivery) => void>();
  private readonly resyncs = new Set<() => void>();
  /** When each recent step of a delayed game committed, for REST's delayed heads. */
  readonly commits = new CommitLog();

  subscribe(gameId: string, listener: (step: CommittedStep) => void): () => void {
    return this.games.add(gameId, listener);
  }

  /** Whether anything in this process follows the game's steps. */
  listening(gameId: string): boolean {
    return this.games.has(gameId);
  }

  publish(step: CommittedStep): void {
    this.commits.record(step.game_id, step.last_seq - step.events.length + 1, step.committed_at);
    this.games.emit(step.game_id, step);
  }

  onLobby(listener: (notice: LobbyNotice, delivery: LobbyDelivery) => void): () => void {
    this.lobby.add(listener);
    return () => this.lobby.delete(listener);
  }

  announce(notice: LobbyNotice, delivery: LobbyDelivery = {}): void {
    for (const l of this.lobby) l(notice, delivery);
  }

  /**
   * Told when steps may have been missed (the link to other processes was down): followers
   * compare their head with the store and backfill. In-process, nothing is ever missed.
   */
  onResync(listener: () => void): () => void {
    this.resyncs.add(listener);
    return () => this.resyncs.delete(listener);
  }

  resync(): void {
    for (const l of this.resyncs) l();
  }
}
