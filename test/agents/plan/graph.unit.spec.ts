import { describe, expect, it } from 'vitest';
import {
  checkGraph,
  findCycle,
  topologicalOrder,
  validatePlan,
} from '../../../src/agents/plan/graph.js';

const node = (toolId: string, ...dependencies: string[]) => ({ toolId, dependencies });
const tool = (toolId: string, ...dependencies: string[]) => ({
  toolId,
  toolPath: `${toolId}.sh`,
  dependencies,
});

describe('findCycle', () => {
  it('given a tool depending on itself, then the cycle has length 1', () => {
    expect(findCycle([node('a', 'a')])).toEqual(['a', 'a']);
  });

  it('given two tools waiting for each other, then the path starts and ends at the same tool', () => {
    expect(findCycle([node('a', 'b'), node('b', 'a')])).toEqual(['a', 'b', 'a']);
  });

  it('given a cycle of three behind an acyclic prefix, then only the cycle is returned, following "waits for" edges', () => {
    const tools = [
      node('start'),
      node('x', 'start', 'a'),
      node('a', 'b'),
      node('b', 'c'),
      node('c', 'a'),
    ];
    expect(findCycle(tools)).toEqual(['a', 'b', 'c', 'a']);
  });

  it('given a diamond, then there is no cycle (shared ancestors are not cycles)', () => {
    expect(
      findCycle([
        node('top'),
        node('left', 'top'),
        node('right', 'top'),
        node('bottom', 'left', 'right'),
      ]),
    ).toBeNull();
  });

  it('given disconnected components and unknown dependencies, then there is no cycle', () => {
    expect(findCycle([node('a'), node('b', 'a'), node('c'), node('d', 'c', 'ghost')])).toBeNull();
  });

  it('given the same plan twice, then the same cycle is reported', () => {
    const tools = [node('a', 'b', 'c'), node('b', 'a'), node('c', 'a')];
    expect(findCycle(tools)).toEqual(findCycle(tools));
    expect(findCycle(tools)).toEqual(['a', 'b', 'a']);
  });

  it('handles a chain far deeper than the call stack', () => {
    const chain = Array.from({ length: 20_000 }, (_, i) =>
      node(`t${i}`, ...(i > 0 ? [`t${i - 1}`] : [])),
    );
    expect(findCycle(chain)).toBeNull();
    chain[0] = node('t0', 't19999');
    expect(findCycle(chain)).toHaveLength(20_001);
  });
});

describe('topologicalOrder', () => {
  it('given a diamond, then each tool comes after its dependencies and ties follow the plan order', () => {
    const tools = [
      node('bottom', 'right', 'left'),
      node('right', 'top'),
      node('left', 'top'),
      node('top'),
    ];
    expect(topologicalOrder(tools)).toEqual(['top', 'right', 'left', 'bottom']);
  });

  it('given independent tools, then the plan order is kept', () => {
    expect(topologicalOrder([node('c'), node('a'), node('b')])).toEqual(['c', 'a', 'b']);
  });

  it('given disconnected chains, then a ready tool listed earlier always goes first', () => {
    const tools = [node('a2', 'a1'), node('b1'), node('a1'), node('b2', 'b1')];
    expect(topologicalOrder(tools)).toEqual(['b1', 'a1', 'a2', 'b2']);
  });

  it('given duplicate dependency entries, then they count once', () => {
    expect(topologicalOrder([node('b', 'a', 'a'), node('a')])).toEqual(['a', 'b']);
  });

  it('given a cycle, then the tools on it and behind it are left out', () => {
    expect(topologicalOrder([node('a'), node('b', 'c'), node('c', 'b'), node('d', 'b')])).toEqual([
      'a',
    ]);
  });
});

describe('validatePlan', () => {
  it('given a well-formed plan, then it is parsed with defaults', () => {
    const v = validatePlan({ requestId: 'p1', tools: [tool('a'), tool('b', 'a')] });
    expect(v.ok).toBe(true);
    if (v.ok)
      expect(v.plan.tools[1]).toMatchObject({
        required: true,
        async: false,
        retryPolicy: { maxRetries: 3, backoffMs: 100 },
      });
  });

  it('given a schema violation, then plan/invalid names the field', () => {
    const v = validatePlan({ requestId: 'p1', tools: [{ toolId: 'a', toolPath: '' }] });
    expect(v).toMatchObject({ ok: false, code: 'plan/invalid' });
    if (!v.ok) expect(v.message).toContain('tools.0.toolPath');
    expect(validatePlan({ requestId: 'p1', tools: [] })).toMatchObject({
      ok: false,
      code: 'plan/invalid',
    });
    expect(validatePlan('not a plan')).toMatchObject({ ok: false, code: 'plan/invalid' });
  });

  it('given two tools with one id, then plan/duplicate_tool says where', () => {
    const v = validatePlan({ requestId: 'p1', tools: [tool('a'), tool('b'), tool('a')] });
    expect(v).toMatchObject({ ok: false, code: 'plan/duplicate_tool' });
    if (!v.ok)
      expect(v.message).toBe(
        'toolId "a" is used by tools[0] and tools[2]; give each tool its own id',
      );
  });

  it('given a dependency on a missing tool, then plan/unknown_dependency lists the tools there are', () => {
    const v = validatePlan({ requestId: 'p1', tools: [tool('look'), tool('act', 'lok')] });
    expect(v).toMatchObject({ ok: false, code: 'plan/unknown_dependency' });
    if (!v.ok)
      expect(v.message).toContain(
        'tool "act" depends on "lok", which is not a tool in this plan (its tools: look, act)',
      );
  });

  it('given a tool depending on itself, then plan/self_dependency', () => {
    expect(validatePlan({ requestId: 'p1', tools: [tool('a', 'a')] })).toMatchObject({
      ok: false,
      code: 'plan/self_dependency',
    });
  });

  it('given a cycle, then plan/cycle carries the path and names it in the message', () => {
    const v = validatePlan({
      requestId: 'p1',
      tools: [tool('a', 'c'), tool('b', 'a'), tool('c', 'b')],
    });
    expect(v).toMatchObject({ ok: false, code: 'plan/cycle', cycle: ['a', 'c', 'b', 'a'] });
    if (!v.ok) expect(v.message).toContain('dependency cycle: a → c → b → a');
  });

  it('checkGraph accepts what the schema already parsed', () => {
    expect(checkGraph([node('a'), node('b', 'a')])).toBeNull();
  });
});
