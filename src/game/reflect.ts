import type { EmotionName, EmotionVector } from '../protocol/index.js';
import { EMOTIONS } from '../protocol/index.js';
import type { StepContext } from './context.js';
import { currentRound } from './evolve.js';
import { clamp, round4 } from './math.js';
import { alivePlayers } from './players.js';
import type { PlayerId, PlayerState } from './state.js';
import { tellOf } from './tells.js';

/**
 * Rules brief, "Emotion update": E ← clamp(0.82·E + Σ impacts (capped ±0.45 per emotion)
 * + 0.25·social + personality bias). The bias is (1 − decay)·baseline, so a seat left alone settles
 * back on its personality.
 */
export function updatedEmotions(p: PlayerState, r: { decay: number; impact_cap: number; social_weight: number }): EmotionVector {
  const out = {} as EmotionVector;
  for (const k of EMOTIONS as readonly EmotionName[]) {
    const impact = clamp(p.impacts[k] ?? 0, -r.impact_cap, r.impact_cap);
    const social = r.social_weight * (p.social[k] ?? 0);
    out[k] = round4(clamp(r.decay * p.emotions[k] + impact + social + (1 - r.decay) * p.baseline[k], -1, 1));
  }
  return out;
}

/** Reflect: exposure settles, emotions update, trust and grievance follow the round's attacks. */
export function runReflect(ctx: StepContext): void {
  const s = ctx.state;
  const r = s.rules;
  const round = currentRound(s);
  const exposure: Record<PlayerId, number> = {};
  const notes: string[] = [];
  for (const p of alivePlayers(s)) {
    if (p.exposure <= 0) continue;
    const passed = (round.actions[p.player_id] ?? 0) === 0;
    // Rules 2.0.0: exposure also fades for a seat that acted, so pressing is not a permanent mark.
    const d = (passed ? r.exposure.passing_round : 0) - (r.exposure.round_decay ?? 0);
    if (d === 0) continue;
    exposure[p.player_id] = Math.max(d, -p.exposure);
    // 1.0.0's note, word for word (stored logs replay byte for byte).
    if (passed) notes.push(`${p.player_id} passed the round: exposure −1`);
    if (r.exposure.round_decay) notes.push(`${p.player_id}: exposure fades by ${r.exposure.round_decay}`);
  }
  if (Object.keys(exposure).length) ctx.emit('exposure_updated', { exposure_delta: exposure, rules_notes: notes });

  for (const p of alivePlayers(s)) {
    const trust = { ...p.trust };
    const grievance: Record<PlayerId, number> = {};
    for (const [id, g] of Object.entries(p.grievance)) grievance[id] = round4(g * r.emotion.grievance_decay);
    for (const [attacker, targets] of Object.entries(round.attacks)) {
      const hits = targets.filter((t) => t === p.player_id).length;
      if (!hits || attacker === p.player_id) continue;
      trust[attacker] = round4(clamp((trust[attacker] ?? 0) + r.attacked_trust * hits, -1, 1));
      grievance[attacker] = round4(clamp((grievance[attacker] ?? 0) + r.attacked_grievance * hits, 0, 1));
    }
    const emotions = updatedEmotions(p, r.emotion);
    ctx.emit(
      'emotion_updated',
      { player_id: p.player_id, reason: 'reflect', emotions, trust, grievance, tell: tellOf(s, p, emotions) },
      [
        { key: 'emotions', to: [p.player_id] },
        { key: 'trust', to: [p.player_id] },
        { key: 'grievance', to: [p.player_id] },
      ],
    );
  }
}
