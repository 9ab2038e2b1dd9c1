import type { GameEvent, Window } from '../protocol/index.js';
import { DECISION_SCHEMAS, parseWith } from '../protocol/index.js';
import { canonicalJson, type ActionRecord } from '../store/index.js';

/** One decision as the actions table holds it: what the game asked, what the agent sent, when. */
export type RecordedDecision = {
  seq_before: number;
  player_id: string;
  attempt: number;
  window: string;
  /** The agent's answer; undefined when it sent nothing. */
  raw: unknown;
  ts: string;
};

/**
 * An agent's answer as the engine gets it, live and in re-simulation alike: plain JSON with its
 * keys in canonical order. The actions table stores answers as jsonb, which reorders keys, so
 * feeding the engine the canonical form on both sides keeps the two runs on identical input.
 * Anything JSON cannot hold (a function, a cycle) counts as no answer.
 */
export function asDecision(raw: unknown): unknown {
  if (raw === undefined) return undefined;
  try {
    const text = JSON.stringify(raw);
    return text === undefined
      ? undefined
      : (JSON.parse(canonicalJson(JSON.parse(text))) as unknown);
  } catch {
    return undefined;
  }
}

/** Whether two answers are the same JSON value, whatever their key order. */
export const sameDecision = (a: unknown, b: unknown): boolean =>
  a === undefined || b === undefined ? a === b : canonicalJson(a) === canonicalJson(b);

/** The rejection the engine logged for this seat's answer in one step's events, if any. */
function rejectionIn(events: readonly GameEvent[], seat: string): string | null {
  for (const e of events) {
    if (e.type === 'action_rejected' && e.payload.player_id === seat)
      return e.payload.code ?? 'rejected';
    if (e.type === 'secret_plan_committed' && e.payload.player_id === seat && e.payload.rejection)
      return e.payload.rejection.code;
  }
  return null;
}

/** What the game looked like when it asked: the state's seq, turn and phase, and the attempt. */
export type Asked = {
  seq_before: number;
  turn: number;
  phase: string;
  window: Window;
  player_id: string;
  /** 1 for the first answer to a request, 2 for the answer to its reprompt. */
  attempt: number;
};

/**
 * The actions row of one decision, from the step it caused: accepted when the engine logged no
 * rejection for the seat (its code otherwise), and `validated` the answer as the window's schema
 * reads it when accepted.
 */
export function actionRecord(
  asked: Asked,
  decision: unknown,
  ts: string,
  events: readonly GameEvent[],
): ActionRecord {
  const code = rejectionIn(events, asked.player_id);
  const parsed = code === null ? parseWith(DECISION_SCHEMAS[asked.window], decision) : null;
  return {
    ...asked,
    raw: decision,
    validated: parsed?.ok ? parsed.value : null,
    accepted: code === null,
    rejection_code: code,
    ts,
  };
}
