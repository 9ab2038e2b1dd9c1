import type { KineticIntent, LegalAction, TurnPlanRequest } from '../protocol/index.js';
import { TurnPlanResponse } from '../protocol/index.js';
/** A legal move of an action request (its key is what PositionOption records; see there). */
export type Move = {
  key: string;
  kind: 'pass' | 'play_card' | 'activate';
  card_id: string | null;
  name: string | null;
  target_player_id: string | null;
  kinetic_intent: KineticIntent | null;
};

/** A play is keyed by its card's name (any copy is the same move), an activation by its arena card. */
const keyOf = (m: Pick<Move, 'kind' | 'card_id' | 'name' | 'target_player_id' | 'kinetic_intent'>): string => {
  if (m.kind === 'pass') return 'pass';
  const card = m.kind === 'play_card' ? m.name : m.card_id;
  return `${m.kind}:${card}${m.target_player_id ? `>${m.target_player_id}/${m.kinetic_intent}` : ''}`;
};

const move = (m: Omit<Move, 'key'>): Move => ({ key: keyOf(m), ...m });

/**
 * Every legal move of an action request: pass, each card (one copy per name, as the request lists
 * them) and each arena card to activate, attacks once per target and kinetic intent. Order: the
 * request's legal actions', pass last.
 *
 * @example legalMoves(request).map((m) => m.key) // ['play_card:Needle>plr_2/tilt', …, 'pass']
 */
export function legalMoves(r: TurnPlanRequest): Move[] {
  const out: Move[] = [];
  let pass = false;
  for (const a of r.legal_actions) {
    if (a.kind === 'pass') pass = true;
    if (a.kind !== 'play_card' && a.kind !== 'activate') continue;
    const card = { kind: a.kind, card_id: a.card_id, name: a.name };
    if (!a.attack) out.push(move({ ...card, target_player_id: null, kinetic_intent: null }));
    else for (const t of a.targets) for (const k of a.kinetic_intents) out.push(move({ ...card, target_player_id: t, kinetic_intent: k }));
  }
  if (pass) out.push(move({ kind: 'pass', card_id: null, name: null, target_player_id: null, kinetic_intent: null }));
  return out;
}

type CardAction = Extract<LegalAction, { kind: 'play_card' | 'activate' }>;
const cardActions = (r: TurnPlanRequest): CardAction[] => r.legal_actions.filter((a): a is CardAction => a.kind === 'play_card' || a.kind === 'activate');

/** The seats still in the game other than `me`, in initiative order. */
const opponents = (r: TurnPlanRequest, me: string): string[] => {
  const alive = new Set(r.public_world_view.players.filter((p) => p.alive).map((p) => p.player_id));
  return r.public_world_view.initiative_order.filter((id) => id !== me && alive.has(id));
};

/**
 * The answer the bank plays for a move: the move with one fixed framing (the framing the expert's
 * determinizations give unseen attacks: tilt by threat framing, in public where the card allows;
 * a Whisper names the first other opponent in initiative order; a False Tell shows confidence).
 * Fixed so every move is valued alike and the bank can be recomputed from the record alone.
 */
export function moveDecision(r: TurnPlanRequest, m: Move): unknown {
  if (m.kind === 'pass') return { selected_action: { kind: 'pass' }, attack_plan: null };
  const legal = cardActions(r).find((a) => a.card_id === m.card_id);
  const payload: Record<string, unknown> = { card_id: m.card_id };
  if (legal?.kind === 'play_card' && legal.needs_chosen_emotion) payload['chosen_emotion'] = 'confidence';
  if (!m.target_player_id) return { selected_action: { kind: m.kind, payload }, attack_plan: null };
  payload['target_player_id'] = m.target_player_id;
  if (legal?.kind === 'play_card' && legal.needs_named_player) payload['named_player_id'] = opponents(r, r.player_id).find((id) => id !== m.target_player_id) ?? null;
  const channels = legal?.channels ?? [];
  return {
    selected_action: { kind: m.kind, payload },
    attack_plan: {
      target_player_id: m.target_player_id,
      kinetic_intent: m.kinetic_intent,
      emotional_intent: 'tilt',
      manipulation_plan: 'threat_framing',
      delivery_channel: channels.includes('public') ? 'public' : (channels[0] ?? 'public'),
      expected_behavior_shift: '',
      confidence: 0.5,
    },
  };
}

/**
 * The key of the move an answer makes (see PositionOption), or null when the answer is not an
 * action answer at all. A play names its card by name (whichever copy it sent); an attack's target
 * is the payload's, else its plan's. The key may name no legal move: the engine decides legality.
 *
 * @example answerKey(request, { selected_action: { kind: 'pass' } }) // 'pass'
 */
export function answerKey(r: TurnPlanRequest, answer: unknown): string | null {
  const parsed = TurnPlanResponse.safeParse(answer);
  if (!parsed.success) return null;
  const { selected_action: a, attack_plan: plan } = parsed.data;
  if (a.kind === 'pass') return 'pass';
  if (a.kind !== 'play_card' && a.kind !== 'activate') return null;
  const cardId = a.payload.card_id ?? null;
  const inHand = r.player_private_view.hand.find((c) => c.card_id === cardId);
  const legal = cardActions(r).find((x) => x.card_id === cardId || (a.kind === 'play_card' && x.kind === 'play_card' && x.name === inHand?.name));
  const attack = legal ? legal.attack : plan !== null;
  const target = attack ? (a.payload.target_player_id ?? plan?.target_player_id ?? null) : null;
  const kinetic: KineticIntent | null = attack ? (plan?.kinetic_intent ?? null) : null;
  return keyOf({ kind: a.kind, card_id: cardId, name: inHand?.name ?? legal?.name ?? cardId, target_player_id: target, kinetic_intent: kinetic });
}
