import { z } from 'zod';
import { risksOf } from '../../agents/seat/broadcast-risk.js';
import { SpectatorMode, type GameOptions } from '../../live/game-options.js';

/** What to do with a broadcast game where a seat could act on what it shows: hold it until the end (default), or refuse it (400). */
export const BroadcastUnsafe = z.enum(['hold', 'refuse'], 'must be hold (the broadcast waits for the game to end) or refuse (a 400 naming the seat)');
export type BroadcastUnsafe = z.infer<typeof BroadcastUnsafe>;

/** The request fields that choose a game's (or a tournament's games') spectator mode. */
export const spectatorFields = {
  spectators: z
    .enum(SpectatorMode.options, 'must be public (the public table) or broadcast (every seat, delayed by at least a round)')
    .optional()
    .meta({ description: 'What anonymous viewers see: public (default: the public table, behind spectator_delay_ms) or broadcast (every seat as an admin sees it — hands, secret plans, private speech with its speech act, emotions, trust, grievance — never the seed, PRNG or deck order; each event only once the round after its own has ended and spectator_delay_ms after its commit). docs/security.md' }),
  broadcast_unsafe: BroadcastUnsafe.optional().meta({
    description: 'With spectators: broadcast, when a seat could act on what it shows (a skill with the network, any subprocess agent with TILTYARD_SANDBOX=off, an LLM on an endpoint the operator did not configure): hold (default) shows nothing of the game before it has ended; refuse answers 400 naming each such seat',
  }),
};
export type SpectatorRequest = { spectators?: SpectatorMode | undefined; broadcast_unsafe?: BroadcastUnsafe | undefined };

/**
 * Checks a request's spectator fields against its agents inside a zod refinement: a broadcast
 * that must refuse unsafe seats gets one issue per such seat, at `agentsKey`'s index, naming it;
 * `broadcast_unsafe` without a broadcast is a mistake worth saying.
 */
export function refineSpectators(body: SpectatorRequest, specs: readonly string[], ctx: z.RefinementCtx, agentsKey: 'agents' | 'entrants'): void {
  if (body.broadcast_unsafe !== undefined && body.spectators !== 'broadcast') {
    ctx.addIssue({ code: 'custom', path: ['broadcast_unsafe'], message: 'only applies with "spectators": "broadcast"' });
    return;
  }
  if (body.spectators !== 'broadcast' || body.broadcast_unsafe !== 'refuse') return;
  const unique = agentsKey === 'entrants';
  for (const r of risksOf(specs)) {
    const who = unique ? `entrant ${r.agent}` : `seat ${r.player_id} (${r.agent})`;
    ctx.addIssue({ code: 'custom', path: [agentsKey, r.seat], message: `${who} could act on the broadcast: ${r.why}; use "broadcast_unsafe": "hold" to show it only once the game has ended` });
  }
}

/**
 * The spectator options a game is stored with: its mode, and whether its broadcast is held until
 * the end because a seat could act on it (the request chose `hold`, or said nothing).
 *
 * @example spectatorOptions({ spectators: 'broadcast' }, ['balanced', 'turtle']) // { spectators: 'broadcast', broadcast_held: false }
 */
export function spectatorOptions(request: SpectatorRequest, specs: readonly string[]): Pick<GameOptions, 'spectators' | 'broadcast_held'> {
  const spectators = request.spectators ?? 'public';
  return { spectators, broadcast_held: spectators === 'broadcast' && risksOf(specs).length > 0 };
}
