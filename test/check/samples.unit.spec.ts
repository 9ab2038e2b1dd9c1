import { describe, expect, it } from 'vitest';
import { awaiting } from '../../src/game/index.js';
import { CASES } from '../../src/check/invocation.js';
import { engineVerdict } from '../../src/check/legal-check.js';
import { collectSamples } from '../../src/check/samples.js';
import { canonicalJson } from '../../src/store/canonical-json.js';
import { SAMPLES, sample } from './support.js';

describe('collectSamples: real requests from built-in games', () => {
  it('has every case, in order, each asked by the state it carries', () => {
    expect(SAMPLES.map((s) => s.case)).toEqual([...CASES]);
    for (const s of SAMPLES) {
      if (s.case === 'extra_fields') continue;
      const next = awaiting(s.state);
      expect(next?.window).toBe(s.request.window);
      expect(next?.seats).toContain(s.request.player_id);
    }
  });

  it('takes settled requests: past round 1, actions that allow an attack, compact rules for the compact case', () => {
    expect(sample('action').request.turn).toBeGreaterThanOrEqual(2);
    expect(
      sample('action').request.legal_actions.some((a) => a.kind === 'play_card' && a.attack),
    ).toBe(true);
    expect(sample('compact').request.constraints.compact).toBe(true);
    expect(sample('compact').request.window).toBe('action');
    expect(sample('action').request.constraints.compact).toBe(false);
  });

  it('the reprompt is what the engine really asks after a rejected action', () => {
    const r = sample('reprompt').request;
    expect(r.constraints.reprompt?.code).toBe('action/card_not_in_hand');
    expect(r.constraints.reprompt?.message).toContain('card_not_held');
    expect(r.player_id).toBe(sample('action').request.player_id);
    expect(r.request_id).not.toBe(sample('action').request.request_id);
  });

  it('is deterministic in its seed', () => {
    const json = (seed: number) => canonicalJson(collectSamples(seed).map((s) => s.request));
    expect(json(1)).toBe(canonicalJson(SAMPLES.map((s) => s.request)));
    expect(json(2)).not.toBe(json(1));
  });
});

describe('engineVerdict', () => {
  it('accepts a pass and rejects a card the seat does not hold, without touching the state', () => {
    const { state, request } = sample('action');
    const before = canonicalJson(state);
    expect(engineVerdict(state, request, { selected_action: { kind: 'pass' } })).toEqual({
      ok: true,
    });
    expect(
      engineVerdict(state, request, {
        selected_action: { kind: 'play_card', payload: { card_id: 'card_999' } },
      }),
    ).toMatchObject({ ok: false, code: 'action/card_not_in_hand' });
    expect(canonicalJson(state)).toBe(before);
  });

  it('reads a defaulted intent as a rejection (intent rejections are private)', () => {
    const { state, request } = sample('intent');
    expect(
      engineVerdict(state, request, {
        tactical_intent: 'build',
        emotional_intent: { emotion: 'fear', target_player_id: request.player_id },
      }),
    ).toMatchObject({ ok: false, code: 'intent/illegal_target' });
  });
});
