import type { EmotionalIntent, PlayerPublicState } from '../../../protocol/index.js';
import { promised, statsOf, type Memory } from './memory.js';
import { angry } from './moods.js';
import { RULES } from './rules.js';
import type { Personality } from './personality.js';
import { faceDown, readEmotion, showsCard, standing, weighted, type View } from './view.js';

/** The seat with the largest grievance among `ids`, if any grievance is felt at all. */
export function grudge(v: View, ids: readonly string[]): string | null {
  let best: string | null = null;
  let size = 0.02;
  for (const id of ids) {
    const g = v.emo.grievance[id] ?? 0;
    if (g > size) {
      best = id;
      size = g;
    }
  }
  return best;
}

/**
 * How much the seat wants to hurt `p`, before any card is considered: the placement leader, the
 * seat that hurt us, a seat we distrust, a soft (exposed, low-resolve) seat. Traps make it costly.
 */
export function desirability(v: View, m: Memory, pers: Personality, p: PlayerPublicState): number {
  let sum = 0;
  for (const o of v.opps) sum += standing(o);
  const mean = (sum + standing(v.me)) / (v.opps.length + 1);
  const g = v.emo.grievance[p.player_id] ?? 0;
  const trust = v.emo.trust[p.player_id] ?? 0.2;
  const stats = statsOf(m, p.player_id);
  const lead = (standing(p) - mean) / RULES.resolve_baseline;
  // A runaway leader (a life or more ahead) draws fire from everyone, grudges or not.
  let score =
    pers.leader * (lead + 2 * Math.max(0, lead - 0.6)) +
    pers.grudge * g +
    0.6 * (0.2 - trust) +
    0.3 * stats.onMe +
    0.06 * p.exposure +
    (p.resolve <= 3 ? 0.6 : 0) -
    0.1 * pers.caution * faceDown(v, p.player_id);
  if (pers.finisher) score += pers.finisher * (Math.max(0, 8 - p.resolve) / 8 + (p.lives <= 1 ? 0.5 : 0));
  if (showsCard(v, p.player_id, 'Slow Burn')) score += 0.4;
  const last = v.r.player_private_view.belief_state.revealed_plans[p.player_id];
  if (last?.emotional_intent?.target_player_id === v.id) score += 0.3;
  if (angry(v.emo) && g > 0) score += 4 * g * v.emo.anger;
  return score;
}

/** Resolve at or below which a blow may take a life: what a lethalBreaks seat breaks its word for. */
const LETHAL_RESOLVE = 4;

/** Whether breaking a word to `p` is worth it (lethalBreaks: only when the blow may take a life). */
export const worthBreaking = (pers: Personality, p: PlayerPublicState): boolean => !pers.lethalBreaks || p.resolve <= LETHAL_RESOLVE;

/** Targets the seat may attack now, best first; promised seats only for a promise breaker. */
export function rankTargets(v: View, m: Memory, pers: Personality, allowed: readonly string[], breakWord: boolean): string[] {
  const scored: { id: string; s: number }[] = [];
  for (const id of allowed) {
    const p = v.opps.find((o) => o.player_id === id);
    if (!p) continue;
    if (promised(m, id) && !(breakWord && worthBreaking(pers, p))) continue;
    scored.push({ id, s: desirability(v, m, pers, p) + v.rng.uniform(-0.15, 0.15) });
  }
  scored.sort((a, b) => b.s - a.s);
  const focus = angry(v.emo) ? grudge(v, scored.map((x) => x.id)) : null;
  const out = scored.map((x) => x.id);
  if (focus) {
    out.splice(out.indexOf(focus), 1);
    out.unshift(focus);
  }
  return out;
}

/** The emotion to push on a target: the personality's taste, sharpened by what its tell shows. */
export function chooseEmotion(v: View, pers: Personality, p: PlayerPublicState | undefined): EmotionalIntent {
  const w: Partial<Record<EmotionalIntent, number>> = { ...pers.emotions };
  if (p) {
    const fear = readEmotion(p, 'fear') ?? 0;
    const tilt = readEmotion(p, 'tilt') ?? 0;
    const conf = readEmotion(p, 'confidence') ?? 0;
    if (fear > 0.3) w.fear = (w.fear ?? 0) * 1.8 + 0.3;
    if (tilt > 0.3) w.tilt = (w.tilt ?? 0) * 1.8 + 0.3;
    if (conf > 0.4) w.shame = (w.shame ?? 0) * 1.5 + 0.2;
    if (conf > 0.55) w.overconfidence = (w.overconfidence ?? 0) + 0.5;
  }
  return weighted(v.rng, w) ?? 'fear';
}
