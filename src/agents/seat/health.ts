import type { Failure } from '../runtime/outcome.js';
import type { SkillHealthState } from './types.js';

/** Consecutive failures after which a skill is given up on for the rest of the run. */
export const PERMANENT_AFTER = 3;

/**
 * A skill's health over one run: healthy while it answers; degraded when it answers slowly or
 * after failures; temporaryFailure after a timeout or a failed answer; permanentFailure when it
 * cannot even start, or fails PERMANENT_AFTER times in a row. Permanent is final for the run.
 */
export class SkillHealth {
  private consecutive = 0;
  state: SkillHealthState = 'healthy';

  record(result: { ok: boolean; failure: Failure | null; latencyMs: number; deadlineMs: number }): SkillHealthState {
    if (this.state === 'permanentFailure') return this.state;
    if (result.ok) {
      const slow = result.latencyMs > 0.8 * result.deadlineMs;
      this.state = slow || this.consecutive > 0 ? 'degraded' : 'healthy';
      this.consecutive = 0;
      return this.state;
    }
    this.consecutive++;
    const fatal = result.failure?.code === 'process/spawn_failed';
    this.state = fatal || this.consecutive >= PERMANENT_AFTER ? 'permanentFailure' : 'temporaryFailure';
    return this.state;
  }
}
