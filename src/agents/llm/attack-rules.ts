import type { LegalAction, TurnPlanRequest } from '../../protocol/index.js';

/**
 * Answers zod takes and whose ids are all real, but that the engine would refuse anyway, told from
 * the request alone (its legal_actions and table): missing_attack_plan — an attacking card with no
 * `attack_plan`; plan_target_mismatch — a plan aimed at another seat than the action;
 * illegal_named_player — a card that names a third seat (Whisper) naming nobody, itself, its
 * target or a seat that is out. Each gets the repair turn, like the answer rules, instead of going
 * straight to the engine's rejection (src/game/validate-action.ts has the same rules on the state).
 */
export const ATTACK_RULES = ['missing_attack_plan', 'plan_target_mismatch', 'illegal_named_player'] as const;
export type AttackRule = (typeof ATTACK_RULES)[number];

export type AttackFinding = { rule: AttackRule; message: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** One action (selected_action + its attack_plan) against the legal action it names. */
function checkOne(choice: unknown, plan: unknown, where: string, request: TurnPlanRequest): AttackFinding[] {
  if (!isObject(choice)) return [];
  const payload = isObject(choice['payload']) ? choice['payload'] : {};
  const cardId = str(payload['card_id']);
  const legal = request.legal_actions.find((a): a is Extract<LegalAction, { kind: 'play_card' | 'activate' }> => (a.kind === 'play_card' || a.kind === 'activate') && a.kind === choice['kind'] && a.card_id === cardId);
  if (!legal?.attack) return [];
  const target = str(payload['target_player_id']) ?? (isObject(plan) ? str(plan['target_player_id']) : null);
  const out: AttackFinding[] = [];
  if (!isObject(plan)) {
    out.push({ rule: 'missing_attack_plan', message: `${legal.name} (${legal.card_id}) is an attack: ${where} needs an "attack_plan" {"target_player_id", "kinetic_intent" (one of ${legal.kinetic_intents.join(', ')}), "delivery_channel" (one of ${legal.channels.join(', ')}), …} aimed at the action's target` });
    return out;
  }
  const aimed = str(plan['target_player_id']);
  if (target !== null && aimed !== null && aimed !== target)
    out.push({ rule: 'plan_target_mismatch', message: `the attack_plan of ${where} targets \`${aimed}\` but the action targets \`${target}\`: aim both at the same seat (one of ${legal.targets.map((t) => `\`${t}\``).join(', ')})` });
  if (legal.kind === 'play_card' && legal.needs_named_player) {
    const named = str(payload['named_player_id']);
    const me = request.player_id;
    const alive = request.public_world_view.players.filter((p) => p.alive && p.player_id !== me && p.player_id !== target).map((p) => p.player_id);
    if (named === null || !alive.includes(named))
      out.push({ rule: 'illegal_named_player', message: `${legal.name} needs payload.named_player_id: an alive third seat, neither you nor the target (${named === null ? 'none was named' : `not \`${named}\``}; allowed: ${alive.map((p) => `\`${p}\``).join(', ') || 'none'})` });
  }
  return out;
}

/**
 * The attack findings of an action-window answer (its selected action and, in compact windows, its
 * follow-up); none for other windows or non-attacking actions.
 *
 * @example attackFindings({ selected_action: { kind: 'play_card', payload: { card_id: 'card_3', target_player_id: 'plr_2' } } }, request) // [{ rule: 'missing_attack_plan', … }]
 */
export function attackFindings(decision: unknown, request: TurnPlanRequest): AttackFinding[] {
  if (request.window !== 'action' || !isObject(decision)) return [];
  const followUp = isObject(decision['follow_up']) ? decision['follow_up'] : null;
  return [
    ...checkOne(decision['selected_action'], decision['attack_plan'], 'selected_action', request),
    ...(followUp ? checkOne(followUp['selected_action'], followUp['attack_plan'], 'follow_up', request) : []),
  ];
}
