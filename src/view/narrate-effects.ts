import type { AttackPlan, EmotionVector, SecretPlan, TacticalEffect } from '../protocol/index.js';
import { EMOTIONS } from '../protocol/index.js';
import { level, list, say, signed, words, type Names } from './narrate-words.js';

/** Game effects in words: what an effect did to whom, what a plan aims at, how feelings moved. */

const COUNTERS = ['resolve', 'tempo', 'exposure'] as const;

/**
 * The visible part of a tactical effect as clauses, one per seat and status:
 * ["random loses 1 resolve", "aggressor gains 1 tempo and 1 exposure", "turtle is locked out next round"].
 */
export function effectClauses(t: Partial<TacticalEffect> | undefined, n: Names): string[] {
  if (!t) return [];
  const bySeat = new Map<string, string[]>();
  for (const k of COUNTERS) {
    for (const [id, d] of Object.entries(t[`${k}_delta`] ?? {})) {
      if (typeof d !== 'number' || d === 0) continue;
      const parts = bySeat.get(id) ?? [];
      parts.push(d < 0 ? `${k === 'exposure' ? 'sheds' : 'loses'} ${-d} ${k}` : `gains ${d} ${k}`);
      bySeat.set(id, parts);
    }
  }
  const out = [...bySeat].map(([id, parts]) => `${n.seat(id)} ${joinVerbs(parts)}`);
  for (const s of t.status_changes ?? []) {
    if (s.status === 'lockout') out.push(say`${n.seat(s.player_id)} is locked out next round`);
    else out.push(say`${n.seat(s.player_id)} must attack ${n.seat(s.toward_player_id)} next round`);
  }
  for (const x of t.triggered_effects ?? []) out.push(triggered(x, n));
  return out;
}

/** "loses 1 resolve" + "gains 2 tempo" → "loses 1 resolve and gains 2 tempo"; same verbs merge: "gains 1 tempo and 1 exposure". */
function joinVerbs(parts: string[]): string {
  const out: string[] = [];
  let verb = '';
  for (const p of parts) {
    const [v, ...rest] = p.split(' ');
    out.push(v === verb ? rest.join(' ') : p);
    verb = v ?? '';
  }
  return list(out);
}

/** The engine tags a sprung trap "Name:plr_4" (the trap's owner). */
function triggered(x: string, n: Names): string {
  const m = /^([^:]+):(plr_[A-Za-z0-9]+)$/.exec(x);
  return m ? `${n.seat(m[2])}'s ${m[1]!} springs` : n.note(x);
}

const INTENT: Record<string, (target: string) => string> = {
  fear: (t) => `frighten ${t}`,
  anger: (t) => `anger ${t}`,
  shame: (t) => `shame ${t}`,
  tilt: (t) => `tilt ${t}`,
  overconfidence: (t) => `make ${t} overconfident`,
  paranoia: (t) => `make ${t} paranoid`,
};

/** "shame random" / "make turtle paranoid". */
export const intentPhrase = (emotion: string, target: string): string => (INTENT[emotion] ?? ((t: string) => `stir ${words(emotion)} in ${t}`))(target);

/** Which emotions each emotional intent pushes up first (rules: "Delta by emotional intent"). */
export const INTENT_EMOTIONS: Record<string, readonly string[]> = {
  fear: ['fear'],
  anger: ['anger', 'arousal'],
  shame: ['shame'],
  tilt: ['tilt'],
  overconfidence: ['confidence', 'greed'],
  paranoia: ['fear', 'tilt'],
};

const TACTIC: Record<string, string> = {
  discard_pressure: 'discard pressure',
  lockout: 'a lockout',
  combo_break: 'a combo break',
  tempo_swing: 'a tempo swing',
  forced_line: 'a forced line',
  defend: 'to defend',
  build: 'to build',
};
export const tactic = (t: string): string => TACTIC[t] ?? words(t);

const PLAN: Record<string, string> = {
  threat_framing: 'threat framing',
  bait: 'bait',
  false_concession: 'a false concession',
  public_isolation: 'public isolation',
  status_challenge: 'a status challenge',
  betrayal_cue: 'a betrayal cue',
};
export const manipulationPlan = (p: string): string => PLAN[p] ?? words(p);

const OUTCOME: Record<string, string> = { success: 'it works', partial: 'it partly works', failed: 'it fails' };

/**
 * A manipulation contest's outcome with its margin (power + noise − resistance) in words rather
 * than a signed decimal nobody can read: under 0.15 from zero is narrow (the contest's noise alone
 * spans ±0.15: the draw could have turned it), 0.3 or more is wide. A partial success (0 to the
 * success line, 0.1) is narrow by nature.
 *
 * @example contestWords('failed', -0.11) // "it fails, but only just"
 */
export function contestWords(outcome: string, margin: number | undefined): string {
  const said = OUTCOME[outcome] ?? words(outcome);
  if (typeof margin !== 'number' || !Number.isFinite(margin) || outcome === 'partial') return said;
  const size = Math.abs(margin);
  if (size >= 0.3) return `${said} by a wide margin`;
  if (size < 0.15) return outcome === 'failed' ? `${said}, but only just` : `${said}, just`;
  return `${said} clearly`;
}

/** A secret plan in words: "a lockout, hoping to shame random". */
export function secretPlanWords(plan: SecretPlan, n: Names): string {
  const e = plan.emotional_intent;
  return tactic(plan.tactical_intent) + (e ? say`, hoping to ${intentPhrase(e.emotion, n.seat(e.target_player_id))}` : '');
}

/** An attack plan in words, for the detail line under a play. */
export function attackPlanWords(p: AttackPlan, n: Names): string {
  const shift = p.expected_behavior_shift ? say`; expects “${n.quote(p.expected_behavior_shift)}”` : '';
  return (
    say`Attack plan: ${tactic(p.kinetic_intent)} to ${intentPhrase(p.emotional_intent, n.seat(p.target_player_id))} through ${manipulationPlan(p.manipulation_plan)}, ` +
    say`delivered ${p.delivery_channel === 'mixed' ? 'half in public' : `in ${p.delivery_channel}`}${shift}; confidence ${Math.round(p.confidence * 100)}%.`
  );
}

/** The largest moves of a vector against the one before: "shame 0.47 (+0.47), confidence −0.13 (−0.33)". */
export function feelingChanges(now: EmotionVector, before: EmotionVector | undefined, max = 4): string {
  return EMOTIONS.map((k) => ({ k, v: now[k], d: now[k] - (before?.[k] ?? 0) }))
    .filter((c) => typeof c.v === 'number' && Math.abs(c.d) >= 0.01)
    .sort((a, b) => Math.abs(b.d) - Math.abs(a.d))
    .slice(0, max)
    .map((c) => `${c.k} ${level(c.v)} (${signed(c.d, 2)})`)
    .join(', ');
}

/** A partial emotion delta in words: "shame +0.30, confidence −0.15". */
export function deltaWords(d: Readonly<Record<string, number | undefined>> | undefined): string {
  return Object.entries(d ?? {})
    .filter((x): x is [string, number] => typeof x[1] === 'number' && Math.abs(x[1]) >= 0.005)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .map(([k, v]) => `${k} ${signed(v, 2)}`)
    .join(', ');
}

/** A vector's non-zero entries: "arousal 0.10, anger 0.10"; "neutral" when all are zero. */
export function vectorWords(v: EmotionVector): string {
  const set = EMOTIONS.filter((k) => typeof v[k] === 'number' && v[k] !== 0).map((k) => `${k} ${level(v[k])}`);
  return set.length ? set.join(', ') : 'neutral';
}

/** The dominant emotion of a vector as the rules read a tell: the largest |value|, the first on a tie, none when all are zero. */
export function dominantOf(v: EmotionVector): string | null {
  let best: string | null = null;
  let top = 0;
  for (const k of EMOTIONS) {
    const x = Math.abs(v[k] ?? 0);
    if (x > top) {
      top = x;
      best = k;
    }
  }
  return best;
}
