import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findCycle, topologicalOrder } from '../../../src/agents/plan/graph.js';

type Node = { toolId: string; dependencies: string[] };

/**
 * A random DAG: tool i may only depend on tools of lower rank, where ranks are a random
 * permutation, so the plan order says nothing about the dependency order.
 */
const dag = fc
  .integer({ min: 1, max: 25 })
  .chain((n) =>
    fc.tuple(
      fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
      fc.array(fc.array(fc.boolean(), { minLength: n, maxLength: n }), {
        minLength: n,
        maxLength: n,
      }),
    ),
  )
  .map(([rank, edges]): Node[] =>
    rank.map((r, i) => ({
      toolId: `t${i}`,
      dependencies: rank.flatMap((q, j) => (q < r && edges[i]![j] ? [`t${j}`] : [])),
    })),
  );

/** A random graph with at least one cycle: a DAG plus a closed walk through a random set of its tools. */
const cyclic = dag.chain((nodes) =>
  fc
    .shuffledSubarray(
      nodes.map((n) => n.toolId),
      { minLength: 1 },
    )
    .map((ring) => {
      const next = new Map(ring.map((id, i) => [id, ring[(i + 1) % ring.length]!]));
      return nodes.map((n) =>
        next.has(n.toolId) ? { ...n, dependencies: [...n.dependencies, next.get(n.toolId)!] } : n,
      );
    }),
);

function isRealCycle(nodes: Node[], cycle: string[]): boolean {
  const deps = new Map(nodes.map((n) => [n.toolId, n.dependencies]));
  if (cycle.length < 2 || cycle[0] !== cycle[cycle.length - 1]) return false;
  return cycle.slice(0, -1).every((id, i) => deps.get(id)?.includes(cycle[i + 1]!) ?? false);
}

describe('graph properties', () => {
  it('topologicalOrder lists every tool of a DAG once, after all of its dependencies', () => {
    fc.assert(
      fc.property(dag, (nodes) => {
        const order = topologicalOrder(nodes);
        expect([...order].sort()).toEqual(nodes.map((n) => n.toolId).sort());
        const at = new Map(order.map((id, i) => [id, i]));
        for (const n of nodes)
          for (const d of n.dependencies) expect(at.get(d)!).toBeLessThan(at.get(n.toolId)!);
        expect(findCycle(nodes)).toBeNull();
      }),
    );
  });

  it('topologicalOrder is a function of the plan (same input, same order)', () => {
    fc.assert(
      fc.property(dag, (nodes) => {
        expect(topologicalOrder(nodes)).toEqual(topologicalOrder(structuredClone(nodes)));
      }),
    );
  });

  it('findCycle finds a real cycle whenever the graph has one', () => {
    fc.assert(
      fc.property(cyclic, (nodes) => {
        const cycle = findCycle(nodes);
        expect(cycle).not.toBeNull();
        expect(isRealCycle(nodes, cycle!)).toBe(true);
        expect(topologicalOrder(nodes).length).toBeLessThan(nodes.length);
      }),
    );
  });
});
