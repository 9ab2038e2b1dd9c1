import { decide, type GameState } from '../game/index.js';
import type { TurnPlanRequest } from '../protocol/index.js';
import { raw, type Raw } from './finding.js';
import { LEGAL_HINTS } from './hints.js';
import type { Invocation } from './invocation.js';
import { schemaIssues } from './schema-check.js';

export type Verdict = { ok: true } | { ok: false; code: string; message: string };

/**
 * Applies an answer to the state that asked for it with the pure `decide` and reads what the engine
 * made of it: an action_rejected for the seat, or (intent, whose rejections are private) a
 * defaulted secret plan, means it refused the answer.
 *
 * @example engineVerdict(sample.state, sample.request, { selected_action: { kind: 'pass' } }) // { ok: true }
 */
export function engineVerdict(
  state: GameState,
  request: TurnPlanRequest,
  decision: unknown,
): Verdict {
  const id = request.player_id;
  const res = decide(state, { type: 'decision', player_id: id, window: request.window, decision });
  if (!res.ok) return { ok: false, code: res.rejection.code, message: res.rejection.message };
  for (const e of res.events) {
    if (e.type === 'action_rejected' && e.payload.player_id === id)
      return { ok: false, code: e.payload.code ?? 'rejected', message: e.payload.message ?? '' };
    if (
      e.type === 'secret_plan_committed' &&
      e.payload.player_id === id &&
      e.payload.defaulted &&
      e.payload.rejection
    )
      return { ok: false, ...e.payload.rejection };
  }
  return { ok: true };
}

/** The engine accepts the agent's answer. Skipped when there is none or it already fails its schema. */
export function legalCheck(inv: Invocation): Raw[] {
  if (inv.decision === undefined || schemaIssues(inv) !== null) return [];
  const v = engineVerdict(inv.sample.state, inv.sample.request, inv.decision);
  if (v.ok) return [];
  const compact = inv.sample.request.constraints.compact;
  const what = compact ? 'compact action' : inv.window;
  return [
    raw(
      'legal',
      'error',
      v.code,
      `the engine rejected the ${what} answer: ${v.code}: ${v.message}`,
      LEGAL_HINTS[compact ? 'compact' : inv.window],
      inv.window,
    ),
  ];
}
