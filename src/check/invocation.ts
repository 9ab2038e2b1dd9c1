import type { JsonObject, TurnPlanRequest, Window } from '../protocol/index.js';
import type { GameState } from '../game/index.js';
import type { Failure, InvocationOutcome, Violation } from '../agents/runtime/outcome.js';
import { readAnswer } from '../agents/seat/answer.js';
import type { SeatDecision } from '../agents/seat/types.js';

/** The conformance cases: one per decision window, then the edge cases. */
export const CASES = [
  'intent',
  'talk',
  'action',
  'reaction',
  'reflect',
  'compact',
  'reprompt',
  'extra_fields',
  'determinism',
  'memory',
] as const;
export type CaseName = (typeof CASES)[number];

/** A real request taken from a game, with the state that asked it (to apply the answer to). */
export type Sample = { case: CaseName; state: GameState; request: TurnPlanRequest };

/** What one invocation of the skill showed, whatever ran it (a process, a plan, a built-in). */
export type Invocation = {
  case: CaseName;
  window: Window;
  sample: Sample;
  /** Why the invocation failed, as the seat binding saw it (protocol, process, decision/missing…). */
  failure: Failure | null;
  violations: Violation[];
  /** What the tool wrote to stderr (bounded, secrets masked). */
  stderr: string;
  /** The agent's own answer; undefined when it gave none. */
  decision: unknown;
  /** The answer came from the skill's fallback agent, not from the skill. */
  degraded: boolean;
  /** What the runtime refused about the returned memory (not an object, too big). */
  memoryProblems: string[];
  /** The memory handed to the agent (player_private_view.memory_state.agent). */
  memoryIn: JsonObject;
  /** The seat's memory after the invocation. */
  memory: JsonObject;
  latencyMs: number;
  deadlineMs: number;
};

/** What the caller knows about an invocation: the sample it answered and the memory it was given. */
type Meta = { sample: Sample; deadlineMs: number; memory?: JsonObject };

const isMemoryProblem = (p: unknown): p is string => typeof p === 'string' && p.includes('memory');

/**
 * An invocation from a raw outcome, read the way the command seat reads it: `done {ok:false}` is
 * the agent's reported failure, a clean run without "decision" is decision/missing.
 *
 * @example fromOutcome(await runProcess(spec), { sample, deadlineMs: 5_000 }).failure
 */
export function fromOutcome(outcome: InvocationOutcome, meta: Meta): Invocation {
  const { sample } = meta;
  const window = sample.request.window;
  const memory = meta.memory ?? {};
  let failure =
    outcome.failure ??
    (outcome.done && !outcome.done.ok
      ? {
          code: 'agent/reported_failure' as const,
          message: `the agent reported failure: ${outcome.done.summary ?? 'done {ok:false}'}`,
        }
      : null);
  let decision: unknown = undefined;
  let after = memory;
  let memoryProblems: string[] = [];
  if (outcome.ok) {
    const answer = readAnswer(outcome.state, window, memory);
    decision = answer.decision;
    after = answer.memory;
    memoryProblems = answer.problems.filter(isMemoryProblem);
    if (decision === undefined)
      failure = {
        code: 'decision/missing',
        message: 'the agent finished without a "decision" in its state_patch',
      };
  }
  return {
    case: sample.case,
    window,
    sample,
    failure,
    violations: outcome.violations,
    stderr: outcome.stderr,
    decision,
    degraded: false,
    memoryProblems,
    memoryIn: memory,
    memory: after,
    latencyMs: outcome.durationMs,
    deadlineMs: meta.deadlineMs,
  };
}

/**
 * An invocation from what a traced seat returned: failure and memory from the trace, violations
 * and stderr from its observe stages (a plan seat's failed tools carry their stderr there too).
 * Null when the seat did not run the skill at all: the runtime had given up on it (permanent
 * failure) and its fallback agent answered.
 */
export function fromSeatDecision(answer: SeatDecision, meta: Meta): Invocation | null {
  const t = answer.trace;
  if (!t) throw new Error('agent-check needs traced seats (trace: true)');
  if (!t.stages.some((s) => s.stage === 'plan' || s.stage === 'act')) return null;
  const violations: Violation[] = [];
  const stderr: string[] = [];
  for (const s of t.stages) {
    if (s.stage !== 'observe') continue;
    const p = s.payload;
    if (Array.isArray(p['violations'])) violations.push(...(p['violations'] as Violation[]));
    if (typeof p['stderr'] === 'string' && p['stderr']) stderr.push(p['stderr']);
    if (Array.isArray(p['trace'])) {
      for (const e of p['trace'] as Array<{ type?: string; data?: Record<string, unknown> }>) {
        const err = e.data?.['stderr'];
        if (e.type === 'tool_failed' && typeof err === 'string' && err) stderr.push(err);
      }
    }
  }
  const verify = t.stages.find((s) => s.stage === 'verify')?.payload['problems'];
  const degraded = t.fallback?.startsWith('agent:') === true;
  return {
    case: meta.sample.case,
    window: t.window,
    sample: meta.sample,
    failure: t.failure,
    violations,
    stderr: stderr.join('\n'),
    decision: degraded ? undefined : answer.decision,
    degraded,
    memoryProblems: Array.isArray(verify) ? verify.filter(isMemoryProblem) : [],
    memoryIn: meta.memory ?? {},
    memory: t.memory,
    latencyMs: t.latency_ms,
    deadlineMs: meta.deadlineMs,
  };
}
