import type { AffectiveEffect, CardMove, EmotionDelta, StatusChange, TacticalEffect } from '../protocol/index.js';
import { addDelta } from './apply-effects.js';
import { clamp, round4 } from './math.js';
import { player } from './players.js';
import type { GameState, PlayerId } from './state.js';

/**
 * Accumulates what one resolution does. Counter deltas are clamped against the state as it will be
 * (current value plus what this builder already added) so the event reports what really changed.
 */
export class EffectBuilder {
  readonly resolve: Record<PlayerId, number> = {};
  readonly tempo: Record<PlayerId, number> = {};
  readonly exposure: Record<PlayerId, number> = {};
  readonly moves: CardMove[] = [];
  readonly triggered: string[] = [];
  readonly statuses: StatusChange[] = [];
  readonly emotion: Record<PlayerId, EmotionDelta> = {};
  readonly social: Record<PlayerId, EmotionDelta> = {};
  readonly trust: Record<PlayerId, Record<PlayerId, number>> = {};
  readonly grievance: Record<PlayerId, Record<PlayerId, number>> = {};
  readonly notes: string[] = [];
  manipulationSuccess = false;

  constructor(private readonly state: GameState) {}

  addResolve(id: PlayerId, d: number, cap?: number): number {
    if (d === 0) return 0;
    const now = player(this.state, id).resolve + (this.resolve[id] ?? 0);
    const next = cap === undefined ? now + d : Math.min(cap, now + d);
    const real = Math.max(d < 0 ? d : 0, next - now);
    if (real !== 0) this.resolve[id] = (this.resolve[id] ?? 0) + real;
    return real;
  }

  addTempo(id: PlayerId, d: number): number {
    const now = player(this.state, id).tempo + (this.tempo[id] ?? 0);
    const real = clamp(now + d, 0, this.state.rules.tempo_cap) - now;
    if (real !== 0) this.tempo[id] = (this.tempo[id] ?? 0) + real;
    return real;
  }

  addExposure(id: PlayerId, d: number): number {
    const now = player(this.state, id).exposure + (this.exposure[id] ?? 0);
    const real = clamp(now + d, 0, this.state.rules.exposure_cap) - now;
    if (real !== 0) this.exposure[id] = (this.exposure[id] ?? 0) + real;
    return real;
  }

  addEmotion(id: PlayerId, d: EmotionDelta, scale = 1): void {
    addDelta((this.emotion[id] ??= {}), d, scale);
  }

  addSocial(id: PlayerId, d: EmotionDelta, scale = 1): void {
    addDelta((this.social[id] ??= {}), d, scale);
  }

  addTrust(from: PlayerId, toward: PlayerId, d: number): void {
    const m = (this.trust[from] ??= {});
    m[toward] = round4((m[toward] ?? 0) + d);
  }

  addGrievance(from: PlayerId, toward: PlayerId, d: number): void {
    const m = (this.grievance[from] ??= {});
    m[toward] = round4((m[toward] ?? 0) + d);
  }

  tactical(): TacticalEffect {
    return {
      resolve_delta: this.resolve,
      tempo_delta: this.tempo,
      exposure_delta: this.exposure,
      card_moves: this.moves,
      triggered_effects: this.triggered,
      status_changes: this.statuses,
    };
  }

  affective(observed: string | null = null): AffectiveEffect {
    return {
      emotion_delta: this.emotion,
      social_delta: this.social,
      trust_delta: this.trust,
      grievance_delta: this.grievance,
      manipulation_success: this.manipulationSuccess,
      observed_behavior_shift: observed,
    };
  }

  hasAffect(): boolean {
    return (
      Object.keys(this.emotion).length + Object.keys(this.social).length + Object.keys(this.trust).length + Object.keys(this.grievance).length > 0
    );
  }
}
