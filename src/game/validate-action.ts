import type { ActionPayload, AttackPlan, TurnPlanResponse } from '../protocol/index.js';
import { type CardDef, defOf } from './cards.js';
import { attackTargets, springIntents } from './legal.js';
import { findPlayer, player } from './players.js';
import type { GameState, PlayerId } from './state.js';

/** An illegal action is a value with a namespaced code (style: "illegal is a value"). */
export type Illegal = { ok: false; code: string; message: string };
export type LegalPlay = {
  ok: true;
  kind: 'play_card' | 'activate' | 'pass';
  card_id: string | null;
  def: CardDef | null;
  payload: ActionPayload;
  attack_plan: AttackPlan | null;
  tempo: number;
};

const no = (code: string, message: string): Illegal => ({ ok: false, code, message });

function checkAttack(state: GameState, id: PlayerId, def: CardDef, payload: ActionPayload, plan: AttackPlan | null, intents: readonly string[], channels: readonly string[]): Illegal | null {
  const target = payload.target_player_id ?? plan?.target_player_id ?? null;
  if (!target) return no('action/missing_target', `${def.name} is an attack: name target_player_id`);
  const t = findPlayer(state, target);
  if (!t || !t.alive || target === id) return no('action/illegal_target', `${target} is not an alive opponent`);
  // An attack on an opponent without a plan is refused as such whichever opponent it aims at (seed 003
  // §4.2, rules brief "an attack without an AttackPlan is rejected"); the forced line is a rule about
  // planned attacks, so it is checked after.
  if (!plan) return no('action/missing_attack_plan', `${def.name} against ${target} is an attack and needs an AttackPlan`);
  if (!attackTargets(state, id).includes(target)) {
    return no('action/forced_line', `your attacks this round must target ${player(state, id).forced_line}`);
  }
  if (plan.target_player_id !== target) return no('action/plan_target_mismatch', `attack_plan targets ${plan.target_player_id} but the action targets ${target}`);
  if (!intents.includes(plan.kinetic_intent)) {
    return no('action/kinetic_intent_not_allowed', `${def.name} allows ${intents.join(', ')}, not ${plan.kinetic_intent}`);
  }
  if (!channels.includes(plan.delivery_channel)) {
    return no('action/channel_not_allowed', `${def.name} is delivered ${channels.join(' or ')}, not ${plan.delivery_channel}`);
  }
  if (def.needsNamedPlayer) {
    const named = payload.named_player_id;
    const n = named ? findPlayer(state, named) : undefined;
    if (!n || !n.alive || named === id || named === target) {
      return no('action/illegal_named_player', `${def.name} needs named_player_id: an alive third seat`);
    }
  }
  return null;
}

/**
 * Validates one action choice of a seat against the state (tool-agnostic: the same checks for a
 * built-in policy and an LLM). Cards and tempo are checked here and committed at submission.
 */
export function validateAction(state: GameState, id: PlayerId, response: Pick<TurnPlanResponse, 'selected_action' | 'attack_plan'>): LegalPlay | Illegal {
  const a = response.selected_action;
  if (a.player_id !== undefined && a.player_id !== id) return no('action/wrong_player', `selected_action.player_id is ${a.player_id}, you are ${id}`);
  if (a.turn !== undefined && a.turn !== state.turn) return no('action/stale_turn', `selected_action.turn is ${a.turn}, the turn is ${state.turn}`);
  const p = player(state, id);
  const payload = a.payload;
  const plan = response.attack_plan;
  if (a.kind === 'pass') return { ok: true, kind: 'pass', card_id: null, def: null, payload: {}, attack_plan: null, tempo: 0 };
  if (a.kind !== 'play_card' && a.kind !== 'activate') return no('action/wrong_kind', `${a.kind} is not an action of this window (play_card, activate or pass)`);
  const cardId = payload.card_id;
  if (!cardId) return no('action/missing_card', 'payload.card_id is required');

  if (a.kind === 'play_card') {
    if (!p.hand.includes(cardId)) return no('action/card_not_in_hand', `${cardId} is not in your hand`);
    const def = defOf(state, cardId);
    if (def.reactionOnly) return no('action/reaction_only', `${def.name} can only be played as a reaction`);
    if (def.tempo > p.tempo) return no('action/insufficient_tempo', `${def.name} costs ${def.tempo} tempo, you have ${p.tempo}`);
    if (def.attack) {
      const bad = checkAttack(state, id, def, payload, plan, def.kinetic, def.channels);
      if (bad) return bad;
      const target = payload.target_player_id ?? plan!.target_player_id;
      return { ok: true, kind: 'play_card', card_id: cardId, def, payload: Object.assign({}, payload, { target_player_id: target }), attack_plan: plan, tempo: def.tempo };
    }
    if (def.needsChosenEmotion && !payload.chosen_emotion) return no('action/missing_chosen_emotion', `${def.name} needs payload.chosen_emotion`);
    return { ok: true, kind: 'play_card', card_id: cardId, def, payload: { card_id: cardId, target_player_id: null, chosen_emotion: payload.chosen_emotion ?? null }, attack_plan: null, tempo: def.tempo };
  }

  const inArena = state.arena.find((x) => x.card_id === cardId && x.owner === id);
  if (!inArena) return no('action/card_not_in_arena', `${cardId} is not in your arena`);
  if (state.stack.some((e) => e.card_id === cardId)) return no('action/already_activated', `${cardId} is already activated this round`);
  const cost = state.rules.activate.cost;
  if (p.tempo < cost) return no('action/insufficient_tempo', `activating costs ${cost} tempo, you have ${p.tempo}`);
  const def = defOf(state, cardId);
  if (def.type === 'trap') {
    const bad = checkAttack(state, id, def, payload, plan, springIntents, ['public', 'private', 'mixed']);
    if (bad) return bad;
    const target = payload.target_player_id ?? plan!.target_player_id;
    return { ok: true, kind: 'activate', card_id: cardId, def, payload: { card_id: cardId, target_player_id: target }, attack_plan: plan, tempo: cost };
  }
  if (def.type === 'ritual' && (inArena.countdown ?? 0) >= 1) {
    return { ok: true, kind: 'activate', card_id: cardId, def, payload: { card_id: cardId, target_player_id: null }, attack_plan: null, tempo: cost };
  }
  return no('action/not_activatable', `${def.name} cannot be activated now (traps spring, rituals with a countdown hasten)`);
}
