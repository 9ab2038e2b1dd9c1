import type { ToolInvocation } from '../../protocol/index.js';

export type Schedule = {
  /** Tools in topological order. */
  order: readonly ToolInvocation[];
  parallel: boolean;
  /** Most async tools in flight at once (parallel plans only). */
  limit: number;
  /** True once a tool has a final result (completed, failed, skipped…). */
  settled(toolId: string): boolean;
  /** Runs or skips a tool to its final result; never rejects. */
  start(tool: ToolInvocation): Promise<void>;
  /** A tool could have started but for unfinished dependencies (reported once per tool). */
  onDependencyWait(tool: ToolInvocation, waitingFor: string[]): void;
};

/**
 * Starts every tool once, in topological order. Sequential plans run one tool at a time. In a
 * parallel plan, runs of consecutive async tools form a group whose members start as soon as
 * their dependencies have settled and a slot is free (earliest in the order first); a non-async
 * tool is a barrier: it waits for everything in flight, runs alone, and nothing after it starts
 * until it is done. The barrier keeps "runs alone" true without ever starving such a tool.
 *
 * @example
 * await dispatch({ order, parallel: true, limit: 2, settled, start, onDependencyWait });
 */
export async function dispatch(schedule: Schedule): Promise<void> {
  const { parallel, limit } = schedule;
  const pending = [...schedule.order];
  const running = new Set<Promise<void>>();
  const noted = new Set<string>();
  const launch = (tool: ToolInvocation) => {
    const done = () => void running.delete(flight);
    const flight: Promise<void> = schedule.start(tool).then(done, done);
    running.add(flight);
  };

  while (pending.length > 0) {
    const head = pending[0]!;
    if (!parallel || !head.async) {
      await Promise.all(running);
      pending.shift();
      await schedule.start(head);
      continue;
    }
    const next = running.size < limit ? pickReady(pending, schedule, noted) : -1;
    if (next >= 0) {
      launch(pending.splice(next, 1)[0]!);
      continue;
    }
    // In a topological order the first pending tool only waits on tools in flight, so an empty
    // flight set here means the order was not topological: a bug, not a plan problem.
    if (running.size === 0) throw new Error(`plan scheduler stalled before tool "${head.toolId}"`);
    await Promise.race(running);
  }
  await Promise.all(running);
}

/** Index of the first async tool before the next barrier whose dependencies have all settled. */
function pickReady(
  pending: readonly ToolInvocation[],
  schedule: Schedule,
  noted: Set<string>,
): number {
  for (const [i, tool] of pending.entries()) {
    if (!tool.async) return -1;
    const waitingFor = tool.dependencies.filter((d) => !schedule.settled(d));
    if (waitingFor.length === 0) return i;
    if (!noted.has(tool.toolId)) {
      noted.add(tool.toolId);
      schedule.onDependencyWait(tool, waitingFor);
    }
  }
  return -1;
}
