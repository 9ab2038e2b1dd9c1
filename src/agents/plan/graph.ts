import { PlanJson, parseWith } from '../../protocol/index.js';

/** The part of a tool the dependency graph needs; `dependencies` are the toolIds it waits for. */
export type GraphNode = { readonly toolId: string; readonly dependencies: readonly string[] };

/**
 * A dependency cycle as a path along "waits for" edges that starts and ends at the same toolId
 * (each id depends on the next), or null when the graph is acyclic. Dependencies on ids that are
 * not in `tools` are ignored here; {@link validatePlan} reports them.
 *
 * Iterative depth-first search, so a long chain cannot overflow the stack; roots and edges are
 * visited in plan order, so the same plan always yields the same cycle.
 *
 * @example
 * findCycle([{ toolId: 'a', dependencies: ['b'] }, { toolId: 'b', dependencies: ['a'] }]); // ['a', 'b', 'a']
 * findCycle([{ toolId: 'a', dependencies: [] }]); // null
 */
export function findCycle(tools: readonly GraphNode[]): string[] | null {
  const deps = new Map(tools.map((t) => [t.toolId, t.dependencies]));
  const done = new Set<string>();
  const onPath = new Set<string>();
  for (const root of tools) {
    if (done.has(root.toolId)) continue;
    const stack: Array<{ id: string; next: number }> = [{ id: root.toolId, next: 0 }];
    onPath.add(root.toolId);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const list = deps.get(top.id) ?? [];
      const dep = list[top.next++];
      if (dep === undefined) {
        stack.pop();
        onPath.delete(top.id);
        done.add(top.id);
        continue;
      }
      if (!deps.has(dep) || done.has(dep)) continue;
      if (onPath.has(dep)) {
        const path = stack.map((f) => f.id);
        return [...path.slice(path.indexOf(dep)), dep];
      }
      onPath.add(dep);
      stack.push({ id: dep, next: 0 });
    }
  }
  return null;
}

/**
 * Kahn's algorithm: every tool after all of its dependencies. Among tools that are ready at the
 * same time the one listed first in the plan goes first, so the order is a pure function of the
 * plan (parallel runs, traces and the merged state all rely on that).
 *
 * Assumes unique toolIds and ignores unknown dependencies. Tools on a cycle, or waiting on one,
 * are left out, so a result shorter than `tools` means the graph is cyclic.
 *
 * @example
 * topologicalOrder([
 *   { toolId: 'act', dependencies: ['think'] },
 *   { toolId: 'look', dependencies: [] },
 *   { toolId: 'think', dependencies: ['look'] },
 * ]); // ['look', 'think', 'act']
 */
export function topologicalOrder(tools: readonly GraphNode[]): string[] {
  const index = new Map<string, number>();
  tools.forEach((t, i) => {
    if (!index.has(t.toolId)) index.set(t.toolId, i);
  });
  const waiting = tools.map(() => 0);
  const dependents: number[][] = tools.map(() => []);
  tools.forEach((t, i) => {
    for (const dep of new Set(t.dependencies)) {
      const j = index.get(dep);
      if (j === undefined) continue;
      waiting[i]! += 1;
      dependents[j]!.push(i);
    }
  });
  // Kept sorted by plan position: the smallest is the next tool. Plans are small, so a sorted
  // array beats a heap for clarity.
  const ready = tools.map((_, i) => i).filter((i) => waiting[i] === 0);
  const order: string[] = [];
  while (ready.length > 0) {
    const i = ready.shift()!;
    order.push(tools[i]!.toolId);
    for (const k of dependents[i]!) {
      waiting[k]! -= 1;
      if (waiting[k] === 0) insertSorted(ready, k);
    }
  }
  return order;
}

function insertSorted(sorted: number[], value: number): void {
  let at = sorted.findIndex((v) => v > value);
  if (at === -1) at = sorted.length;
  sorted.splice(at, 0, value);
}

export const PLAN_ERROR_CODES = [
  'plan/invalid',
  'plan/duplicate_tool',
  'plan/unknown_dependency',
  'plan/self_dependency',
  'plan/cycle',
] as const;
export type PlanErrorCode = (typeof PLAN_ERROR_CODES)[number];

export type PlanError = { code: PlanErrorCode; message: string; cycle?: string[] };
export type PlanValidation = { ok: true; plan: PlanJson } | ({ ok: false } & PlanError);

/**
 * Parse a generated plan and check its graph. Rejections are values whose message tells the plan
 * author (often a model) what to change.
 *
 * @example
 * const v = validatePlan({ requestId: 'p1', tools: [
 *   { toolId: 'a', toolPath: 'a.sh', dependencies: ['b'] },
 *   { toolId: 'b', toolPath: 'b.sh', dependencies: ['a'] },
 * ] });
 * // { ok: false, code: 'plan/cycle', cycle: ['a', 'b', 'a'], message: 'dependency cycle: a → b → a …' }
 */
export function validatePlan(raw: unknown): PlanValidation {
  const parsed = parseWith(PlanJson, raw);
  if (!parsed.ok)
    return { ok: false, code: 'plan/invalid', message: `plan is not valid: ${parsed.message}` };
  const error = checkGraph(parsed.value.tools);
  return error ? { ok: false, ...error } : { ok: true, plan: parsed.value };
}

/**
 * The graph checks of {@link validatePlan} for tools that already passed the schema: unique ids,
 * known dependencies, no self-dependency, no cycle. Null when the graph can be executed.
 *
 * @example
 * checkGraph([{ toolId: 'a', dependencies: ['a'] }])?.code; // 'plan/self_dependency'
 */
export function checkGraph(tools: readonly GraphNode[]): PlanError | null {
  const firstAt = new Map<string, number>();
  for (const [i, t] of tools.entries()) {
    const seen = firstAt.get(t.toolId);
    if (seen !== undefined) {
      return {
        code: 'plan/duplicate_tool',
        message: `toolId "${t.toolId}" is used by tools[${seen}] and tools[${i}]; give each tool its own id`,
      };
    }
    firstAt.set(t.toolId, i);
  }
  for (const t of tools) {
    if (t.dependencies.includes(t.toolId)) {
      return {
        code: 'plan/self_dependency',
        message: `tool "${t.toolId}" lists itself in its dependencies; a tool cannot wait for itself`,
      };
    }
    const unknown = t.dependencies.find((d) => !firstAt.has(d));
    if (unknown !== undefined) {
      return {
        code: 'plan/unknown_dependency',
        message: `tool "${t.toolId}" depends on "${unknown}", which is not a tool in this plan (its tools: ${[...firstAt.keys()].join(', ')}); fix the id or add that tool`,
      };
    }
  }
  const cycle = findCycle(tools);
  if (cycle) {
    return {
      code: 'plan/cycle',
      message: `dependency cycle: ${cycle.join(' → ')} (each tool waits for the next); remove one of these dependencies`,
      cycle,
    };
  }
  return null;
}
