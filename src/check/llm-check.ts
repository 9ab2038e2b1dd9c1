import { stepInPlace } from '../game/index.js';
import type { Window } from '../protocol/index.js';
import type { Provider, ProviderRequest, ProviderResult } from '../providers/types.js';
import type { ProviderSetup } from '../providers/config.js';
import { createSeat } from '../agents/seat/create-seat.js';
import { describePreflight, preflightSeats } from '../agents/seat/preflight.js';
import { parseAgentSpec } from '../agents/seat/agent-spec.js';
import type { DecisionTrace, ProviderCallRecord } from '../agents/seat/types.js';
import { seatSummaries, type SeatSummary } from '../runner/seat-summary.js';
import { llmCases, type LlmCase } from './llm-cases.js';

/** The default ceiling on model calls of one `agent-check llm:…` run: every case of the kit (8) with its repair turn. */
export const DEFAULT_MAX_CALLS = 16;

export type LlmCheckOptions = {
  /** Requests come from built-in games from this seed on (default 1). */
  seed?: number;
  /** At most this many model calls (default 12): cases that could not have their repair turn are not run. */
  maxCalls?: number;
  /** Providers (default: the environment and the providers file). */
  providers?: ProviderSetup;
  onCase?: (c: LlmCase, index: number, of: number) => void;
};

export type LlmCaseOutcome = 'first_time' | 'repaired' | 'fell_back' | 'rejected' | 'not_run';

export type LlmCaseReport = {
  case: string;
  window: Window;
  what: string;
  /** first_time / repaired: the model's own answer, taken by the engine; rejected: usable, but the engine refused it. */
  outcome: LlmCaseOutcome;
  /** Rules that fired on its answers, in order (the first answer's, then the repaired one's). */
  rules: string[];
  /** Why it fell back (failure code and message), or why the engine rejected it. */
  failure: { code: string; message: string } | null;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  /** The whole decision (every call and the repair turn), ms; null when not run. */
  latency_ms: number | null;
};

export type LlmCheckReport = {
  spec: string;
  seed: number;
  max_calls: number;
  /** Calls that let every case run (its answer and a repair turn each): a lower --max-calls leaves cases not run, and the check fails. */
  calls_needed: number;
  ok: boolean;
  cases: LlmCaseReport[];
  /** Answers the strict check read (first answers and repaired ones). */
  answers: number;
  /** rule → answers it fired on, over every case. */
  rules: Record<string, number>;
  /** The rule that fired most (ties: the first to fire), null when none did. */
  most_common: { rule: string; count: number; label: string } | null;
  /** The cases' decisions and calls summed as a game's seat summary is. */
  totals: Omit<SeatSummary, 'player_id'>;
};

/** A case starts only with this many calls left: its answer and a repair turn. */
export const CALLS_PER_CASE = 2;

/** Refused before anything runs (exit 2): not an llm: spec, or its model failed its preflight. */
export class LlmCheckInputError extends Error {
  override readonly name = 'LlmCheckInputError';
}

/** What each rule means, for the "gets wrong most" line. */
export const RULE_LABELS: Record<string, string> = {
  unknown_key: 'keys the schema does not have (camelCase, invented fields)',
  enum_case: 'enum values in the wrong case',
  unknown_id: 'made-up ids (a card or seat not in the request)',
  refusal: 'refusing to play',
  truncated: 'answers cut by the token cap',
  invalid_json: 'no JSON object in the reply',
  schema: 'answers that do not fit the window’s schema',
};

const CAP_ERROR = 'agent-check: call limit reached';

/** The providers, each call counted; past the limit a call is not made and reads as an error. */
function capped(providers: ReadonlyMap<string, Provider>, left: { calls: number }): Map<string, Provider> {
  const wrap = (p: Provider): Provider => ({
    name: p.name,
    call: (request: ProviderRequest): Promise<ProviderResult> => {
      if (left.calls <= 0) return Promise.resolve({ status: 'error', json: null, text: '', usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0, latencyMs: 0, provider: p.name, model: request.model, error: CAP_ERROR, retryAfterMs: null, requestHash: '' });
      left.calls--;
      return p.call(request);
    },
  });
  return new Map([...providers].map(([name, p]) => [name, wrap(p)]));
}

/** The rules the verifier named on this decision's answers (each `verify` stage that found one invalid). */
const rulesOf = (trace: DecisionTrace): string[] =>
  trace.stages.flatMap((s) => (s.stage === 'verify' && s.payload['valid'] === false && typeof s.payload['rule'] === 'string' ? [s.payload['rule']] : []));

function judge(c: LlmCase, decision: unknown, trace: DecisionTrace, calls: readonly ProviderCallRecord[]): LlmCaseReport {
  const real = calls.filter((x) => x.error !== CAP_ERROR);
  let outcome: LlmCaseOutcome = trace.ok ? (trace.stages.some((s) => s.stage === 'replan') ? 'repaired' : 'first_time') : 'fell_back';
  let failure: { code: string; message: string } | null = trace.failure ? { code: trace.failure.code, message: trace.failure.message } : null;
  if (trace.ok) {
    // Usable is not yet legal: the engine has the last word, as in play.
    const res = stepInPlace(structuredClone(c.sample.state), { type: 'decision', player_id: c.sample.request.player_id, window: c.window, decision });
    if (!res.ok) {
      outcome = 'rejected';
      failure = { code: res.rejection.code, message: res.rejection.message };
    }
  }
  return {
    case: c.name,
    window: c.window,
    what: c.what,
    outcome,
    rules: rulesOf(trace),
    failure,
    calls: real.length,
    input_tokens: real.reduce((n, x) => n + x.input_tokens, 0),
    output_tokens: real.reduce((n, x) => n + x.output_tokens, 0),
    cost_usd: Math.round(real.reduce((n, x) => n + x.cost_usd, 0) * 1e6) / 1e6,
    latency_ms: trace.latency_ms,
  };
}

const notRun = (c: LlmCase): LlmCaseReport => ({ case: c.name, window: c.window, what: c.what, outcome: 'not_run', rules: [], failure: null, calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, latency_ms: null });

/**
 * The conformance kit for an LLM seat (`tiltyard agent-check llm:<provider>:<model>`): preflight,
 * then each decision window and a few edge cases (llm-cases.ts) asked of the live model exactly as
 * a seat asks in play — strict check, one repair turn, the engine's verdict — within `maxCalls`
 * calls. A case starts only with two calls left (its answer and a repair turn); a case left not
 * run fails the check (too few calls checked nothing about it).
 *
 * @example
 * const r = await checkLlm('llm:openai:gpt-4o-mini', { maxCalls: 12 });
 * r.ok; r.cases[0].outcome; r.most_common?.rule // 'unknown_key'
 */
export async function checkLlm(spec: string, options: LlmCheckOptions = {}): Promise<LlmCheckReport> {
  const seed = options.seed ?? 1;
  const maxCalls = options.maxCalls ?? DEFAULT_MAX_CALLS;
  const parsed = parseAgentSpec(spec, options.providers ? { providers: options.providers } : {});
  if (!parsed.ok) throw new LlmCheckInputError(parsed.message);
  if (parsed.agent.kind !== 'llm') throw new LlmCheckInputError(`${spec} is not an llm:<provider>[:<model>] agent`);
  const failures = await preflightSeats([spec], { providers: parsed.agent.setup });
  if (failures.length) throw new LlmCheckInputError(`preflight failed (nothing was checked):\n${describePreflight(failures)}`);

  const left = { calls: maxCalls };
  const agent = { ...parsed.agent, setup: { ...parsed.agent.setup, providers: capped(parsed.agent.setup.providers, left) } };
  const cases = llmCases(seed);
  const reports: LlmCaseReport[] = [];
  const traces: DecisionTrace[] = [];
  const calls: ProviderCallRecord[] = [];
  for (const [i, c] of cases.entries()) {
    if (left.calls < CALLS_PER_CASE) {
      reports.push(notRun(c));
      continue;
    }
    options.onCase?.(c, i, cases.length);
    // A fresh seat per case: each is judged on its own request, not on memory from another.
    const seat = createSeat(agent, { gameSeed: seed, seat: Number(c.sample.request.player_id.slice(4)) - 1, trace: true });
    try {
      const d = await seat.decide(c.sample.request);
      if (!d.trace) throw new Error(`${spec}: the seat kept no trace`);
      const mine = (d.calls ?? []).filter((x) => x.error !== CAP_ERROR);
      traces.push(d.trace);
      calls.push(...mine);
      reports.push(judge(c, d.decision, d.trace, mine));
    } finally {
      await seat.close();
    }
  }
  const rules: Record<string, number> = {};
  for (const r of reports) for (const rule of r.rules) rules[rule] = (rules[rule] ?? 0) + 1;
  const top = Object.entries(rules).reduce<[string, number] | null>((best, e) => (!best || e[1] > best[1] ? e : best), null);
  const [totals] = seatSummaries([{ player_id: 'check', agent: spec }], traces.map((t) => ({ player_id: 'check', turn: t.turn, window: t.window, request_id: t.request_id, entries: t })), calls.map((x) => ({ ...x, player_id: 'check' })));
  const { player_id: _, ...rest } = totals!;
  return {
    spec,
    seed,
    max_calls: maxCalls,
    // A case not run is a case not checked: too few calls for the kit is a failure, not an "ok".
    ok: reports.every((r) => r.outcome === 'first_time' || r.outcome === 'repaired'),
    calls_needed: cases.length * CALLS_PER_CASE,
    cases: reports,
    answers: traces.reduce((n, t) => n + t.stages.filter((s) => s.stage === 'verify').length, 0),
    rules,
    most_common: top ? { rule: top[0], count: top[1], label: RULE_LABELS[top[0]] ?? top[0] } : null,
    totals: rest,
  };
}
