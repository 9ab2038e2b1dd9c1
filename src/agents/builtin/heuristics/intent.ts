import type { DeliveryChannel, KineticIntent, ManipulationPlan, SecretPlan, TacticalIntent } from '../../../protocol/index.js';
import type { Memory, RoundPlan } from './memory.js';
import { afraid } from './moods.js';
import type { Personality } from './personality.js';
import { settable } from './plans.js';
import { line } from './speech-text.js';
import { chooseEmotion, rankTargets, worthBreaking } from './targeting.js';
import { nameOf, opp, standing, type View } from './view.js';

const KINETIC_OF: Readonly<Record<string, KineticIntent>> = {
  Feint: 'tempo_swing',
  Strip: 'lockout',
  Sever: 'combo_break',
  Overreach: 'discard_pressure',
};

function tacticalFrom(v: View, defend: boolean): TacticalIntent {
  if (defend) return 'defend';
  const hand = v.r.player_private_view.hand;
  for (const c of hand) {
    const k = KINETIC_OF[c.name];
    if (k) return k;
  }
  return hand.some((c) => c.type === 'pressure') ? 'discard_pressure' : hand.some((c) => c.type === 'ritual') ? 'build' : 'defend';
}

/** The third seat a private cue names: the strongest other seat, whom we want the target to fear. */
function thirdSeat(v: View, target: string): string | null {
  let best: string | null = null;
  let top = -Infinity;
  for (const o of v.opps) {
    if (o.player_id === target) continue;
    const s = standing(o) + v.rng.next();
    if (s > top) {
      top = s;
      best = o.player_id;
    }
  }
  return best;
}

function channelFor(v: View, pers: Personality, plan: ManipulationPlan): DeliveryChannel {
  if (plan === 'status_challenge' || plan === 'public_isolation') return v.rng.next() < 0.5 ? 'public' : 'mixed';
  return v.rng.next() < pers.publicBias ? 'public' : 'private';
}

/**
 * The round's intention (intent window, or the start of a compact answer): whom to hurt, with which
 * emotion and plan, so talk can set the plan up and the attack can align with the secret plan.
 */
export function planRound(v: View, m: Memory, pers: Personality): RoundPlan {
  const defend = afraid(v.emo);
  const forced = v.r.constraints.forced_target;
  const allowed = forced ? [forced] : v.opps.map((p) => p.player_id);
  const breakWord = pers.breakPromise > 0 && v.rng.next() < pers.breakPromise;
  const target = rankTargets(v, m, pers, allowed, breakWord)[0] ?? null;
  let plan: ManipulationPlan = 'threat_framing';
  if (target) {
    const wantsWord = breakWord || (pers.breakPromise > 0 && v.rng.next() < pers.breakPromise);
    const t = opp(v, target);
    const usable = pers.plans.filter((p) => (p !== 'false_concession' || (wantsWord && (!t || worthBreaking(pers, t)))) && settable(v, p, target));
    // A little variety so that every plan a personality likes gets used.
    plan = usable[v.rng.next() < 0.7 ? 0 : v.rng.int(usable.length)] ?? 'threat_framing';
  }
  return {
    turn: v.r.turn,
    target,
    emotion: chooseEmotion(v, pers, target ? opp(v, target) : undefined),
    plan,
    channel: channelFor(v, pers, plan),
    tactical: tacticalFrom(v, defend),
    named: target ? thirdSeat(v, target) : null,
    defend,
  };
}

/** The SecretPlan committed at intent, from the round plan. */
export function secretPlan(v: View, pers: Personality, p: RoundPlan): SecretPlan {
  const out: SecretPlan = {
    tactical_intent: p.tactical,
    emotional_intent: p.target ? { emotion: p.emotion, target_player_id: p.target } : null,
  };
  if (pers.deception > 0 && v.rng.next() < pers.deception) out.deception_frame = line(v.rng, 'frame', p.target ? nameOf(v, p.target) : 'the table');
  return out;
}
