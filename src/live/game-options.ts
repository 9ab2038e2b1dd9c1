import { z } from 'zod';
import type { GameRecord } from '../store/index.js';

/** The longest a spectator delay may be (ten minutes): past that nobody is watching live. */
export const MAX_SPECTATOR_DELAY_MS = 600_000;
/** How long a human seat has for one decision by default (two minutes), and at most (an hour). */
export const DEFAULT_HUMAN_TIMEOUT_MS = 120_000;
export const MAX_HUMAN_TIMEOUT_MS = 3_600_000;
/** The least pace a game with a human seat gets when POST /games names none: time to read each move. */
export const HUMAN_PACE_MS = 1_500;

/** The slowest pace a game may be given; matches TILTYARD_PACE_MS's bound. */
export const MAX_PACE_MS = 60_000;

/**
 * Who anonymous viewers are: `public` shows them the public table (spectator projection);
 * `broadcast` every seat as an admin sees it, minus what tells the future (see views-broadcast.ts),
 * always behind the hold-back of src/live/hold-back.ts.
 */
export const SpectatorMode = z.enum(['public', 'broadcast']);
export type SpectatorMode = z.infer<typeof SpectatorMode>;

/**
 * What the server runs a game with besides its engine config, stored with the game
 * (games.options) so that a restarted server resumes it the same way.
 */
export const GameOptions = z.object({
  /** Milliseconds between steps. */
  pace_ms: z.int().min(0).max(MAX_PACE_MS),
  /** How far behind live anonymous spectators watch (the spectator gateway enforces it). */
  spectator_delay_ms: z.int().min(0).max(MAX_SPECTATOR_DELAY_MS).default(0),
  /** A game of the demo table (the server keeps one playing). */
  demo: z.boolean().default(false),
  /** What anonymous viewers are shown (games stored before the option existed are public). */
  spectators: SpectatorMode.default('public'),
  /**
   * A broadcast game where a seat could act on what it shows (see agents/seat/broadcast-risk.ts):
   * nothing of it reaches a delayed audience before the game has ended.
   */
  broadcast_held: z.boolean().default(false),
  /** A human seat's time for one decision; past it the seat's default is taken (see human-seat.ts). */
  /** Stored only for games that have human seats (absent: DEFAULT_HUMAN_TIMEOUT_MS). */
  human_timeout_ms: z.int().min(1).max(MAX_HUMAN_TIMEOUT_MS).optional(),
});
export type GameOptions = z.output<typeof GameOptions>;

/**
 * A stored game's options. Games registered outside the server (`tiltyard run`) store none; a
 * value that no longer parses falls back to the defaults rather than stranding the game.
 */
export function optionsOf(game: Pick<GameRecord, 'options'>, defaultPaceMs: number): GameOptions {
  const parsed = GameOptions.safeParse({ pace_ms: defaultPaceMs, ...game.options });
  return parsed.success ? parsed.data : { pace_ms: defaultPaceMs, spectator_delay_ms: 0, demo: false, spectators: 'public', broadcast_held: false };
}
