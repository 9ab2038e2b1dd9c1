import type { SecretPlan, SpeechActionPayload, TurnPlanResponse } from '../../protocol/index.js';
import { IntentDecision, ReactionDecision, ReflectDecision, TalkDecision, TurnPlanResponse as ResponseSchema, parseWith } from '../../protocol/index.js';
import { defOf } from '../cards.js';
import type { StepContext } from '../context.js';
import { currentRound } from '../evolve.js';
import { enters } from '../ledger.js';
import { findPlayer, player } from '../players.js';
import type { PlayerId } from '../state.js';
import { validateAction, type Illegal } from '../validate-action.js';
import { cardRef } from '../views-cards.js';
import { reject } from './reprompt.js';
import { affordableGuards, forcePass, submitAction } from './submit.js';

const DEFAULT_PLAN: SecretPlan = { tactical_intent: 'defend', emotional_intent: null };

const PLAN_HIDDEN = (id: PlayerId) => ['plan', 'defaulted', 'rejection'].map((key) => ({ key, to: [id] }));

const illegal = (code: string, message: string): Illegal => ({ ok: false, code, message });

function checkPlan(ctx: StepContext, id: PlayerId, plan: SecretPlan): Illegal | null {
  const t = plan.emotional_intent?.target_player_id;
  if (t !== undefined) {
    const p = findPlayer(ctx.state, t);
    if (!p || !p.alive || t === id) return illegal('intent/illegal_target', `${t} is not an alive opponent`);
  }
  return null;
}

/** Intent: a SecretPlan; missing or invalid commits the default (defend, no emotional intent). */
export function onIntent(ctx: StepContext, id: PlayerId, decision: unknown): void {
  const parsed = parseWith(IntentDecision, decision);
  const bad = !parsed.ok ? illegal('intent/invalid', parsed.message) : checkPlan(ctx, id, parsed.value);
  if (bad || !parsed.ok) {
    // No public action_rejected here: its existence would tell the table this seat's plan is the default.
    ctx.emit('secret_plan_committed', { player_id: id, plan: DEFAULT_PLAN, defaulted: true, rejection: { code: bad!.code, message: bad!.message } }, PLAN_HIDDEN(id));
    return;
  }
  const { schema_version: _v, ...plan } = parsed.value;
  ctx.emit('secret_plan_committed', { player_id: id, plan, defaulted: false, rejection: null }, PLAN_HIDDEN(id));
}

function checkSpeech(ctx: StepContext, id: PlayerId, speech: readonly SpeechActionPayload[]): Illegal | null {
  const r = ctx.state.rules;
  const pub = speech.filter((x) => x.channel === 'public').length;
  const priv = speech.length - pub;
  if (pub > r.public_statements) return illegal('talk/too_many_public', `at most ${r.public_statements} public statements, got ${pub}`);
  if (priv > r.private_messages) return illegal('talk/too_many_private', `at most ${r.private_messages} private message, got ${priv}`);
  for (const x of speech) {
    if (x.channel === 'private' && !x.target_player_id) return illegal('talk/private_needs_target', 'a private message needs target_player_id');
    if (x.target_player_id !== null) {
      const t = findPlayer(ctx.state, x.target_player_id);
      if (!t || !t.alive || x.target_player_id === id) return illegal('talk/illegal_target', `${x.target_player_id} is not an alive opponent`);
    }
  }
  return null;
}

function postSpeech(ctx: StepContext, id: PlayerId, speech: readonly SpeechActionPayload[]): void {
  for (const x of speech) {
    const s = ctx.state;
    const commitment = enters(x.speech_act, x.target_player_id) ? `cmt_${s.game_id.slice(5)}_${s.next_commitment}` : null;
    const hidden = [
      { key: 'speech_act', to: [id] },
      { key: 'commitment_id', to: [id] },
    ];
    if (x.channel === 'private') hidden.push({ key: 'text', to: [id, x.target_player_id!] });
    ctx.emit('speech_posted', { player_id: id, channel: x.channel, target_player_id: x.target_player_id, text: x.text, speech_act: x.speech_act, commitment_id: commitment }, hidden);
  }
}

/** Talk: up to 2 public statements and 1 private message, in initiative order. */
export function onTalk(ctx: StepContext, id: PlayerId, decision: unknown): void {
  const parsed = parseWith(TalkDecision, decision);
  const bad = !parsed.ok ? illegal('talk/invalid', parsed.message) : checkSpeech(ctx, id, parsed.value.speech_actions);
  if (bad || !parsed.ok) {
    if (!reject(ctx, id, 'talk', bad!.code, bad!.message, true)) ctx.emit('talk_finished', { player_id: id, statements: 0, forced: true });
    return;
  }
  postSpeech(ctx, id, parsed.value.speech_actions);
  ctx.emit('talk_finished', { player_id: id, statements: parsed.value.speech_actions.length, forced: false });
}

/** Action: one action per decision; a rejected one is asked again once, then the seat passes. */
export function onAction(ctx: StepContext, id: PlayerId, decision: unknown): void {
  const parsed = parseWith(ResponseSchema, decision);
  const result = parsed.ok ? validateAction(ctx.state, id, parsed.value) : illegal('action/invalid', parsed.message);
  if (!result.ok) {
    if (!reject(ctx, id, 'action', result.code, result.message, true)) forcePass(ctx, id, `forced pass after ${result.code}`);
    return;
  }
  submitAction(ctx, id, result);
}

/** Reaction: play one affordable Guard from hand against the attack, or not. */
export function onReaction(ctx: StepContext, id: PlayerId, decision: unknown): void {
  const s = ctx.state;
  const actionId = s.window!.reacting_to!;
  const parsed = parseWith(ReactionDecision, decision);
  let bad: Illegal | null = parsed.ok ? null : illegal('reaction/invalid', parsed.message);
  const cardId = parsed.ok ? parsed.value.card_id : null;
  if (!bad && cardId !== null && !affordableGuards(ctx, id).includes(cardId)) {
    bad = illegal('reaction/not_a_guard', `${cardId} is not an affordable Brace or Riposte in your hand`);
  }
  if (bad) {
    if (!reject(ctx, id, 'reaction', bad.code, bad.message, true)) ctx.emit('reaction_submitted', { player_id: id, action_id: actionId, card: null, tempo_paid: 0 });
    return;
  }
  const def = cardId ? defOf(s, cardId) : null;
  ctx.emit('reaction_submitted', { player_id: id, action_id: actionId, card: cardId && def ? cardRef(cardId, def) : null, tempo_paid: def?.tempo ?? 0 });
}

/** Reflect: the agent's memory updates; accuracy and outcome are the engine's own scores. */
export function onReflect(ctx: StepContext, id: PlayerId, decision: unknown): void {
  const s = ctx.state;
  const parsed = parseWith(ReflectDecision, decision);
  if (!parsed.ok) reject(ctx, id, 'reflect', 'reflect/invalid', parsed.message, false);
  const p = player(s, id);
  const outcomes = currentRound(s).outcomes[id] ?? [];
  ctx.emit(
    'reflection_recorded',
    {
      player_id: id,
      record: {
        player_id: id,
        turn: s.turn,
        prediction_accuracy: p.reads_scored ? Math.round((p.reads_correct / p.reads_scored) * 1e4) / 1e4 : 0,
        manipulation_outcome: outcomes[outcomes.length - 1] ?? null,
        memory_updates: parsed.ok ? parsed.value.memory_updates : [],
      },
    },
    [{ key: 'record', to: [id] }],
  );
}

function compactPlan(r: TurnPlanResponse): SecretPlan {
  if (r.secret_plan) return r.secret_plan;
  // Derived from the attack itself, the plan carries no emotional intent: alignment with one's own
  // committed plan is a bonus for planning ahead, which a compact answer did not do.
  const plan = r.attack_plan;
  if (plan) return { tactical_intent: plan.kinetic_intent, emotional_intent: null };
  return r.selected_action.kind === 'pass' ? DEFAULT_PLAN : { tactical_intent: 'build', emotional_intent: null };
}

/** Compact windows: secret plan, speech and up to two actions in one answer. */
export function onCompact(ctx: StepContext, id: PlayerId, decision: unknown): void {
  const parsed = parseWith(ResponseSchema, decision);
  let bad: Illegal | null = parsed.ok ? null : illegal('action/invalid', parsed.message);
  let first = null;
  if (parsed.ok) {
    const plan = compactPlan(parsed.value);
    bad = checkSpeech(ctx, id, parsed.value.speech_actions) ?? checkPlan(ctx, id, plan);
    if (!bad) {
      first = validateAction(ctx.state, id, parsed.value);
      if (!first.ok) bad = first;
    }
  }
  if (bad || !parsed.ok || !first?.ok) {
    if (!reject(ctx, id, 'action', bad!.code, bad!.message, true)) {
      ctx.emit('secret_plan_committed', { player_id: id, plan: DEFAULT_PLAN, defaulted: true, rejection: null }, PLAN_HIDDEN(id));
      forcePass(ctx, id, `forced pass after ${bad!.code}`);
    }
    return;
  }
  const r = parsed.value;
  ctx.emit('secret_plan_committed', { player_id: id, plan: compactPlan(r), defaulted: false, rejection: null }, PLAN_HIDDEN(id));
  postSpeech(ctx, id, r.speech_actions);
  submitAction(ctx, id, first);
  if (first.kind === 'pass') return;
  const w = ctx.state.window;
  if (!w || w.queue[0] !== id) return; // the seat's actions are used up (lockout)
  if (r.follow_up) {
    const second = validateAction(ctx.state, id, r.follow_up);
    if (second.ok) {
      submitAction(ctx, id, second);
      if (ctx.state.window?.queue[0] === id && second.kind !== 'pass') submitAction(ctx, id, { ...second, kind: 'pass' });
      return;
    }
    reject(ctx, id, 'action', second.code, second.message, false);
  }
  if (ctx.state.window?.queue[0] === id) submitAction(ctx, id, { ...first, kind: 'pass' });
}
