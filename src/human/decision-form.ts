import type { LegalAction, TurnPlanRequest, Window } from '../protocol/index.js';
import { EMOTIONAL_INTENTS, SPEECH_TEXT_MAX, TACTICAL_INTENTS } from '../protocol/index.js';
import { actionFields, actionOf } from './form-action.js';
import { FieldList, textProblems, valuesOf, type FormField, type Values } from './form-fields.js';
import { speakOf, speechOf, talkFields } from './form-talk.js';
import { seatChoices, seatName, wordChoices } from './form-words.js';

export type { Choice, FormField, SelectField, TextField } from './form-fields.js';

/**
 * A person's answer to one decision request, as a list of fields in words. Headless: no DOM, no
 * I/O, so the seat page renders it as a <form> and the terminal as numbered menus, and both turn
 * it into the exact decision JSON an agent would return (DECISION_SCHEMAS of the window).
 */
export type DecisionForm = {
  request: TurnPlanRequest;
  window: Window;
  /** What is being decided, in a sentence ("Your action (2 left)"). */
  title: string;
  /** Context a person needs before choosing (an incoming attack, a refused earlier answer). */
  notes: string[];
  fields: FormField[];
};

const NONE = 'none';

function intentFields(list: FieldList, request: TurnPlanRequest, targets: readonly string[]): void {
  list.select('tactical_intent', 'Your plan this round (kept secret until resolve)', wordChoices(TACTICAL_INTENTS), 'build');
  const emotions = targets.length ? [{ value: NONE, label: 'no emotional aim' }, ...wordChoices(EMOTIONAL_INTENTS)] : [{ value: NONE, label: 'no emotional aim' }];
  const emotion = list.select('emotion', 'Emotion you aim to stir', emotions, NONE);
  if (emotion !== NONE) list.select('emotion_target', 'In whom', seatChoices(request, targets));
  list.text('deception_frame', 'The story you want them to believe (optional)', SPEECH_TEXT_MAX, true);
}

function titleOf(r: TurnPlanRequest): string {
  switch (r.window) {
    case 'intent':
      return 'Commit your secret plan for the round';
    case 'talk':
      return 'Talk: speak to the table, or to one seat in private';
    case 'action':
      return r.constraints.compact ? 'Your turn: talk and act' : `Your action (${r.constraints.actions_left} left this round)`;
    case 'reaction':
      return 'You are attacked: guard or not';
    case 'reflect':
      return 'Reflect on the round';
  }
}

function notesOf(r: TurnPlanRequest): string[] {
  const out: string[] = [];
  const c = r.constraints;
  if (c.incoming_attack) out.push(`${seatName(r, c.incoming_attack.attacker_player_id)} attacks you with ${c.incoming_attack.card_name}.`);
  if (c.reprompt) out.push(`Your previous answer was refused: ${c.reprompt.message}. One more try.`);
  if (c.forced_target) out.push(`Your attacks this round must target ${seatName(r, c.forced_target)}.`);
  if (c.locked_out) out.push('You are locked out: one action this round.');
  return out;
}

function build(request: TurnPlanRequest, wanted: Values): DecisionForm {
  const list = new FieldList(wanted);
  const plan = request.legal_actions.find((a): a is Extract<LegalAction, { kind: 'commit_plan' }> => a.kind === 'commit_plan');
  const speak = speakOf(request);
  switch (request.window) {
    case 'intent':
      intentFields(list, request, plan?.targets ?? []);
      break;
    case 'talk':
      if (speak) talkFields(list, request, speak);
      break;
    case 'action':
      actionFields(list, request);
      // A compact window's answer carries the round's talk too (its secret plan is taken from the attack).
      if (request.constraints.compact && speak) talkFields(list, request, speak);
      break;
    case 'reaction': {
      const guards = request.legal_actions.flatMap((a) => (a.kind === 'reaction' ? [{ value: a.card_id, label: `guard with ${a.name} (tempo ${a.tempo_cost})` }] : []));
      // Guarding is the sensible default: it only costs tempo, and the attack is already coming.
      list.select('guard', 'Reaction', [...guards, { value: NONE, label: 'no reaction' }]);
      break;
    }
    case 'reflect':
      list.text('note', 'A note to remember next rounds (optional)', 500, true);
      break;
  }
  return { request, window: request.window, title: titleOf(request), notes: notesOf(request), fields: list.fields };
}

/**
 * The form for a request, pre-filled with a legal answer the engine takes as it is.
 *
 * @example decisionOf(formFor(request)) // e.g. { selected_action: { kind: 'play_card', payload: { card_id: 'card_007', … } }, attack_plan: {…} }
 */
export function formFor(request: TurnPlanRequest): DecisionForm {
  return build(request, {});
}

/**
 * The form with one field changed; the fields after it are re-derived (a new card brings its own
 * targets and intents, a value no longer offered falls back to a legal one). A select given a value
 * it does not offer keeps a legal one; an unknown key changes nothing.
 *
 * @example setField(form, 'card', 'play_card:card_012').fields.map((f) => f.key) // ['card', 'target', …]
 */
export function setField(form: DecisionForm, key: string, value: string): DecisionForm {
  if (!form.fields.some((f) => f.key === key)) return form;
  return build(form.request, { ...valuesOf(form.fields), [key]: value });
}

/** The exact decision JSON the protocol takes for the form's window (DECISION_SCHEMAS). */
export function decisionOf(form: DecisionForm): unknown {
  const v = valuesOf(form.fields);
  switch (form.window) {
    case 'intent': {
      const emotion = v.emotion && v.emotion !== NONE ? { emotion: v.emotion, target_player_id: v.emotion_target ?? '' } : null;
      return { tactical_intent: v.tactical_intent, emotional_intent: emotion, ...(v.deception_frame ? { deception_frame: v.deception_frame } : {}) };
    }
    case 'talk':
      return { speech_actions: speechOf(v) };
    case 'action':
      return form.request.constraints.compact ? { ...actionOf(form.request, v), speech_actions: speechOf(v) } : actionOf(form.request, v);
    case 'reaction':
      return { card_id: v.guard && v.guard !== NONE ? v.guard : null };
    case 'reflect':
      return { memory_updates: v.note?.trim() ? [v.note] : [] };
  }
}

/**
 * What is wrong with the form's answer, in words; empty when the engine would take it. Selects only
 * ever hold legal choices (they are built from `legal_actions`), so what is left to check is text.
 */
export function problemsOf(form: DecisionForm): string[] {
  return textProblems(form.fields);
}
