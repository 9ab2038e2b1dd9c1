import type { Constraints, TurnPlanRequest } from '../protocol/index.js';
import { SCHEMA_VERSION } from '../protocol/index.js';
import { legalActions } from './legal.js';
import { player } from './players.js';
import type { GameState, PlayerId } from './state.js';
import { tellsOf } from './tells.js';
import { privateView, worldView } from './views.js';

/** What the engine asks a seat, built only from that seat's view (seed 003 §7.1). */
export function requestFor(state: GameState, id: PlayerId): TurnPlanRequest {
  const w = state.window;
  if (!w || !w.queue.includes(id)) throw new Error(`${id} is not awaited`);
  const p = player(state, id);
  const tells = tellsOf(state);
  const reacting = w.window === 'reaction' ? state.stack.find((e) => e.action_id === w.reacting_to) : undefined;
  const constraints: Constraints = {
    window: w.window,
    compact: state.rules.windows === 'compact',
    actions_left: w.window === 'action' ? (p.locked_out ? 1 : state.rules.actions_per_round) - w.taken : 0,
    locked_out: p.locked_out,
    forced_target: p.forced_line && player(state, p.forced_line).alive ? p.forced_line : null,
    reprompt: w.rejections > 0 ? w.last_rejection : null,
    incoming_attack: reacting
      ? { action_id: reacting.action_id, attacker_player_id: reacting.player_id, card_name: state.cards[reacting.card_id] ?? '' }
      : null,
  };
  return {
    schema_version: SCHEMA_VERSION,
    request_id: `req_${state.game_id.slice(5)}_${state.seq}_${id}_${w.rejections}`,
    game_id: state.game_id,
    player_id: id,
    turn: state.turn,
    phase: state.phase,
    window: w.window,
    player_private_view: privateView(state, id, tells),
    public_world_view: worldView(state, { role: 'seat', player_id: id }, tells),
    legal_actions: legalActions(state, id),
    constraints,
  };
}
