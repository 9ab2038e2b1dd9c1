import type { SeatDecision } from '../agents/seat/types.js';
import type { GameEvent, Window } from '../protocol/index.js';
import { DECISION_SCHEMAS, parseWith } from '../protocol/index.js';
import { canonicalJson, canonicalKeys, NUL, withoutNul, type ActionRecord } from '../store/index.js';

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
 * canonical order and U+0000 replaced in keys and strings: objects already in order (and clean)
 * are kept as they are, others are rebuilt (with Object.fromEntries, so a `__proto__` key stays an
 * own property, as JSON.parse made it).
 */
function inCanonicalOrder(value: unknown): unknown {
  if (typeof value === 'string') return withoutNul(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = inCanonicalOrder(value[i]);
    return value;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  let ordered = true;
  for (let i = 1; i < keys.length && ordered; i++) ordered = keys[i - 1]! < keys[i]!;
  if (ordered && !keys.some((k) => k.includes(NUL))) {
    for (const k of keys) obj[k] = inCanonicalOrder(obj[k]);
    return obj;
  }
  const entries = keys.map((k) => [withoutNul(k), inCanonicalOrder(obj[k])] as const);
  return Object.fromEntries(entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

/** What plainCopy gives up on: anything whose JSON is not itself (the JSON round trip decides it). */
const NOT_PLAIN: unique symbol = Symbol('not plain');

/** Deeper than any decision a schema accepts; past it the JSON round trip decides (and may refuse). */
const MAX_PLAIN_DEPTH = 64;

/**
 * A copy of plain data (null, booleans, finite numbers, strings, arrays of them (a hole reads as
 * undefined: not plain), objects of Object.prototype with such values and no `__proto__`,
 * `toJSON` or U+0000 in a key) with every object's keys in canonical order: what the JSON round
 * trip gives for it, in one walk and no text. -0 becomes 0, as JSON writes it; U+0000 in a string
 * becomes U+FFFD, as the round trip's result has it too. Anything else is NOT_PLAIN: a built-in's
 * answer is always plain, an agent's parsed NDJSON almost always, and the round trip handles the
 * rest.
 */
function plainCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      return withoutNul(value);
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : NOT_PLAIN;
    case 'object':
      if (value === null) return null;
      break;
    default:
      return NOT_PLAIN;
  }
  if (depth > MAX_PLAIN_DEPTH) return NOT_PLAIN;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const v = plainCopy(value[i], depth + 1);
      if (v === NOT_PLAIN) return NOT_PLAIN;
      out[i] = v;
    }
    return out;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return NOT_PLAIN;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of canonicalKeys(obj)) {
    if (k === '__proto__' || k === 'toJSON' || k.includes(NUL)) return NOT_PLAIN;
    const v = plainCopy(obj[k], depth + 1);
    if (v === NOT_PLAIN) return NOT_PLAIN;
    out[k] = v;
  }
  return out;
}

/**
 * An agent's answer as the engine gets it, live and in re-simulation alike: plain JSON with its
 * keys in canonical order (the object JSON.parse(canonicalJson(answer)) would give, built without
 * writing and parsing the text twice: this runs for every decision of every stored game). The
 * actions table stores answers as jsonb, which reorders keys, so feeding the engine the canonical
 * form on both sides keeps the two runs on identical input. Anything JSON cannot hold (a
 * function, a cycle) counts as no answer. U+0000, which jsonb cannot hold, becomes U+FFFD in keys
 * and strings before the engine sees the answer, so what is stored is what was played: a stray
 * (or hostile) NUL must not make its game unstorable.
 */
export function asDecision(raw: unknown): unknown {
  if (raw === undefined) return undefined;
  const copy = plainCopy(raw, 0);
  if (copy !== NOT_PLAIN) return copy;
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
export function rejectionIn(events: readonly GameEvent[], seat: string): string | null {
  for (const e of events) {
    if (e.type === 'action_rejected' && e.payload.player_id === seat)
      return e.payload.code ?? 'rejected';
    if (e.type === 'secret_plan_committed' && e.payload.player_id === seat && e.payload.rejection)
      return e.payload.rejection.code;
  }
  return null;
}

/**
 * Notes on an answer's trace that the engine rejected it (trace.rejected), so the seat's health
 * counts it as rejected: an answer the agent gave (not its fallback) that the step refused.
 */
export function noteRejection(answer: SeatDecision, events: readonly GameEvent[], seat: string): void {
  if (!answer.trace?.ok || answer.decision === undefined) return;
  const code = rejectionIn(events, seat);
  if (code !== null) answer.trace.rejected = code;
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
