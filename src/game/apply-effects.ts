import type { AffectiveEffect, EmotionDelta, EmotionName, TacticalEffect } from '../protocol/index.js';
import { clamp, round4 } from './math.js';
import { player } from './players.js';
import type { GameState } from './state.js';
import { moveCard } from './zones.js';

/** Applies a tactical effect: counters (clamped to their ranges), card moves, next-round statuses. */
export function applyTactical(state: GameState, t: TacticalEffect): void {
  const r = state.rules;
  for (const [id, d] of Object.entries(t.resolve_delta)) player(state, id).resolve += d;
  for (const [id, d] of Object.entries(t.tempo_delta)) {
    const p = player(state, id);
    p.tempo = clamp(p.tempo + d, 0, r.tempo_cap);
  }
  for (const [id, d] of Object.entries(t.exposure_delta)) {
    const p = player(state, id);
    p.exposure = clamp(p.exposure + d, 0, r.exposure_cap);
  }
  for (const m of t.card_moves) moveCard(state, m);
  for (const s of t.status_changes) {
    const p = player(state, s.player_id);
    if (s.status === 'lockout') p.next_lockout = true;
    else p.next_forced_line = s.toward_player_id;
  }
}

export function addDelta(into: EmotionDelta, delta: EmotionDelta, scale = 1): void {
  for (const [k, v] of Object.entries(delta) as [EmotionName, number][]) {
    into[k] = round4((into[k] ?? 0) + v * scale);
  }
}

/** Applies an affective effect: emotion impacts wait for reflect; trust and grievance move now. */
export function applyAffective(state: GameState, a: AffectiveEffect): void {
  for (const [id, d] of Object.entries(a.emotion_delta)) addDelta(player(state, id).impacts, d);
  for (const [id, d] of Object.entries(a.social_delta)) addDelta(player(state, id).social, d);
  for (const [id, m] of Object.entries(a.trust_delta)) {
    const p = player(state, id);
    for (const [other, d] of Object.entries(m)) p.trust[other] = round4(clamp((p.trust[other] ?? 0) + d, -1, 1));
  }
  for (const [id, m] of Object.entries(a.grievance_delta)) {
    const p = player(state, id);
    for (const [other, d] of Object.entries(m)) p.grievance[other] = round4(clamp((p.grievance[other] ?? 0) + d, 0, 1));
  }
}
