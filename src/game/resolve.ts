import { defOf } from './cards.js';
import { engagementOf } from './rules.js';
import { runContest } from './contest.js';
import type { StepContext } from './context.js';
import { EffectBuilder } from './effect-builder.js';
import { applyKinetic } from './kinetic.js';
import { settleLedger } from './ledger.js';
import { roundHalfAway } from './math.js';
import { alivePlayers, player } from './players.js';
import { parseShift, scorePredictions } from './predictions.js';
import { slipChance } from './slip.js';
import type { StackEntry } from './state.js';
import { springTraps } from './traps.js';
import { fireRitual } from './upkeep.js';
import { cardRef } from './views-cards.js';
import type { CardMove } from '../protocol/index.js';

/** Resolve: plans are revealed, the stack resolves in submission order, then ledger and reads settle. */
export function runResolve(ctx: StepContext): void {
  const s = ctx.state;
  const plans = Object.fromEntries(alivePlayers(s).flatMap((p) => (p.secret_plan ? [[p.player_id, p.secret_plan]] : [])));
  ctx.emit('plans_revealed', { plans });
  while (s.stack.length > 0) resolveAction(ctx, s.stack[0]!);
  settleLedger(ctx);
  scorePredictions(ctx);
}

export function resolveAction(ctx: StepContext, entry: StackEntry): void {
  const s = ctx.state;
  const r = s.rules;
  const actor = entry.player_id;
  const def = defOf(s, entry.card_id);
  const plan = entry.attack_plan;
  const fx = new EffectBuilder(s);
  const guard = entry.reaction_card_id ? defOf(s, entry.reaction_card_id) : null;
  if (entry.reaction_card_id) fx.moves.push({ card_id: entry.reaction_card_id, from: 'stack', to: 'discard', reason: 'reaction' });

  const inArena = s.arena.find((a) => a.card_id === entry.card_id);
  // Overextending costs exposure whether or not the second action comes to anything.
  if (entry.index === 2) fx.addExposure(actor, r.exposure.second_action);
  if (entry.kind === 'activate' && !inArena) {
    ctx.emit('action_resolved', {
      action_id: entry.action_id,
      actor_player_id: actor,
      target_player_ids: plan ? [plan.target_player_id] : [],
      kind: entry.kind,
      card: cardRef(entry.card_id, def),
      attack_plan: plan,
      tactical_effect: fx.tactical(),
      affective_effect: fx.affective(),
      manipulation_outcome: null,
      manipulation: null,
      slipped: false,
      prediction: null,
      fizzled: true,
      rules_notes: ['fizzled: the activated card left the arena before resolve'],
    }, [{ key: 'affective_effect', to: [] }]);
    return;
  }

  const rng = ctx.random();
  const slipped = rng.next() < slipChance(player(s, actor).emotions, r.slip);
  const halve = (n: number) => (slipped ? Math.floor(n / 2) : n);
  if (slipped) {
    fx.addExposure(actor, r.exposure.slip);
    fx.notes.push(`slip: ${actor} misplays; tactical effect halved, exposure +1`);
  }

  let contest = null;
  let prediction = null;
  let fireNow: string | null = null;
  const privateMoves: CardMove[] = [];
  if (plan) {
    const target = plan.target_player_id;
    const springing = entry.kind === 'activate';
    const trap = springTraps(s, fx, entry, def, target);
    const baseDamage = springing ? r.activate.spring_damage : def.damage;
    const amplified = roundHalfAway(halve(baseDamage) * (1 + r.damage_exposure_factor * player(s, target).exposure));
    // Rules 2.0.0: a guard softens a blow but cannot erase it (guard_chip gets through).
    const prevented = guard ? Math.max(0, Math.min(amplified - engagementOf(r).guard_chip, guard.prevent)) : 0;
    const dealt = amplified - prevented;
    if (dealt > 0) fx.addResolve(target, -dealt);
    if (guard) {
      fx.notes.push(`${guard.name}: prevented ${prevented}`);
      if (guard.counterDamage > 0) fx.addResolve(actor, -guard.counterDamage);
    }
    if (def.type === 'gambit' && !springing && dealt > 0) fx.addTempo(actor, r.tempo.gambit_damage);
    // Rules 2.0.0: a blow that lands pays its attacker back, so pressing is not a gift to bystanders.
    if (dealt > 0 && engagementOf(r).spoils > 0) fx.addResolve(actor, engagementOf(r).spoils, r.resolve_baseline);
    if (def.kineticApplies || springing) {
      const amount = plan.kinetic_intent === 'discard_pressure' ? def.discardCount : plan.kinetic_intent === 'tempo_swing' ? r.tempo.tempo_swing : 1;
      const note = applyKinetic(s, rng, fx, plan.kinetic_intent, actor, target, halve(amount));
      if (note) fx.notes.push(note);
    }
    if (def.ownExposure) fx.addExposure(actor, def.ownExposure);
    const previous = s.rounds.length > 1 ? s.rounds[s.rounds.length - 2] : undefined;
    if (previous?.kinetic[actor]?.includes(plan.kinetic_intent)) {
      fx.addExposure(actor, r.exposure.repeat_intent);
      fx.notes.push(`predictable: ${actor} repeats ${plan.kinetic_intent}`);
    }
    if (def.audienceTrust) {
      for (const o of alivePlayers(s)) if (o.player_id !== target && o.player_id !== actor) fx.addTrust(o.player_id, target, def.audienceTrust);
    }
    if (def.namedTrust && entry.payload.named_player_id) fx.addTrust(target, entry.payload.named_player_id, def.namedTrust);
    const affect = (springing ? r.activate.spring_affect : def.affect) * trap.affectScale;
    contest = runContest(s, rng, fx, { actor, plan, affect, guard });
    if (dealt > 0) fx.notes.push(`${actor} deals ${dealt} to ${target}`);
    const shift = parseShift(plan.expected_behavior_shift);
    if (shift) prediction = { predicted: shift, from_turn: s.turn + 1, to_turn: s.turn + r.prediction_rounds };
  } else if (entry.kind === 'activate') {
    // Hastening a ritual: its countdown drops by one; at 0 it fires right after this resolution.
    const countdown = Math.max(0, (inArena!.countdown ?? 1) - 1);
    fx.moves.push({
      card_id: entry.card_id,
      from: `arena:${actor}`,
      to: `arena:${actor}`,
      reason: 'hasten',
      arena: { face_down: false, rounds_left: null, countdown, chosen_emotion: null },
    });
    fx.notes.push(`${def.name} hastened to ${countdown}`);
    if (countdown === 0) fireNow = entry.card_id;
  } else {
    const move = {
      card_id: entry.card_id,
      from: 'stack' as const,
      to: `arena:${actor}` as const,
      reason: 'played',
      arena: { face_down: def.faceDown, rounds_left: def.rounds, countdown: def.countdown, chosen_emotion: entry.payload.chosen_emotion ?? null },
    };
    // Which card went face down is the owner's secret (card ids are otherwise traceable).
    if (def.faceDown) privateMoves.push(move);
    else fx.moves.push(move);
    if (def.name === 'Composure') fx.addEmotion(actor, { tilt: r.effects.composure_tilt });
    if (def.name === 'Poker Face') fx.addExposure(actor, -halve(-r.effects.poker_face_exposure));
  }
  if (entry.kind === 'play_card' && plan) {
    fx.moves.push({ card_id: entry.card_id, from: 'stack', to: 'discard', reason: 'resolved' });
  } else if (entry.kind === 'activate' && plan) {
    fx.moves.push({ card_id: entry.card_id, from: `arena:${actor}`, to: 'discard', reason: 'sprung' });
  }

  ctx.emit(
    'action_resolved',
    {
      action_id: entry.action_id,
      actor_player_id: actor,
      target_player_ids: plan ? [plan.target_player_id] : [],
      kind: entry.kind,
      card: def.faceDown && entry.kind === 'play_card' ? null : cardRef(entry.card_id, def),
      attack_plan: plan,
      tactical_effect: fx.tactical(),
      affective_effect: fx.affective(),
      manipulation: contest,
      manipulation_outcome: contest?.outcome ?? null,
      slipped,
      prediction,
      fizzled: false,
      ...(privateMoves.length ? { private_moves: privateMoves } : {}),
      rules_notes: fx.notes,
    },
    [
      { key: 'affective_effect', to: [] },
      { key: 'manipulation', to: [] },
      { key: 'private_moves', to: [actor] },
    ],
  );
  if (fireNow) fireRitual(ctx, fireNow);
}
