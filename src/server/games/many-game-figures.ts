import { MIN_DEPTH_GAMES } from '../../runner/depth-tally.js';
import type { AnalyticsFigures } from './partial-figures.js';

/** A figure left out of one game's analytics, and why (GameAnalytics.withheld_figures). */
export type WithheldFigure = { figure: string; reason: string };

const ONE_GAME = `needs at least ${MIN_DEPTH_GAMES} games: over one game each agent has one placement, so it would read 1 whenever the agents differ`;

/**
 * Figures that compare agents across many games (src/runner/depth-tally.ts) mean nothing over the
 * one game an analytics call folds: they are null there, and named with the reason so a null is
 * not read as "unknown" (hidden) or "zero". A tournament's report, over its games, gives them.
 */
export const MANY_GAME_FIGURES: readonly WithheldFigure[] = [
  { figure: 'depth.skillShare', reason: ONE_GAME },
  { figure: 'depth.winRateSpread', reason: ONE_GAME },
];

/**
 * The figures of one game with the many-game ones set to null, and the list of those.
 *
 * @example withoutManyGameFigures(masked.figures).withheld // [{ figure: 'depth.skillShare', reason: 'needs at least 2 games: …' }, …]
 */
export function withoutManyGameFigures(figures: AnalyticsFigures): { figures: AnalyticsFigures; withheld: WithheldFigure[] } {
  return { figures: { ...figures, depth: { ...figures.depth, skillShare: null, winRateSpread: null } }, withheld: [...MANY_GAME_FIGURES] };
}
