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
 * A value fresh from JSON.parse (so owned here, plain, no cycles) with every object's keys in
 * canonical order: objects already in order are kept as they are, others are rebuilt (with
 * Object.fromEntries, so a `__proto__` key stays an own property, as JSON.parse made it).
 */
function inCanonicalOrder(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = inCanonicalOrder(value[i]);
    return value;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  let ordered = true;
  for (let i = 1; i < keys.length && ordered; i++) ordered = keys[i - 1]! < keys[i]!;
  if (ordered) {
    for (const k of keys) obj[k] = inCanonicalOrder(obj[k]);
    return obj;
  }
  return Object.fromEntries(keys.sort().map((k) => [k, inCanonicalOrder(obj[k])]));
}

/**
 * An agent's answer as the engine gets it, live and in re-simulation alike: plain JSON with its
 * keys in canonical order (the object JSON.parse(canonicalJson(answer)) would give, built without
 * writing and parsing the text twice: this runs for every decision of every stored game). The
 * actions table stores answers as jsonb, which reorders keys, so feeding the engine the canonical
 * form on both sides keeps the two runs on identical input. Anything JSON cannot hold (a
 * function, a cycle) counts as no answer.
 */
export function asDecision(raw: unknown): unknown {
  if (raw === undefined) return undefined;
  try {
    const text = JSON.stringify(raw);
    return text === undefined ? undefined : inCanonicalOrder(JSON.parse(text));
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
