import type { JsonObject } from '../protocol/index.js';
import type { AgentSpec } from '../agents/seat/agent-spec.js';
import { createSeat } from '../agents/seat/create-seat.js';
import type { Skill } from '../agents/skills/load-skill.js';
import { fromSeatDecision, type CaseName, type Invocation, type Sample } from './invocation.js';

/** Cases that replay the action request: they get the memory the action case was given. */
const LIKE_ACTION: ReadonlySet<CaseName> = new Set(['reprompt', 'extra_fields', 'determinism']);

/** The deadline one decision of the skill gets: a plan's overall timeout, else metadata.timeout_ms. */
export const deadlineOf = (skill: Skill): number => skill.plan?.timeoutMs ?? skill.timeoutMs;

export type ConformanceRun = {
  /** Per case, in sample order; null when the seat no longer ran the skill (permanent failure). */
  cases: Array<{ case: CaseName; invocation: Invocation | null }>;
};

/**
 * Puts each sample to the skill through one traced seat, as a game would: the window cases in
 * round order, each handed the memory the previous one returned, then the edge cases. One seat
 * means one work dir (so "the same request" really is the same stdin) and the runtime's own health
 * rules: after 3 failures in a row, or a failed start, it stops running the skill.
 */
export async function runConformance(
  agent: AgentSpec & { kind: 'skill' },
  samples: readonly Sample[],
  options: { gameSeed: number; workRoot?: string; sandboxTrace?: string },
): Promise<ConformanceRun> {
  const deadlineMs = deadlineOf(agent.skill);
  const seat = createSeat(agent, {
    gameSeed: options.gameSeed,
    seat: 0,
    trace: true,
    ...(options.workRoot ? { workRoot: options.workRoot } : {}),
    ...(options.sandboxTrace ? { sandboxTrace: options.sandboxTrace } : {}),
  });
  const cases: ConformanceRun['cases'] = [];
  let memory: JsonObject = {};
  let actionMemory: JsonObject = {};
  try {
    for (const sample of samples) {
      const given = LIKE_ACTION.has(sample.case) ? actionMemory : memory;
      if (sample.case === 'action') actionMemory = memory;
      seat.restoreMemory(given);
      const answer = await seat.decide(sample.request);
      const invocation = fromSeatDecision(answer, { sample, deadlineMs, memory: given });
      cases.push({ case: sample.case, invocation });
      if (invocation && !LIKE_ACTION.has(sample.case)) memory = invocation.memory;
    }
  } finally {
    await seat.close();
  }
  return { cases };
}
