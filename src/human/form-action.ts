import type { AttackPlan, LegalAction, TurnPlanRequest } from '../protocol/index.js';
import { BEHAVIOR_SHIFTS, EMOTIONAL_INTENTS, EMOTIONS, MANIPULATION_PLANS, SPEECH_TEXT_MAX } from '../protocol/index.js';
import type { Choice, FieldList, Values } from './form-fields.js';
import { cardLabel, seatChoices, wordChoices } from './form-words.js';

type Playable = Extract<LegalAction, { kind: 'play_card' | 'activate' }>;

const PASS = 'pass';
const CONFIDENCES: readonly Choice[] = [0, 0.25, 0.5, 0.75, 1].map((c) => ({ value: String(c), label: `${c * 100}% sure` }));

/** The card choices of an action window: play/activate entries by `kind:card_id`, then pass. */
const playables = (request: TurnPlanRequest): Playable[] => request.legal_actions.filter((a): a is Playable => a.kind === 'play_card' || a.kind === 'activate');
const choiceOf = (a: Playable) => `${a.kind}:${a.card_id}`;

function cardChoice(a: Playable): Choice {
  const how = a.kind === 'activate' ? (a.attack ? 'spring your trap: ' : 'hasten your ritual: ') : 'play ';
  return { value: choiceOf(a), label: `${how}${cardLabel(a.name)}` };
}

/** The legal entry the form's `card` value names (undefined for pass). */
export function chosenCard(request: TurnPlanRequest, values: Values): Playable | undefined {
  return playables(request).find((a) => choiceOf(a) === values.card);
}

/**
 * The action part of a form: a card (play one from hand, activate one in the arena) or pass; for
 * an attack its target and AttackPlan; Whisper's third seat; False Tell's emotion. Options come
 * from the card's own legal entry, so changing the card re-derives them. The default is the first
 * card the seat may play (a real move), with its first target and intent; pass when none.
 */
export function actionFields(list: FieldList, request: TurnPlanRequest): void {
  const cards = playables(request);
  const options: Choice[] = [...cards.map(cardChoice), { value: PASS, label: 'pass (do nothing more this round)' }];
  const card = list.select('card', 'Card', options, cards[0] ? choiceOf(cards[0]) : PASS);
  const legal = cards.find((a) => choiceOf(a) === card);
  if (!legal) return;
  if (legal.attack) {
    const target = list.select('target', 'Target', seatChoices(request, legal.targets));
    if (legal.kind === 'play_card' && legal.needs_named_player) {
      const thirds = request.public_world_view.players.filter((p) => p.alive && p.player_id !== request.player_id && p.player_id !== target).map((p) => p.player_id);
      list.select('named_player', 'Whose trust it poisons (a third seat)', seatChoices(request, thirds));
    }
    list.select('kinetic_intent', 'Kinetic intent', wordChoices(legal.kinetic_intents));
    list.select('emotional_intent', 'Emotion you aim to stir', wordChoices(EMOTIONAL_INTENTS));
    list.select('manipulation_plan', 'Manipulation plan', wordChoices(MANIPULATION_PLANS));
    list.select('channel', 'Delivered', wordChoices(legal.channels));
    list.text('expected_behavior_shift', `What you expect them to do (start with ${BEHAVIOR_SHIFTS.join(', ')} to have the read scored)`, SPEECH_TEXT_MAX, true);
    list.select('confidence', 'How sure you are', CONFIDENCES, '0.5');
  }
  if (legal.kind === 'play_card' && legal.needs_chosen_emotion) list.select('chosen_emotion', 'The emotion your mask shows', wordChoices(EMOTIONS));
}

/** The `selected_action` and `attack_plan` of the form's action part. */
export function actionOf(request: TurnPlanRequest, values: Values): { selected_action: unknown; attack_plan: AttackPlan | null } {
  const legal = chosenCard(request, values);
  if (!legal) return { selected_action: { kind: 'pass' }, attack_plan: null };
  const payload: Record<string, string> = { card_id: legal.card_id };
  let attack_plan: AttackPlan | null = null;
  if (legal.attack) {
    const target = values.target ?? '';
    payload.target_player_id = target;
    if (values.named_player) payload.named_player_id = values.named_player;
    attack_plan = {
      kinetic_intent: values.kinetic_intent as AttackPlan['kinetic_intent'],
      emotional_intent: values.emotional_intent as AttackPlan['emotional_intent'],
      manipulation_plan: values.manipulation_plan as AttackPlan['manipulation_plan'],
      delivery_channel: values.channel as AttackPlan['delivery_channel'],
      target_player_id: target,
      expected_behavior_shift: values.expected_behavior_shift ?? '',
      confidence: Number(values.confidence ?? '0.5'),
    };
  }
  if (values.chosen_emotion) payload.chosen_emotion = values.chosen_emotion;
  return { selected_action: { kind: legal.kind, payload }, attack_plan };
}
