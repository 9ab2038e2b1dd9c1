import type { ActionPayload, AttackPlan, EmotionName } from '../../../protocol/index.js';
import { attackCtx, attackPlan, evalAttack, type AttackCtx, type AttackEval } from './attack.js';
import { afraid, angry } from './moods.js';
import { promised, type Memory } from './memory.js';
import type { Personality } from './personality.js';
import type { Said } from './plans.js';
import { grudge } from './targeting.js';
import { EXPOSURE_WORTH, evalSupport, exposureCost, tempoWeight } from './values.js';
import { type CardLegal, type View, weighted } from './view.js';

/** One option of the action window with its worth. `legal` null is a pass. */
export type Candidate = { value: number; legal: CardLegal | null; attack: AttackEval | null };

export type ChoiceOptions = {
  /** The seat already acted this round: a second action costs exposure. */
  second: boolean;
  tempo: number;
  exclude: ReadonlySet<string>;
  /** Compact answers: talk that will be posted with this action. */
  extra: readonly Said[];
  /** A trap of ours resolves before this action (bait holds). */
  trapComing: boolean;
  /** List an attack once per target (the expert's wide candidates), not only at its best target. */
  everyTarget?: boolean;
};

const isShield = (l: CardLegal) => l.kind === 'play_card' && (l.type === 'guard' || l.type === 'mask');

/** Fear freezes: anything but a guard or a mask must clear this much more (attacks more still). */
const FEAR_FREEZE = 1.5;

/** Extra bar for a compact answer's second action. */
const BLIND_FOLLOW_UP = 1;

/** Keeping a trap face down is worth this much; springing it gives that up. */
const TRAP_HOLD: Readonly<Record<string, number>> = { Snare: 1.1, Lockjaw: 0.8, Tell: 0.35 };

/** The attack's evaluation at each target worth one: the best only, or every one with `everyTarget`. */
function attacks(v: View, m: Memory, pers: Personality, ctx: AttackCtx, legal: CardLegal, o: ChoiceOptions): AttackEval[] {
  let best: AttackEval | null = null;
  const all: AttackEval[] = [];
  // Anger narrows the view: an angry seat goes after whoever it holds the biggest grievance against.
  // A searching seat weighs every target instead (its search, not its mood, picks one).
  const focus = !o.everyTarget && angry(v.emo) ? grudge(v, legal.targets) : null;
  for (const id of focus ? [focus] : legal.targets) {
    if (promised(m, id) && m.plan?.target !== id) continue;
    const t = v.opps.find((p) => p.player_id === id);
    if (!t) continue;
    const ev = evalAttack(v, m, pers, ctx, legal, t, o.extra, o.trapComing);
    if (!ev) continue;
    all.push(ev);
    if (!best || ev.value > best.value) best = ev;
  }
  return o.everyTarget ? all : best ? [best] : [];
}

/** Every option worth a thought, valued in rough "resolve points" for this seat. */
export function candidates(v: View, m: Memory, pers: Personality, o: ChoiceOptions): Candidate[] {
  const out: Candidate[] = [];
  const tw = tempoWeight(o.tempo);
  const handFull = v.r.player_private_view.hand.length >= 7 ? 0.25 : 0;
  const xc = exposureCost(v);
  // A compact follow-up is chosen blind (before anyone else has moved), so it must clear a higher bar.
  const extraCost = o.second ? pers.secondAction + xc + (v.r.constraints.compact ? BLIND_FOLLOW_UP : 0) : 0;
  const fearful = afraid(v.emo);
  const ctx = attackCtx(v);
  for (const legal of v.r.legal_actions) {
    if (legal.kind !== 'play_card' && legal.kind !== 'activate') continue;
    if (legal.tempo_cost > o.tempo || o.exclude.has(legal.card_id)) continue;
    const extra = -tw * legal.tempo_cost - extraCost + (legal.kind === 'play_card' ? handFull : 0);
    if (legal.attack) {
      for (const attack of attacks(v, m, pers, ctx, legal, o)) {
        let value = legal.kind === 'activate' ? pers.spring * (attack.value - (TRAP_HOLD[legal.name] ?? 0.5)) : pers.type[legal.type] * attack.value;
        if (fearful) value -= FEAR_FREEZE + 1;
        value += extra + v.rng.uniform(-0.25, 0.25);
        out.push({ value, legal, attack });
      }
    } else {
      let value = evalSupport(v, pers, legal);
      if (value === null) continue;
      if (fearful && legal.type !== 'guard' && legal.type !== 'mask') value -= FEAR_FREEZE;
      value += extra + v.rng.uniform(-0.25, 0.25);
      out.push({ value, legal, attack: null });
    }
  }
  const restful = !o.second && v.me.exposure > 0 ? EXPOSURE_WORTH * (v.me.exposure >= 10 ? 0.3 : 1) : 0;
  out.push({ value: pers.actThreshold + restful, legal: null, attack: null });
  return out.sort((a, b) => b.value - a.value);
}

/** The best option; with probability = tilt, a worse one (rules brief: tilt causes misplays). */
export function choose(v: View, m: Memory, pers: Personality, o: ChoiceOptions): Candidate {
  const list = candidates(v, m, pers, o);
  // Fear is a reflex that comes before any weighing (and so before tilt can spoil the weighing).
  if (afraid(v.emo) && list[0]?.legal && isShield(list[0].legal)) return list[0];
  const tilt = Math.max(0, v.emo.tilt);
  // The misplay is a near miss, not a random button: one of the next two options.
  if (list.length > 1 && tilt > 0 && v.rng.next() < tilt) return list[1 + v.rng.int(Math.min(2, list.length - 1))]!;
  return list[0]!;
}

export type ActionAnswer = { selected_action: { kind: 'play_card' | 'activate' | 'pass'; payload: ActionPayload }; attack_plan: AttackPlan | null };

export const PASS: ActionAnswer = { selected_action: { kind: 'pass', payload: {} }, attack_plan: null };

/** The answer for a chosen option; remembers what an attack commits the seat to. */
export function answer(v: View, m: Memory, pers: Personality, c: Candidate): ActionAnswer {
  const legal = c.legal;
  if (!legal) return PASS;
  const payload: ActionPayload = { card_id: legal.card_id };
  let plan: AttackPlan | null = null;
  if (c.attack) {
    const target = c.attack.target.player_id;
    plan = attackPlan(v, m, c.attack);
    payload.target_player_id = target;
    if (c.attack.named) payload.named_player_id = c.attack.named;
    m.kineticNow.push(c.attack.kinetic);
    m.hurt.set(target, (m.hurt.get(target) ?? 0) + 2);
    m.attacksThisTurn++;
  }
  if (legal.kind === 'play_card' && legal.needs_chosen_emotion) payload.chosen_emotion = weighted<EmotionName>(v.rng, pers.spoof) ?? 'dominance';
  return { selected_action: { kind: legal.kind, payload }, attack_plan: plan };
}
