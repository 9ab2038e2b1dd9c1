import { describe, expect, it } from 'vitest';
import { determinismCheck } from '../../src/check/determinism-check.js';
import { NOT_RUN } from '../../src/check/edge-case.js';
import {
  forwardCompatCheck,
  withUnknownFields,
} from '../../src/check/forward-compat-check.js';
import { memoryCheck } from '../../src/check/memory-check.js';
import { repromptCheck } from '../../src/check/reprompt-check.js';
import { DONE, answer, invoke, patch } from './support.js';

const pass = { selected_action: { kind: 'pass' } };
const card999 = { selected_action: { kind: 'play_card', payload: { card_id: 'card_999' } } };

describe('edge checks', () => {
  it('reprompt: an illegal answer to the reprompt is one reprompt error, naming the rejection it followed', () => {
    const run = repromptCheck(
      invoke('reprompt', [patch({ decision: card999 }), DONE]),
      invoke('action', answer('action')),
    );
    expect(run.skipped).toBeNull();
    expect(run.findings).toHaveLength(1);
    expect(run.findings[0]).toMatchObject({
      check: 'reprompt',
      severity: 'error',
      window: 'action',
      key: 'action/card_not_in_hand',
    });
    expect(run.findings[0]!.message).toContain(
      'asked again after a rejected answer (action/card_not_in_hand)',
    );
  });

  it('reprompt: a pass is fine', () => {
    expect(
      repromptCheck(invoke('reprompt', answer('reprompt')), invoke('action', answer('action'))),
    ).toEqual({ check: 'reprompt', findings: [], skipped: null });
  });

  it('an edge case is not judged when its plain case fails, nor when it did not run', () => {
    const broken = invoke('action', [], { badLine: { code: 'protocol/bad_json', message: 'x' } });
    const run = repromptCheck(invoke('reprompt', []), broken);
    expect(run.findings).toEqual([]);
    expect(run.skipped).toContain('fix that first');
    expect(forwardCompatCheck(null, invoke('action', answer('action')))).toMatchObject({
      findings: [],
      skipped: NOT_RUN,
    });
  });

  it('forward_compat: failing only with unknown fields is an error that carries the underlying hint', () => {
    const run = forwardCompatCheck(
      invoke('extra_fields', [{ version: '0', type: 'oops' }]),
      invoke('action', answer('action')),
    );
    expect(run.findings[0]).toMatchObject({
      check: 'forward_compat',
      severity: 'error',
      key: 'protocol/unknown_type',
    });
    expect(run.findings[0]!.hint).toContain('log, state_patch');
  });

  it('withUnknownFields adds fields at the top, in nested objects and in list entries, and keeps the rest', () => {
    const req = invoke('action', answer('action')).sample.request;
    const extra = withUnknownFields(req) as unknown as Record<string, Record<string, unknown>>;
    expect(extra['x_future_field']).toBeDefined();
    expect(extra['constraints']!['x_future_limit']).toBe(3);
    expect(
      (extra['legal_actions'] as unknown as Array<Record<string, unknown>>).every(
        (a) => a['x_future_hint'],
      ),
    ).toBe(true);
    expect(extra['player_id']).toBe(req.player_id);
  });

  it('determinism: the same decision twice passes, two different ones warn, showing both', () => {
    const a = invoke('action', [patch({ decision: pass }), DONE]);
    expect(
      determinismCheck(invoke('determinism', [patch({ decision: { ...pass } }), DONE]), a).findings,
    ).toEqual([]);
    const run = determinismCheck(
      invoke('determinism', [patch({ decision: { ...pass, confidence: 0.7 } }), DONE]),
      a,
    );
    expect(run.findings).toHaveLength(1);
    expect(run.findings[0]).toMatchObject({ check: 'determinism', severity: 'warning' });
    expect(run.findings[0]!.message).toContain('0.7');
  });

  it('determinism: key order does not matter', () => {
    const a = invoke('action', [
      patch({ decision: { confidence: 0.5, selected_action: { kind: 'pass' } } }),
      DONE,
    ]);
    const b = invoke('determinism', [
      patch({ decision: { selected_action: { kind: 'pass' }, confidence: 0.5 } }),
      DONE,
    ]);
    expect(determinismCheck(b, a).findings).toEqual([]);
  });

  it('memory: skipped when the agent keeps none; the round trip must not break the agent', () => {
    const plain = invoke('intent', answer('intent'));
    expect(memoryCheck([plain], invoke('memory', answer('memory')), plain).skipped).toContain(
      'keeps no memory',
    );
    const ok = invoke('memory', answer('memory'), { memory: { grudge: 'plr_2' } });
    expect(memoryCheck([plain, ok], ok, plain)).toEqual({
      check: 'memory',
      findings: [],
      skipped: null,
    });
    const broken = invoke('memory', [{ version: '0', type: 'log', level: 'info', message: 'x' }], {
      memory: { grudge: 'plr_2' },
      exitCode: 1,
    });
    const run = memoryCheck([plain, broken], broken, plain);
    expect(run.findings[0]).toMatchObject({
      check: 'memory',
      severity: 'error',
      key: 'protocol/exit_code',
    });
    expect(run.findings[0]!.message).toContain('run again with the memory it returned');
  });

  it('memory: a memory the runtime refuses is an error wherever it happens', () => {
    const bad = invoke(
      'talk',
      answer('talk', { memory: 'not an object' as unknown as Record<string, unknown> }),
    );
    const run = memoryCheck([bad], null, null);
    expect(run.findings).toHaveLength(1);
    expect(run.findings[0]).toMatchObject({ check: 'memory', severity: 'error', window: 'talk' });
    expect(run.findings[0]!.hint).toContain('memory_state.agent');
  });
});
