import type { SpeechAct, SpeechActionPayload } from '../../../protocol/index.js';
import { promised, type Memory, type RoundPlan } from './memory.js';
import type { Personality } from './personality.js';
import { line } from './speech-text.js';
import { desirability } from './targeting.js';
import { nameOf, ownTraps, weighted, type View } from './view.js';

type Slots = { out: SpeechActionPayload[]; pub: number; priv: number };

function say(s: Slots, channel: 'public' | 'private', target: string | null, act: SpeechAct, text: string): void {
  if (channel === 'public' ? s.pub >= 2 : s.priv >= 1) return;
  if (channel === 'public') s.pub++;
  else s.priv++;
  s.out.push({ channel, target_player_id: target, text, speech_act: act });
}

/** The seat we are least keen to hit: the natural one to promise peace to. */
function peaceSeat(v: View, m: Memory, pers: Personality, exclude: string | null): string | null {
  let best: string | null = null;
  let low = Infinity;
  for (const p of v.opps) {
    if (p.player_id === exclude) continue;
    const d = desirability(v, m, pers, p);
    if (d < low) {
      low = d;
      best = p.player_id;
    }
  }
  return best;
}

/** Binds the seat's word: no attack on `id` this round or the next. */
function givePeace(v: View, m: Memory, id: string): void {
  m.peace.set(id, v.r.turn + 1);
}

/**
 * The round's talk: first whatever sets up the planned manipulation on the target (a threat for
 * threat framing, a private line naming a third seat for a betrayal cue, a promise before a false
 * concession, a taunt before bait or a status challenge), then peace offers, bluffs and chatter.
 */
export function talk(v: View, m: Memory, pers: Personality, plan: RoundPlan): SpeechActionPayload[] {
  const s: Slots = { out: [], pub: 0, priv: 0 };
  const rng = v.rng;
  const t = plan.target;
  const forced = v.r.constraints.forced_target;
  if (t) {
    const tn = nameOf(v, t);
    const nn = plan.named ? nameOf(v, plan.named) : 'the others';
    switch (plan.plan) {
      case 'threat_framing':
        say(s, plan.channel === 'private' ? 'private' : 'public', t, 'threat', line(rng, 'threat', tn));
        m.threatened.add(t);
        break;
      case 'false_concession': {
        const act = rng.next() < 0.6 ? 'promise' : 'concession';
        say(s, plan.channel === 'public' ? 'public' : 'private', t, act, line(rng, act, tn));
        break;
      }
      case 'betrayal_cue':
        if (plan.named) say(s, 'private', t, cueAct(v, pers), line(rng, 'cue', tn, nn));
        break;
      case 'bait':
      case 'status_challenge':
      case 'public_isolation':
        say(s, 'public', t, 'taunt', line(rng, 'taunt', tn));
        break;
    }
    // A second setup costs nothing: a cue naming a third seat in the private slot, a public threat.
    if (!plan.defend && plan.named && s.priv === 0 && rng.next() < 0.75) say(s, 'private', t, cueAct(v, pers), line(rng, 'cue', tn, nn));
    if (!plan.defend && !m.threatened.has(t) && rng.next() < 0.45 + pers.attack) {
      say(s, 'public', t, 'threat', line(rng, 'threat', tn));
      m.threatened.add(t);
    }
  }
  if (v.opps.length >= 3 && !forced && rng.next() < pers.promise) {
    const p = peaceSeat(v, m, pers, t);
    if (p) {
      const act = v.emo.grievance[p] && rng.next() < 0.5 ? 'concession' : 'promise';
      say(s, rng.next() < 0.5 ? 'public' : 'private', p, act, line(rng, act, nameOf(v, p)));
      givePeace(v, m, p);
    }
  }
  const bluffChance = pers.bluff + Math.max(0, v.emo.confidence - 0.35) * 1.2;
  if (rng.next() < bluffChance && canBluff(v, pers)) say(s, 'public', rng.next() < 0.5 ? null : t, 'bluff', line(rng, 'bluff', t ? nameOf(v, t) : ''));
  if (rng.next() < pers.chatter) chatter(v, m, pers, s, t);
  return s.out;
}

function cueAct(v: View, pers: Personality): SpeechAct {
  const r = v.rng.next();
  return r < pers.bluff && canBluff(v, pers) ? 'bluff' : r < 0.8 ? 'warning' : 'neutral';
}

/** Whether a bluff may be told now (backedBluffs: only over a face-down trap of its own). */
const canBluff = (v: View, pers: Personality): boolean => !pers.backedBluffs || ownTraps(v) > 0;

function chatter(v: View, m: Memory, pers: Personality, s: Slots, t: string | null): void {
  const rng = v.rng;
  const act = weighted(rng, pers.smallTalk) ?? 'neutral';
  const others = v.opps.filter((p) => p.player_id !== t);
  const other = others.length ? others[rng.int(others.length)]!.player_id : null;
  switch (act) {
    case 'taunt':
      if (t) say(s, 'public', t, 'taunt', line(rng, 'taunt', nameOf(v, t)));
      return;
    case 'warning':
      // Warn a seat we leave alone about the seat we are going after: it comes true when we strike.
      if (other && t) say(s, 'public', other, 'warning', line(rng, 'warning', nameOf(v, other), nameOf(v, t)));
      return;
    case 'concession':
    case 'promise':
      if (other && !v.r.constraints.forced_target && v.opps.length >= 3) {
        say(s, 'public', other, act, line(rng, act, nameOf(v, other)));
        givePeace(v, m, other);
      }
      return;
    case 'threat': {
      // A threat at the next seat in line sets up threat framing for a second attack too.
      const who = t && !m.threatened.has(t) ? t : other;
      if (who && !promised(m, who)) {
        say(s, 'public', who, 'threat', line(rng, 'threat', nameOf(v, who)));
        m.threatened.add(who);
      }
      return;
    }
    case 'bluff':
      if (canBluff(v, pers)) say(s, 'public', null, 'bluff', line(rng, 'bluff', ''));
      else say(s, 'public', null, 'neutral', line(rng, 'neutral', ''));
      return;
    case 'neutral':
      say(s, 'public', null, 'neutral', line(rng, 'neutral', ''));
      return;
  }
}
