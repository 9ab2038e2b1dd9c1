/**
 * The expert's budgets by name: the levels, `<k>x` and `<steps>`, and a clear refusal for anything
 * else, wherever an agent spec is read (parseAgentSpec) or a built-in is made (createAgent).
 */
import { describe, expect, it } from 'vitest';
import { EXPERT, MAX_BUDGET } from '../../src/agents/builtin/expert/expert.js';
import { MIN_BUDGET, parseExpertSpec } from '../../src/agents/builtin/expert/levels.js';
import { AGENT_NAMES, agentBaseline, createAgent, isAgentName } from '../../src/agents/builtin/index.js';
import { parseAgentSpec } from '../../src/agents/seat/agent-spec.js';
import { seatConfigs } from '../../src/runner/lineup.js';

const budget = (spec: string) => {
  const r = parseExpertSpec(spec);
  return r.ok ? r.options.budget : r.message;
};

describe('expert budgets', () => {
  it('given the named levels, multiples and step counts, then each reads to its budget and keeps its name', () => {
    expect(budget('expert')).toBe(EXPERT.budget);
    expect(budget('expert:fast')).toBe(EXPERT.budget / 4);
    expect(budget('expert:deep')).toBe(EXPERT.budget * 4);
    expect(budget('expert:1x')).toBe(EXPERT.budget);
    expect(budget('expert:16x')).toBe(MAX_BUDGET);
    expect(budget(`expert:${MIN_BUDGET}`)).toBe(MIN_BUDGET);
    expect(budget(`expert:${MAX_BUDGET}`)).toBe(MAX_BUDGET);
    expect(parseExpertSpec('expert:1x')).toMatchObject({ ok: true, options: { name: 'expert:1x', horizon: EXPERT.horizon, width: EXPERT.width } });
  });

  it('given larger budgets, then the search looks further and wider: one more round of horizon each doubling past 1×, up to 16 candidates', () => {
    const shape = (spec: string) => {
      const r = parseExpertSpec(spec);
      return r.ok ? [r.options.horizon, r.options.width] : r.message;
    };
    expect(shape('expert:fast')).toEqual([1, 4]);
    expect(shape('expert')).toEqual([1, 8]);
    expect(shape('expert:1400')).toEqual([1, 5]);
    expect(shape('expert:2x')).toEqual([2, 16]);
    expect(shape('expert:deep')).toEqual([3, 16]);
    expect(shape('expert:4x')).toEqual([3, 16]);
    expect(shape('expert:8x')).toEqual([4, 16]);
    expect(shape('expert:16x')).toEqual([5, 16]);
    expect(shape(`expert:${MIN_BUDGET}`)).toEqual([1, 4]);
  });

  it.each(['expert:0', 'expert:abc', 'expert:', 'expert:0x', 'expert:17x', `expert:${MAX_BUDGET + 1}`, `expert:${MIN_BUDGET - 1}`, 'expert:-5', 'expert:1.5', 'expert:0500', 'expert:1e4', `expert:${'9'.repeat(40)}`])(
    'given %s, then it is refused with what is accepted',
    (spec) => {
      const r = parseExpertSpec(spec);
      expect(r.ok).toBe(false);
      expect(isAgentName(spec)).toBe(false);
      const asSeat = parseAgentSpec(spec);
      expect(asSeat).toMatchObject({ ok: false, message: expect.stringContaining('expert:<k>x') });
      // The message quotes a bounded slice of the input, never all of it.
      expect(asSeat.ok ? '' : asSeat.message.length).toBeLessThan(300);
    },
  );

  it('given a budget spec, then it is a built-in seat with expert’s baseline, a fresh agent of that name, and listed levels in the catalog', () => {
    expect(parseAgentSpec('expert:300')).toMatchObject({ ok: true, agent: { kind: 'builtin', name: 'expert:300' } });
    expect(createAgent('expert:300', 1, 0).name).toBe('expert:300');
    expect(agentBaseline('expert:300')).toEqual(agentBaseline('expert'));
    expect(seatConfigs(['expert:8x'])).toEqual([{ display_name: 'expert:8x', baseline: {} }]);
    expect(seatConfigs(['expert'])).toEqual([{ display_name: 'expert', baseline: {} }]);
    expect(AGENT_NAMES).toEqual(expect.arrayContaining(['expert', 'expert:fast', 'expert:deep']));
    expect(() => createAgent('expert:0', 1, 0)).toThrow(/expert:0/);
  });
});
