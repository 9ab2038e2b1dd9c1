/* Types only: the wire shapes of GET /ladders and GET /ladders/:id, as the server declares them
   (src/ladder/ladder-view.ts; erased at build). The headless view model and its unit test read them. */
import type { LadderView, ladderSummary } from '../../../src/ladder/ladder-view.js';

export type Ladder = LadderView;
export type LadderEntrant = LadderView['entrants'][number];
export type LadderStanding = LadderView['standings'][number];
export type RatingPoint = LadderView['history'][number];
export type LadderGame = LadderView['recent_games'][number];
/** A ladder as GET /ladders lists it. */
export type LadderSummary = ReturnType<typeof ladderSummary>;
