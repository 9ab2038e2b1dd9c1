import type { DeliveryChannel, ManipulationPlan, SpeechAct } from '../../../protocol/index.js';
import type { Personality } from './personality.js';
import { opp, pendingTrap, readEmotion, type View } from './view.js';

/** A line of our own talk this round (posted, or about to be posted in a compact answer). */
export type Said = {
  readonly channel: 'public' | 'private';
  readonly target_player_id: string | null;
  readonly text: string | null;
  readonly speech_act: SpeechAct | null;
};

const isPublic = (c: DeliveryChannel) => c !== 'private';

type Cue = 'threat' | 'word' | 'names_third';

function matches(v: View, x: Said, target: string, cue: Cue): boolean {
  if (x.target_player_id !== target) return false;
  switch (cue) {
    case 'threat':
      return x.speech_act === 'threat';
    case 'word':
      return x.speech_act === 'promise' || x.speech_act === 'concession';
    case 'names_third':
      return x.channel === 'private' && x.text !== null && namesThird(v, target, x.text);
  }
}

/** Whether our talk to `target` this round (posted, or about to be) has the cue; we see our own acts. */
function saidTo(v: View, target: string, extra: readonly Said[], cue: Cue): boolean {
  for (const x of v.r.public_world_view.round_speech) if (x.player_id === v.id && matches(v, x, target, cue)) return true;
  for (const x of extra) if (matches(v, x, target, cue)) return true;
  return false;
}

/** Whether a private line to the target names a third alive seat (by id or display name). */
function namesThird(v: View, target: string, text: string): boolean {
  const t = text.toLowerCase();
  return v.opps.some((p) => p.player_id !== target && (t.includes(p.player_id.toLowerCase()) || t.includes(p.display_name.toLowerCase())));
}

/**
 * Own traps that will still lie there when our next action resolves: not sprung by an earlier action
 * of ours this round, not set off by attacks already on the stack (a gambit fires a Snare, pressure a
 * Lockjaw). A trap being sprung by this very action still counts: the contest runs before it leaves.
 */
export function standingTraps(v: View): number {
  const w = v.r.public_world_view;
  let snares = 0;
  let lockjaws = 0;
  let others = 0;
  for (const a of w.arena.cards) {
    // False Tell lies face down as well, but only traps make bait.
    if (a.owner_player_id !== v.id || a.card.type !== 'trap') continue;
    if (w.stack.some((e) => e.kind === 'activate' && e.card?.card_id === a.card.card_id)) continue;
    if (a.card.name === 'Snare') snares++;
    else if (a.card.name === 'Lockjaw') lockjaws++;
    else others++;
  }
  for (const e of w.stack) {
    if (e.player_id === v.id || e.target_player_id !== v.id || e.kind !== 'play_card') continue;
    if (e.card?.type === 'gambit' && snares > 0) snares--;
    else if (e.card?.type === 'pressure' && lockjaws > 0) lockjaws--;
  }
  return snares + lockjaws + others;
}

/**
 * The seat's best reading of the engine's plan precondition (rules brief, "plan bonus") from its own
 * view: its own speech, its own face-down traps, and what trust and tells reveal of the target.
 */
export function holds(
  v: View,
  plan: ManipulationPlan,
  target: string,
  channel: DeliveryChannel,
  extra: readonly Said[] = [],
  trapComing = false,
): boolean {
  switch (plan) {
    case 'threat_framing':
      return saidTo(v, target, extra, 'threat');
    case 'false_concession':
      return saidTo(v, target, extra, 'word');
    case 'betrayal_cue':
      return saidTo(v, target, extra, 'names_third');
    case 'bait':
      return trapComing || pendingTrap(v) || standingTraps(v) > 0;
    case 'status_challenge': {
      const p = opp(v, target);
      return isPublic(channel) && !!p && (readEmotion(p, 'dominance') ?? 0) > 0.05;
    }
    case 'public_isolation':
      // Only our own trust is visible; a seat we distrust is usually one the table turned on too.
      return isPublic(channel) && (v.emo.trust[target] ?? 0) < -0.05;
  }
}

/** Plans this round's talk can still set up for the target (given what else the talk holds). */
export function settable(v: View, plan: ManipulationPlan, target: string): boolean {
  switch (plan) {
    case 'threat_framing':
    case 'false_concession':
      return true;
    case 'betrayal_cue':
      return v.opps.length >= 2;
    case 'bait':
      return standingTraps(v) > 0;
    case 'status_challenge':
    case 'public_isolation':
      return holds(v, plan, target, 'public');
  }
}

export type PlanChoice = { plan: ManipulationPlan; channel: DeliveryChannel; holds: boolean };

/**
 * The manipulation plan to name for an attack: the first plan in the personality's order whose
 * precondition holds on a channel the card allows, favouring the channel the round was planned on.
 */
export function choosePlan(
  v: View,
  pers: Personality,
  target: string,
  channels: readonly DeliveryChannel[],
  intended: { plan: ManipulationPlan; channel: DeliveryChannel } | null,
  extra: readonly Said[] = [],
  trapComing = false,
): PlanChoice {
  const order = orderedChannels(v, pers, channels, intended?.channel);
  const tryPlan = (plan: ManipulationPlan): PlanChoice | null => {
    for (const c of order) if (holds(v, plan, target, c, extra, trapComing)) return { plan, channel: c, holds: true };
    return null;
  };
  if (intended) {
    const hit = tryPlan(intended.plan);
    if (hit) return hit;
  }
  for (const plan of pers.plans) {
    const hit = tryPlan(plan);
    if (hit) return hit;
  }
  return { plan: intended?.plan ?? pers.plans[0] ?? 'threat_framing', channel: order[0] ?? 'private', holds: false };
}

const CHANNEL_ORDER: Readonly<Record<'pub' | 'priv', readonly DeliveryChannel[]>> = {
  pub: ['public', 'mixed', 'private'],
  priv: ['private', 'mixed', 'public'],
};

/** The card's channels in the order to try: the planned one first, then by the personality's taste. */
function orderedChannels(v: View, pers: Personality, channels: readonly DeliveryChannel[], first: DeliveryChannel | undefined): DeliveryChannel[] {
  const out: DeliveryChannel[] = [];
  if (first && channels.includes(first)) out.push(first);
  for (const c of CHANNEL_ORDER[v.rng.next() < pers.publicBias ? 'pub' : 'priv']) if (c !== first && channels.includes(c)) out.push(c);
  return out;
}
