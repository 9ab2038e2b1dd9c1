import type { AttackPlan, LegalAction, TurnPlanRequest } from '../../protocol/index.js';
import { EMOTIONAL_INTENTS, MANIPULATION_PLANS, SPEECH_ACTS, TACTICAL_INTENTS, BEHAVIOR_SHIFTS, EMOTIONS } from '../../protocol/index.js';
import { Rng, seedRng } from '../../game/rng.js';
import type { Agent } from '../agent.js';

/** `random`: a uniform choice among legal options, with a well-formed AttackPlan for attacks. */
export function randomAgent(seed: string): Agent {
  const rng = new Rng(seedRng(seed));
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)]!;
  const others = (r: TurnPlanRequest) => r.public_world_view.players.filter((p) => p.alive && p.player_id !== r.player_id).map((p) => p.player_id);

  function actionFor(r: TurnPlanRequest, legal: LegalAction) {
    if (legal.kind === 'pass') return { selected_action: { kind: 'pass' }, attack_plan: null };
    if (legal.kind !== 'play_card' && legal.kind !== 'activate') return { selected_action: { kind: 'pass' }, attack_plan: null };
    const payload: Record<string, unknown> = { card_id: legal.card_id };
    let attack_plan: AttackPlan | null = null;
    if (legal.attack) {
      const target = pick(legal.targets);
      payload.target_player_id = target;
      if (legal.kind === 'play_card' && legal.needs_named_player) payload.named_player_id = pick(others(r).filter((o) => o !== target));
      attack_plan = {
        kinetic_intent: pick(legal.kinetic_intents),
        emotional_intent: pick(EMOTIONAL_INTENTS),
        manipulation_plan: pick(MANIPULATION_PLANS),
        delivery_channel: pick(legal.channels),
        target_player_id: target,
        expected_behavior_shift: pick(BEHAVIOR_SHIFTS),
        confidence: Math.round(rng.next() * 100) / 100,
      };
    }
    if (legal.kind === 'play_card' && legal.needs_chosen_emotion) payload.chosen_emotion = pick(EMOTIONS);
    return { selected_action: { kind: legal.kind, payload }, attack_plan };
  }

  return {
    name: 'random',
    decide(r) {
      const targets = others(r);
      switch (r.window) {
        case 'intent':
          return {
            tactical_intent: pick(TACTICAL_INTENTS),
            emotional_intent: targets.length && rng.next() < 0.7 ? { emotion: pick(EMOTIONAL_INTENTS), target_player_id: pick(targets) } : null,
          };
        case 'talk': {
          if (rng.next() < 0.5 || targets.length === 0) return { speech_actions: [] };
          const target = pick(targets);
          const channel = rng.next() < 0.5 ? 'public' : 'private';
          return { speech_actions: [{ channel, target_player_id: target, text: `${target}, mark my words.`, speech_act: pick(SPEECH_ACTS) }] };
        }
        case 'action': {
          const legal = r.legal_actions.filter((a) => a.kind !== 'speak');
          return actionFor(r, pick(legal));
        }
        case 'reaction': {
          const legal = pick(r.legal_actions);
          return { card_id: legal.kind === 'reaction' ? legal.card_id : null };
        }
        case 'reflect':
          return { memory_updates: [] };
      }
    },
  };
}
