import { gameTraces, type ReadTrace } from '../../runner/builtin-traces.js';
import type { EventStore, GameRecord } from '../../store/index.js';

/**
 * Ended games' decision traces, remade once: a built-in seat's traces are not stored but made
 * again by replaying the game and asking the seat again (gameTraces), which for an `expert` seat
 * means its rollouts all over — seconds of CPU a call. An ended game's traces never change, so
 * the last few games' are kept (whole, filtered per call), and callers asking for one game at
 * once share one remake. Running games are remade per call (their traces grow).
 */
export class TraceCache {
  private readonly games = new Map<string, Promise<ReadTrace[]>>();

  constructor(
    private readonly store: EventStore,
    private readonly capacity = 8,
  ) {}

  traces(game: GameRecord, playerId?: string): Promise<ReadTrace[]> {
    if (game.status !== 'ended') return gameTraces(this.store, game, playerId);
    let all = this.games.get(game.game_id);
    if (all) {
      this.games.delete(game.game_id);
    } else {
      all = gameTraces(this.store, game);
      // A failed remake (the database went away) is not kept: the next call tries again.
      all.catch(() => this.games.get(game.game_id) === all && this.games.delete(game.game_id));
    }
    this.games.set(game.game_id, all);
    if (this.games.size > this.capacity) this.games.delete(this.games.keys().next().value!);
    return playerId === undefined ? all : all.then((ts) => ts.filter((t) => t.player_id === playerId));
  }
}
