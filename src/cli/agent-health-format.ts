import type { AgentHealth } from '../runner/agent-health.js';
import { pct, table } from './format.js';
import { counts, LATENCY_HEADING, latencyText, QUEUED_HEADING } from './seat-summary-format.js';

/**
 * The LLM entrants' health beside the standings: one row per agent (decisions, first time,
 * repaired, rejected by the engine, fell back, calls by outcome, tokens, cost, the share of its games that failed and of
 * its decisions that fell back, call latency), then why each fell back. Nothing without LLM agents.
 */
export function formatAgentHealth(health: Readonly<Record<string, AgentHealth>>): string {
  const agents = Object.values(health);
  if (agents.length === 0) return '';
  const rows = agents.map((a) => [
    a.agent,
    String(a.games),
    String(a.decisions),
    String(a.answered_first_time),
    String(a.repaired),
    String(a.rejected),
    String(a.fell_back),
    counts(a.calls),
    `${a.input_tokens}/${a.output_tokens}`,
    a.cost_usd === null ? 'unknown' : `$${a.cost_usd.toFixed(4)}`,
    a.failed_games ? `${pct(a.error_rate)} (${a.failed_games})` : pct(a.error_rate),
    pct(a.fallback_rate),
    latencyText(a.wire_ms),
    latencyText(a.queued_ms),
  ]);
  const why = agents.flatMap((a) => [
    ...(a.rejected > 0 ? [`  ${a.agent} rejected by the engine ${a.rejected}×: ${counts(a.rejection_reasons)}`] : []),
    ...(a.fell_back > 0 ? [`  ${a.agent} fell back ${a.fell_back}×: ${counts(a.fallback_reasons)}`] : []),
  ]);
  return [
    'LLM agents:',
    ...table([['agent', 'games', 'decisions', 'first time', 'repaired', 'rejected', 'fell back', 'calls', 'tokens in/out', 'cost', 'games failed', 'fallbacks', LATENCY_HEADING, QUEUED_HEADING], ...rows], 1),
    ...why,
  ].join('\n') + '\n';
}
