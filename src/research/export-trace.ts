import type { DecisionTraceSummary } from './export-record.js';

/**
 * The parts of a stored DecisionTrace (agent_traces.entries) the export reads. Traces were written
 * by many releases and by agents' own runtimes, so every field is read defensively.
 */
type StoredTrace = {
  ok?: unknown;
  failure?: unknown;
  fallback?: unknown;
  retries?: unknown;
  validation?: unknown;
  latency_ms?: unknown;
  stages?: unknown;
};
type StoredStage = { stage?: unknown; payload?: Record<string, unknown>; metrics?: Record<string, unknown> };

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);
const stagesOf = (t: StoredTrace): StoredStage[] => (Array.isArray(t.stages) ? (t.stages as StoredStage[]).filter((s) => s !== null && typeof s === 'object') : []);
const finalOf = (t: StoredTrace): StoredStage | undefined => stagesOf(t).findLast((s) => s.stage === 'final');
const isTrace = (t: unknown): t is StoredTrace => t !== null && typeof t === 'object' && !Array.isArray(t);

/** The reasoning an LLM seat gave with its accepted answer (the final stage's), or null. */
export function reasoningOf(trace: unknown): string | null {
  if (!isTrace(trace)) return null;
  const r = finalOf(trace)?.payload?.['reasoning'];
  return typeof r === 'string' && r.length > 0 ? r : null;
}

/**
 * A decision's trace as the export shows it: whether the agent answered, what failed, what fell
 * back, the repair turn and the answer-check rules that fired, and the cost. Null without a trace.
 */
export function traceSummary(trace: unknown): DecisionTraceSummary | null {
  if (!isTrace(trace)) return null;
  const f = trace.failure as { code?: unknown; message?: unknown } | null | undefined;
  const stages = stagesOf(trace);
  const metrics = finalOf(trace)?.metrics ?? {};
  return {
    ok: trace.ok === true,
    failure: f && typeof f === 'object' ? { code: text(f.code), message: text(f.message) } : null,
    fallback: typeof trace.fallback === 'string' ? trace.fallback : null,
    retries: Math.round(num(trace.retries) ?? 0),
    validation: Array.isArray(trace.validation) ? trace.validation.map(String) : [],
    repaired: stages.some((s) => s.stage === 'replan' && s.payload?.['repair'] === true),
    rules: stages.flatMap((s) => (s.stage === 'verify' || s.stage === 'observe') && typeof s.payload?.['rule'] === 'string' ? [s.payload['rule']] : []),
    latency_ms: num(trace.latency_ms) ?? 0,
    tokens: num(metrics['tokens']),
    cost_usd: num(metrics['cost_usd']),
  };
}
