import { describe, expect, it } from 'vitest';
import { readAnswer, MAX_MEMORY_BYTES } from '../../../src/agents/seat/answer.js';
import { SkillHealth } from '../../../src/agents/seat/health.js';
import { maskSecrets } from '../../../src/agents/seat/trace.js';
import { parseAgentSpec } from '../../../src/agents/seat/agent-spec.js';
import { seatConfigs } from '../../../src/runner/lineup.js';

describe('readAnswer', () => {
  it('given a valid decision and a memory patch, then the memory is patched (null deletes) and no issue is reported', () => {
    const a = readAnswer({ decision: { card_id: null }, memory: { grudge: 'plr_2', old: null } }, 'reaction', { old: 1, seen: 3 });
    expect(a).toEqual({ decision: { card_id: null }, validation: [], memory: { seen: 3, grudge: 'plr_2' }, problems: [] });
  });

  it('given a decision that breaks the window schema, then the issues name the field and the decision still goes to the engine', () => {
    const a = readAnswer({ decision: { tactical_intent: 'dance' } }, 'intent', {});
    expect(a.decision).toEqual({ tactical_intent: 'dance' });
    expect(a.validation.join(' ')).toContain('tactical_intent');
  });

  it('given no decision, a non-object memory or an oversized memory, then each is a problem and memory is kept', () => {
    expect(readAnswer({}, 'talk', {}).problems).toEqual(['the merged state_patch has no "decision"']);
    expect(readAnswer({ decision: {}, memory: [1] }, 'talk', { a: 1 })).toMatchObject({ memory: { a: 1 }, problems: [expect.stringContaining('JSON object')] });
    const big = { blob: 'x'.repeat(MAX_MEMORY_BYTES) };
    expect(readAnswer({ decision: {}, memory: big }, 'talk', { a: 1 })).toMatchObject({ memory: { a: 1 }, problems: [expect.stringContaining('bytes')] });
  });
});

describe('SkillHealth', () => {
  const ok = { ok: true, failure: null, latencyMs: 10, deadlineMs: 1000 };
  const timeout = { ok: false, failure: { code: 'process/timeout' as const, message: '' }, latencyMs: 1000, deadlineMs: 1000 };

  it('goes healthy → temporaryFailure → degraded on recovery, and permanent after three failures in a row', () => {
    const h = new SkillHealth();
    expect(h.record(ok)).toBe('healthy');
    expect(h.record(timeout)).toBe('temporaryFailure');
    expect(h.record(ok)).toBe('degraded');
    expect(h.record({ ...ok, latencyMs: 900 })).toBe('degraded');
    expect(h.record(ok)).toBe('healthy');
    h.record(timeout);
    h.record(timeout);
    expect(h.record(timeout)).toBe('permanentFailure');
    expect(h.record(ok)).toBe('permanentFailure');
  });

  it('gives up at once on an agent that cannot be started', () => {
    expect(new SkillHealth().record({ ok: false, failure: { code: 'process/spawn_failed', message: '' }, latencyMs: 1, deadlineMs: 1000 })).toBe('permanentFailure');
  });
});

describe('maskSecrets', () => {
  it('replaces secrets in every string and key, nested, and leaves the rest', () => {
    const v = { stderr: 'token=abc123XYZ!', list: ['x abc123XYZ y'], abc123XYZ: 1, n: 2 };
    expect(maskSecrets(v, ['abc123XYZ'])).toEqual({ stderr: 'token=***!', list: ['x *** y'], '***': 1, n: 2 });
    expect(maskSecrets(v, [])).toBe(v);
  });
});

describe('agent specs', () => {
  it('resolves built-ins and skills by path or by name, and explains unknown ones', () => {
    expect(parseAgentSpec('turtle')).toMatchObject({ ok: true, agent: { kind: 'builtin', name: 'turtle' } });
    expect(parseAgentSpec('skill:skills/balanced')).toMatchObject({ ok: true, agent: { kind: 'skill', skill: { name: 'balanced', kind: 'builtin' } } });
    expect(parseAgentSpec('skill:balanced')).toMatchObject({ ok: true, agent: { kind: 'skill', skill: { name: 'balanced' } } });
    expect(parseAgentSpec('genius')).toMatchObject({ ok: false, message: expect.stringContaining('skill:<folder>') });
    expect(parseAgentSpec('skill:')).toMatchObject({ ok: false });
    expect(parseAgentSpec('skill:no/such/folder')).toMatchObject({ ok: false, message: expect.stringContaining('not a folder') });
  });

  it('names seats after their agents, numbered when a name repeats or contains another', () => {
    expect(seatConfigs(['balanced', 'random', 'balanced']).map((s) => s.display_name)).toEqual(['balanced 1', 'random', 'balanced 2']);
    expect(seatConfigs(['skill:skills/aggressor', 'random']).map((s) => s.display_name)).toEqual(['aggressor', 'random']);
    expect(seatConfigs(['skill:skills/aggressor', 'random'])[0]?.baseline).toBeDefined();
  });
});
