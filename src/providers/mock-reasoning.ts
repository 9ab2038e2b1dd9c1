import type {
  AttackPlan,
  SecretPlan,
  SpeechActionPayload,
  TacticalIntent,
  TurnPlanRequest,
} from '../protocol/index.js';
import { digest } from './mock-draw.js';
import type { MockPersonality } from './mock-options.js';

/**
 * The one-sentence `reasoning` a model adds to its answer (the LLM agent puts it in the trace).
 * Written from the decision itself, so it never claims what the answer does not do; the wording
 * varies with the call digest so traces read like several models, not one template.
 */

const TACTICS: Readonly<Record<TacticalIntent, string>> = {
  discard_pressure: 'squeeze hands',
  lockout: 'lock a seat out',
  combo_break: 'break up a combo',
  tempo_swing: 'swing the tempo my way',
  forced_line: 'force a line',
  defend: 'hold my ground',
  build: 'build up',
};

type ActionLike = {
  selected_action?: { kind?: string; payload?: { card_id?: string } };
  attack_plan?: AttackPlan | null;
};

const plain = (s: string) => s.replaceAll('_', ' ');

function nameOf(r: TurnPlanRequest, id: string | null | undefined): string {
  if (!id) return 'the table';
  return r.public_world_view.players.find((p) => p.player_id === id)?.display_name ?? id;
}

function cardOf(r: TurnPlanRequest, id: string | undefined): string {
  for (const a of r.legal_actions)
    if (
      (a.kind === 'play_card' || a.kind === 'activate' || a.kind === 'reaction') &&
      a.card_id === id
    )
      return a.name;
  return r.player_private_view.hand.find((c) => c.card_id === id)?.name ?? 'a card';
}

function move(r: TurnPlanRequest, a: ActionLike): string | null {
  const kind = a.selected_action?.kind;
  if (!kind || kind === 'pass') return null;
  const card = cardOf(r, a.selected_action?.payload?.card_id);
  const verb = kind === 'activate' ? 'spring' : 'play';
  const p = a.attack_plan;
  return p
    ? `${verb} ${card} on ${nameOf(r, p.target_player_id)} to work ${p.emotional_intent} through ${plain(p.manipulation_plan)}`
    : `${verb} ${card}`;
}

function intent(r: TurnPlanRequest, d: SecretPlan, v: number): string {
  const how = TACTICS[d.tactical_intent] ?? 'play it safe';
  const aim = d.emotional_intent;
  if (!aim) return `I keep my head down this round and ${how}.`;
  const who = nameOf(r, aim.target_player_id);
  return v % 2
    ? `${who} is the one to lean on: ${aim.emotion}, while I ${how}.`
    : `This round I ${how} and work ${aim.emotion} into ${who}.`;
}

function talk(r: TurnPlanRequest, said: readonly SpeechActionPayload[], v: number): string {
  const first = said[0];
  if (!first)
    return v % 2 ? 'Silence says enough this round.' : 'I keep my cards and my words close.';
  const more =
    said.length > 1 ? `, and ${said.length - 1} more line${said.length > 2 ? 's' : ''}` : '';
  return `A ${first.channel} ${first.speech_act} at ${nameOf(r, first.target_player_id)} sets things up${more}.`;
}

function action(
  r: TurnPlanRequest,
  d: ActionLike & { follow_up?: ActionLike | null },
  v: number,
): string {
  const first = move(r, d);
  if (!first)
    return v % 2
      ? 'Nothing on offer beats keeping my tempo, so I pass.'
      : 'I pass and let the others overextend.';
  const then = d.follow_up ? move(r, d.follow_up) : null;
  return `I ${first}${then ? `, then ${then}` : ''}.`;
}

function reaction(r: TurnPlanRequest, cardId: string | null): string {
  const inc = r.constraints.incoming_attack;
  const what = inc ? `${inc.card_name} from ${nameOf(r, inc.attacker_player_id)}` : 'this hit';
  return cardId
    ? `${cardOf(r, cardId)} is worth spending against ${what}.`
    : `I take ${what} and keep my guards.`;
}

/**
 * @example reasoningFor(request, { card_id: null }, key, 'turtle') // 'I take Needle from Bram and keep my guards.'
 */
export function reasoningFor(
  r: TurnPlanRequest,
  decision: Record<string, unknown>,
  key: string,
  personality: MockPersonality,
): string {
  const v = parseInt(digest('wording', key).slice(0, 4), 16);
  switch (r.window) {
    case 'intent':
      return intent(r, decision as unknown as SecretPlan, v);
    case 'talk':
      return talk(r, (decision['speech_actions'] ?? []) as SpeechActionPayload[], v);
    case 'action':
      return action(r, decision, v);
    case 'reaction':
      return reaction(r, (decision['card_id'] ?? null) as string | null);
    case 'reflect':
      return `As a ${personality} seat I note how turn ${r.turn} went and move on.`;
  }
}
