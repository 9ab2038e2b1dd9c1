import type { LlmCaseOutcome, LlmCheckReport } from '../check/llm-check.js';
import { table } from './format.js';
import { counts } from './seat-summary-format.js';

const OUTCOME: Record<LlmCaseOutcome, string> = {
  first_time: '✓ first time',
  repaired: '✓ repaired',
  fell_back: '✗ fell back',
  rejected: '✗ engine rejected',
  not_run: '– not run (call limit)',
};

/** The line naming what the model gets wrong most, or that it got nothing wrong. */
export function mostCommonLine(r: LlmCheckReport): string {
  const answers = r.answers;
  if (!r.most_common) return 'gets wrong most: nothing — every answer was usable as written';
  const { rule, count, label } = r.most_common;
  return `gets wrong most: ${rule} — ${label} (${count} of ${answers} answer${answers === 1 ? '' : 's'})`;
}

/**
 * `agent-check llm:…` as text: one row per case (window, outcome, the rules that fired, calls,
 * tokens, cost, latency), why each failing case failed, the totals, what the model gets wrong
 * most, and the verdict.
 */
export function formatLlmCheck(r: LlmCheckReport): string {
  const rows = r.cases.map((c) => [
    c.case,
    c.window,
    OUTCOME[c.outcome],
    c.rules.join(', ') || '—',
    String(c.calls),
    `${c.input_tokens}/${c.output_tokens}`,
    `$${c.cost_usd.toFixed(4)}`,
    c.latency_ms === null ? '—' : String(c.latency_ms),
  ]);
  const why = r.cases.filter((c) => c.failure).map((c) => `  ${c.case}: ${c.failure!.code}: ${c.failure!.message}`);
  const t = r.totals;
  const skipped = r.cases.filter((c) => c.outcome === 'not_run').length;
  const lat = t.wire_ms ? ` · wire latency p50/p95/max ${t.wire_ms.p50}/${t.wire_ms.p95}/${t.wire_ms.max} ms${t.queued_ms ? `, queued ${t.queued_ms.p50}/${t.queued_ms.p95}/${t.queued_ms.max} ms` : ''}` : '';
  const lines = [
    `agent-check ${r.spec} (requests from seed ${r.seed} · at most ${r.max_calls} calls)`,
    '',
    ...table([['case', 'window', 'outcome', 'rules fired', 'calls', 'tokens in/out', 'cost', 'latency ms'], ...rows], 4).map((l) => `  ${l}`),
    ...(why.length ? ['', 'failed:', ...why] : []),
    '',
    `totals: ${t.decisions} decisions · ${t.answered_first_time} first time, ${t.repaired} repaired, ${t.rejected} rejected, ${t.fell_back} fell back · calls ${counts(t.calls)} · tokens ${t.input_tokens}/${t.output_tokens} · ${t.cost_usd === null ? 'cost unknown' : `$${t.cost_usd.toFixed(4)}`}${lat}`,
    mostCommonLine(r),
    '',
    r.ok
      ? "ok: every case ended with the model's own answer"
      : skipped
        ? `FAILED: ${skipped} of ${r.cases.length} cases not run: --max-calls ${r.max_calls} is too few for them (every case needs 2: at least ${r.calls_needed})`
        : "FAILED: not every case ended with the model's own answer",
  ];
  return `${lines.join('\n')}\n`;
}
