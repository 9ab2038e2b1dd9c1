import { risksOf } from '../../agents/seat/broadcast-risk.js';
import { optionsOf, type GameOptions } from '../../live/game-options.js';
import type { GameRecord } from '../../store/index.js';
import { parentNotEnded } from '../../research/fork-game.js';
import { hiddenFork } from './hidden-fork.js';

/** Forking this game now would show its audience more than its hold-back does (HTTP 409). */
export class ForkWouldLeakError extends Error {
  override readonly name = 'ForkWouldLeakError';
}

/**
 * The options of a fork of `parent` made over REST. A fork's prefix is the parent's log up to the
 * fork point, so a fork must hide it at least as long as the parent does: it keeps the parent's
 * spectator delay and mode, and is held as a broadcast when the parent was or when one of its own
 * seats could act on what a broadcast shows. A parent that has not ended is not forked at all
 * (forkGame refuses it too): behind a delay or as a broadcast, the fork's record (its fork seq) and
 * its prefix would tell the public how far the parent has got before the parent's own hold-back
 * does; and any fork deals from its parent's seed, shown with the fork once it ends, and shows
 * researchers its prefix whole then — the cards of a parent still in play. Fork it once it ended.
 * Nor is a fork that is still hidden (hiddenFork: it kept its own parent's deck): a fork of it
 * would show its prefix to those it is hidden from.
 *
 * @example forkOptions(parent, ['balanced', 'llm:mock'], 0)
 */
export function forkOptions(parent: GameRecord, agents: readonly string[], paceMs: number): GameOptions {
  if (hiddenFork(parent, 'spectator'))
    throw new ForkWouldLeakError(`game ${parent.game_id} is a fork that kept its parent's deck and has not ended, so it is shown to admins only: a fork of it would show its log to everyone; fork it once it has ended`);
  const p = optionsOf(parent, paceMs);
  if (parent.status !== 'ended') {
    const guarded = p.spectator_delay_ms > 0 || p.spectators === 'broadcast';
    throw new ForkWouldLeakError(
      guarded
        ? `game ${parent.game_id} is still ${parent.status} and its audience watches it ${p.spectators === 'broadcast' ? 'as a delayed broadcast' : `${p.spectator_delay_ms} ms behind`}: a fork now would show them its log early; fork it once it has ended`
        : parentNotEnded(parent),
    );
  }
  return {
    pace_ms: paceMs,
    spectator_delay_ms: p.spectator_delay_ms,
    demo: false,
    spectators: p.spectators,
    broadcast_held: p.spectators === 'broadcast' && (p.broadcast_held || risksOf(agents).length > 0),
  };
}
