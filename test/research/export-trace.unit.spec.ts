import { describe, expect, it } from 'vitest';
import { reasoningOf, traceSummary } from '../../src/research/export-trace.js';

/** An LLM seat's trace as llm-seat.ts writes it: a first answer refused by a rule, one repair turn, then accepted. */
const repaired = {
  request_id: 'req_x_12_plr_1_0',
  ok: true,
  failure: null,
  fallback: null,
  latency_ms: 812,
  retries: 1,
  validation: [],
  memory: {},
  stages: [
    { stage: 'plan', payload: { agent: 'llm:mock' } },
    { stage: 'act', payload: { status: 'ok' }, metrics: { tokens: 900 } },
    { stage: 'observe', payload: { rule: 'truncated' } },
    { stage: 'verify', payload: { valid: false, rule: 'illegal_card' } },
    { stage: 'replan', payload: { repair: true, rule: 'illegal_card' } },
    { stage: 'act', payload: { status: 'ok' }, metrics: { tokens: 950 } },
    { stage: 'verify', payload: { valid: true, rule: null, repaired: true } },
    { stage: 'final', payload: { decided: true, reasoning: 'Needle on the leader.' }, metrics: { latency_ms: 812, tokens: 1850, cost_usd: 0.0021 } },
  ],
};

describe('traceSummary', () => {
  it('given a repaired LLM decision, then the repair, the rules that fired, the reasoning and the cost are read', () => {
    expect(traceSummary(repaired)).toEqual({
      ok: true,
      failure: null,
      fallback: null,
      retries: 1,
      validation: [],
      repaired: true,
      rules: ['truncated', 'illegal_card'],
      latency_ms: 812,
      tokens: 1850,
      cost_usd: 0.0021,
    });
    expect(reasoningOf(repaired)).toBe('Needle on the leader.');
  });

  it('given a failed decision the engine fell back on, then its failure and fallback are read and there is no reasoning', () => {
    const failed = { ok: false, failure: { code: 'llm/schema', message: 'still unusable after one repair' }, fallback: 'engine', retries: 0, validation: ['selected_action: required'], latency_ms: 40, stages: [{ stage: 'final', payload: { decided: false, reasoning: null } }] };
    expect(traceSummary(failed)).toMatchObject({ ok: false, failure: { code: 'llm/schema', message: 'still unusable after one repair' }, fallback: 'engine', validation: ['selected_action: required'], repaired: false, rules: [], tokens: null, cost_usd: null });
    expect(reasoningOf(failed)).toBeNull();
  });

  it('given no trace or a malformed one, then null or defaults, never a throw', () => {
    expect(traceSummary(undefined)).toBeNull();
    expect(traceSummary([1, 2])).toBeNull();
    expect(traceSummary({ stages: 'nope', failure: { code: 3 } })).toMatchObject({ ok: false, failure: { code: '', message: '' }, retries: 0, rules: [], latency_ms: 0 });
    expect(reasoningOf({ stages: [null, { stage: 'final' }] })).toBeNull();
  });
});
