import type { AssetEvent, ErrorEvent, JsonObject, LogEvent, ToolEvent, UiEvent } from '../../protocol/index.js';

/**
 * Why an invocation broke the protocol. Any of these makes the whole invocation a failure whatever
 * it emitted (the engine then gets the rules' fallback); `done {ok:false}` is not one of them — it
 * is a controlled failure the tool reported itself.
 */
export const FAILURE_CODES = [
  'protocol/bad_json', // a line that is not JSON
  'protocol/not_object', // a JSON line that is not an object
  'protocol/invalid_event', // a known type with missing or malformed fields
  'protocol/unknown_type', // seed 001 §5.2: ends processing at once
  'protocol/line_too_long',
  'protocol/output_too_large',
  'protocol/invalid_utf8',
  'protocol/too_deep', // a value nested deeper than the bound (MAX_JSON_DEPTH), refused before any recursion
  'protocol/too_large', // a value with more parts than the bound (MAX_JSON_NODES)
  'agent/unprocessable', // processing the agent's output threw; contained, never thrown on
  'protocol/no_done', // stdout closed without a done event
  'protocol/exit_code', // non-zero exit, whatever was emitted (seed 001 §5.3)
  'protocol/signal', // killed by a signal it was not sent by us
  'process/timeout', // deadline passed: SIGTERM, then SIGKILL of the group
  'process/spawn_failed', // ENOENT, EACCES…
  'process/aborted', // the caller cancelled it
  'sandbox/disk_quota', // its work dir went past the disk quota: stopped, the work dir emptied
  'sandbox/network_setup', // the network it asked for could not be attached: it never started
  'agent/threw', // an in-process agent threw
  'agent/reported_failure', // done {ok:false}: a controlled failure, the agent's own
  'plan/failed', // a plan seat's plan failed past its replan bounds
  'decision/missing', // finished fine but its merged state has no "decision"
  // LLM seats (docs/providers.md "Repair rules"): why the answer was not the model's own.
  'llm/refusal', // declined, on the wire or in words, and again after the repair turn
  'llm/unknown_key', // a key the schema does not have (`cardId`), still after the repair turn
  'llm/enum_case', // an enum value right but for its case
  'llm/unknown_id', // a card or player id that is not in the request
  'llm/missing_attack_plan', // an attacking card with no attack_plan
  'llm/plan_target_mismatch', // an attack_plan aimed at another seat than its action
  'llm/illegal_named_player', // a card naming a third seat named nobody, itself, its target or a seat that is out
  'llm/schema', // any other schema issue
  'llm/invalid_json', // no JSON object in the reply
  'llm/truncated', // cut by the token cap or the output cap
  'llm/no_answer', // routing ended without an answer (refusals and errors along the chain)
  'llm/budget', // a budget was exhausted before any call
  'provider/unavailable', // every call of this decision failed (network, timeout, HTTP error)
  'provider/down', // …for N decisions in a row: the runner fails the game
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

export type Failure = { code: FailureCode; message: string };

/** Something the runtime noticed but that did not fail the invocation (events after done…). */
export type Violation = { code: string; message: string };

/**
 * Everything one invocation produced, as the runtime saw it. Only events up to and including
 * `done` are kept; later ones are counted in `afterDone` and flagged as a violation.
 */
export type InvocationOutcome = {
  /** done received with ok:true, exit code 0 (processes) and no failure. */
  ok: boolean;
  /** The first protocol failure, if any. */
  failure: Failure | null;
  done: { ok: boolean; summary: string | null } | null;
  /** All state_patch patches deep-merged in order (seed 002 §11). */
  state: JsonObject;
  events: ToolEvent[];
  logs: LogEvent[];
  errors: ErrorEvent[];
  /** Assets whose path resolved inside the work dir; others are violations. */
  assets: AssetEvent[];
  uiEvents: UiEvent[];
  violations: Violation[];
  afterDone: number;
  /** Bounded stderr, kept apart from the protocol traffic. */
  stderr: string;
  stderrTruncated: boolean;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  stdoutBytes: number;
};
