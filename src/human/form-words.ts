import type { TurnPlanRequest } from '../protocol/index.js';
import { cardLine } from '../game/card-text.js';
import type { Choice } from './form-fields.js';

/**
 * Words for the choices of a decision form: seats by their display names, cards with their text,
 * and the closed vocabularies of the protocol as a person would say them.
 */

/** A seat's display name as the request's public view gives it (its id when unknown). */
export function seatName(request: TurnPlanRequest, id: string): string {
  return request.public_world_view.players.find((p) => p.player_id === id)?.display_name ?? id;
}

/** The seats as choices, in the order given. */
export const seatChoices = (request: TurnPlanRequest, ids: readonly string[]): Choice[] => ids.map((id) => ({ value: id, label: seatName(request, id) }));

/** "Feint — tempo 0 · 2 damage · affect 0.2 — Attack; may swing tempo or force a line." */
export function cardLabel(name: string): string {
  const line = cardLine(name);
  return line ? `${name} — ${line}` : name;
}

const WORDS: Readonly<Record<string, string>> = {
  // kinetic and tactical intents
  discard_pressure: 'discard pressure (make them discard)',
  lockout: 'lockout (1 action next round)',
  combo_break: 'combo break (destroy an arena card)',
  tempo_swing: 'tempo swing (take up to 2 tempo)',
  forced_line: 'forced line (next round they may only attack you)',
  defend: 'defend',
  build: 'build',
  // emotional intents
  fear: 'fear',
  anger: 'anger',
  shame: 'shame',
  tilt: 'tilt',
  overconfidence: 'overconfidence',
  paranoia: 'paranoia',
  // manipulation plans
  threat_framing: 'threat framing',
  bait: 'bait',
  false_concession: 'false concession',
  public_isolation: 'public isolation',
  status_challenge: 'status challenge',
  betrayal_cue: 'betrayal cue',
  // delivery channels
  public: 'in public',
  private: 'in private',
  mixed: 'mixed (public and private)',
  // speech acts
  threat: 'a threat',
  promise: 'a promise',
  bluff: 'a bluff',
  warning: 'a warning',
  concession: 'a concession',
  taunt: 'a taunt',
  neutral: 'neutral',
};

/** The words for a protocol value (underscores to spaces for anything not listed). */
export const words = (value: string): string => WORDS[value] ?? value.replaceAll('_', ' ');

/** The values as choices with their words. */
export const wordChoices = (values: readonly string[]): Choice[] => values.map((value) => ({ value, label: words(value) }));
