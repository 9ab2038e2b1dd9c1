import { isHumanSpec } from '../../agents/seat/agent-spec.js';
import { seatAgents } from '../../runner/lineup.js';
import { CreateGameBody } from './game-request.js';
import { formatIssues } from '../../protocol/index.js';

/**
 * The agents of the `g`-th demo game: the configured line-up (2–6 seats; one agent alone plays
 * itself), rotated one seat per game so every agent gets every seat over a few games.
 *
 * @example demoAgents(['balanced', 'aggressor', 'turtle'], 1) // ['aggressor', 'turtle', 'balanced']
 */
export function demoAgents(lineup: readonly string[], g: number): string[] {
  const seats = Math.min(6, Math.max(2, lineup.length));
  return seatAgents(lineup, seats, g);
}

/** Why the demo line-up cannot be played (TILTYARD_DEMO_AGENTS), or null when it can. */
export function demoProblem(lineup: readonly string[]): string | null {
  if (lineup.length === 0) return 'TILTYARD_DEMO_AGENTS names no agent';
  // Nobody is handed a demo game's seat token: a person could never answer there.
  if (lineup.some(isHumanSpec)) return 'TILTYARD_DEMO_AGENTS takes no human seats: a demo game hands out no seat tokens, so nobody could answer for one (seat a person with POST /games)';
  const r = CreateGameBody.safeParse({ agents: demoAgents(lineup, 0) });
  return r.success ? null : `TILTYARD_DEMO_AGENTS: ${formatIssues(r.error.issues)}`;
}
