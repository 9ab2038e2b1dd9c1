import type { GameOptions } from './game-options.js';

/**
 * How far behind the live log a game's delayed audience (anonymous spectators, and anyone asking
 * for the broadcast view) is held. The one rule, for the socket feed, REST pages, snapshots, game
 * records and the lobby alike — an event is released once both hold:
 *
 * 1. time: `delayMs` have passed since the step that holds it committed;
 * 2. rounds (`until`):
 *    - `commit`: nothing more (public games);
 *    - `next_round_end` (broadcast games): the round after the event's has fully ended, i.e. the
 *      log holds an event of round `turn + 2` (the first event of a round closes the one before),
 *      or the game has ended (`game_ended` is in the log). A broadcast shows hands and plans, and
 *      a hand at the end of round r is the hand played through round r + 1: by the time round r is
 *      shown, round r + 1 is over too;
 *    - `game_end` (a broadcast held because a seat could act on it): the game has ended.
 *
 * Both rules cut the log at a prefix, so the released head is the smaller of the two cuts.
 */
export type HoldBack = { delayMs: number; until: 'commit' | 'next_round_end' | 'game_end' };

/** The hold-back of a game's stored options. */
export function holdBackOf(options: Pick<GameOptions, 'spectator_delay_ms' | 'spectators' | 'broadcast_held'>): HoldBack {
  if (options.spectators === 'public') return { delayMs: options.spectator_delay_ms, until: 'commit' };
  return { delayMs: options.spectator_delay_ms, until: options.broadcast_held ? 'game_end' : 'next_round_end' };
}

/** Whether a game's delayed audience lags its live one at all. */
export const holdsBack = (h: HoldBack): boolean => h.delayMs > 0 || h.until !== 'commit';

/**
 * The last round (`turn`) whose events the round rule releases, given the round of the last event
 * in the log and whether the log holds `game_ended`: Infinity when every event passes, −1 when
 * none does (rounds start at 0).
 *
 * @example releasedRound({ delayMs: 0, until: 'next_round_end' }, 5, false) // 3
 */
export function releasedRound(h: HoldBack, lastTurn: number, ended: boolean): number {
  if (h.until === 'commit' || ended) return Infinity;
  return h.until === 'game_end' ? -1 : lastTurn - 2;
}

/**
 * The hold-back in words, for error messages and logs.
 *
 * @example describeHoldBack({ delayMs: 2000, until: 'next_round_end' }) // '2000 ms behind, and a full round behind (until the next round has ended)'
 */
export function describeHoldBack(h: HoldBack): string {
  const time = `${h.delayMs} ms behind`;
  if (h.until === 'commit') return time;
  const rounds = h.until === 'game_end' ? 'not before the game has ended (a seat could act on the broadcast)' : 'a full round behind (until the next round has ended)';
  return h.delayMs > 0 ? `${time}, and ${rounds}` : rounds;
}
