import { z } from 'zod';
import { FORMATS } from '../tournament/types.js';

/**
 * What the `/spectate` lobby hears about tournaments, next to `game_started` / `game_ended`.
 * Only public facts: entrants, and the placements of games that have ended — never a seed or
 * anything from a game still being played. Anonymous listeners hear a game's end (and the
 * tournament's) after the tournament's spectator delay, like `game_ended`.
 */

const Progress = z.object({
  /** Games that ended and count in the standings. */
  played: z.int().min(0),
  /** Games the tournament has created so far (played, running and waiting). */
  scheduled: z.int().min(0),
  running: z.int().min(0),
});

export const TournamentStartedNotice = z.object({
  type: z.literal('tournament_started'),
  tournament_id: z.string(),
  name: z.string(),
  format: z.enum(FORMATS),
  entrants: z.array(z.string()),
  seats: z.int(),
  /** True when a restarted server picks up a tournament it had not finished. */
  resumed: z.boolean(),
  at: z.string(),
});

export const TournamentGameEndedNotice = z.object({
  type: z.literal('tournament_game_ended'),
  tournament_id: z.string(),
  game_id: z.string(),
  /** The game's key in the schedule (unique within the tournament). */
  key: z.string(),
  /** The entrant in each seat, in seat order. */
  agents: z.array(z.string()),
  /** Each seat's placement (1 = won), in seat order. */
  placements: z.array(z.int()),
  progress: Progress,
  at: z.string(),
});

export const TournamentEndedNotice = z.object({
  type: z.literal('tournament_ended'),
  tournament_id: z.string(),
  status: z.enum(['ended', 'aborted']),
  played: z.int().min(0),
  /** The first entrant of the final standings (null when no game counted). */
  leader: z.string().nullable(),
  at: z.string(),
});

export const TournamentNotice = z.discriminatedUnion('type', [TournamentStartedNotice, TournamentGameEndedNotice, TournamentEndedNotice]);
export type TournamentStartedNotice = z.infer<typeof TournamentStartedNotice>;
export type TournamentGameEndedNotice = z.infer<typeof TournamentGameEndedNotice>;
export type TournamentEndedNotice = z.infer<typeof TournamentEndedNotice>;
export type TournamentNotice = z.infer<typeof TournamentNotice>;
