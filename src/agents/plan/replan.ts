import type { ExecutionResult, PlanJson } from '../../protocol/index.js';
import { type PlanError, validatePlan } from './graph.js';

/** What the plan generator is told before each generation. */
export type GenerateRequest = {
  /** 1-based number of this generation. */
  attempt: number;
  /** Skills whose tools failed in earlier executions: the new plan must not use them. */
  disabledSkills: string[];
  /** The last execution's result, null before the first one. */
  previous: ExecutionResult | null;
  /** Why the last generated plan was rejected without running, if it was. */
  rejected: PlanError | null;
};

/** Returns a raw plan, or null when it cannot make one. May be async. */
export type PlanGenerator = (request: GenerateRequest) => unknown;

export type ReplanBounds = {
  maxExecutions: number;
  maxGenerations: number;
  /** The plan's own skill: blamed for failed tools that name no skill (PlanContext.skill). */
  skill?: string;
};

export const DEFAULT_REPLAN_BOUNDS: ReplanBounds = { maxExecutions: 3, maxGenerations: 5 };

export type ReplanStep = {
  generation: number;
  valid: boolean;
  reason?: string;
  result?: ExecutionResult;
};

export type ReplanOutcome = {
  /** The last execution's result (the successful one if any), null if no plan ever ran. */
  result: ExecutionResult | null;
  executions: number;
  generations: number;
  disabledSkills: string[];
  /** A bound ended the loop before any plan succeeded: the caller degrades to its fallback agent. */
  exhausted: boolean;
  history: ReplanStep[];
};

/**
 * The replan loop (seed 002 §6): generate a plan, validate it, execute it; after a failure, disable
 * the skills of the tools that failed and ask again. A plan that fails validation costs a
 * generation but not an execution, and the generator is told why it was rejected. Stops on
 * success, when the generator has nothing (returns null), when a result says replanning cannot
 * help, or at a bound. The loop's own decisions are deterministic; so is the whole loop when the
 * generator and the executor are.
 *
 * Disabled skills are also written into each plan before it runs, so a generator that ignores
 * them still cannot use them.
 *
 * @example
 * const { result, exhausted } = await runWithReplan(
 *   (req) => planner.plan(request, req),
 *   (plan) => executePlan(plan, ports, context),
 *   { ...DEFAULT_REPLAN_BOUNDS, skill: context.skill },
 * );
 * if (exhausted || !result?.success) return fallback.decide(request);
 */
export async function runWithReplan(
  generate: PlanGenerator,
  execute: (plan: PlanJson) => Promise<ExecutionResult>,
  bounds: ReplanBounds = DEFAULT_REPLAN_BOUNDS,
): Promise<ReplanOutcome> {
  const disabledSkills: string[] = [];
  const history: ReplanStep[] = [];
  let result: ExecutionResult | null = null;
  let rejected: PlanError | null = null;
  let executions = 0;
  let generations = 0;
  const outcome = (exhausted: boolean): ReplanOutcome => ({
    result,
    executions,
    generations,
    disabledSkills: [...disabledSkills],
    exhausted,
    history,
  });

  while (generations < bounds.maxGenerations && executions < bounds.maxExecutions) {
    generations += 1;
    const raw: unknown = await generate({
      attempt: generations,
      disabledSkills: [...disabledSkills],
      previous: result,
      rejected,
    });
    if (raw === null || raw === undefined) {
      history.push({
        generation: generations,
        valid: false,
        reason: 'the generator returned no plan',
      });
      return outcome(false);
    }
    const validation = validatePlan(raw);
    if (!validation.ok) {
      rejected = {
        code: validation.code,
        message: validation.message,
        ...(validation.cycle ? { cycle: validation.cycle } : {}),
      };
      history.push({ generation: generations, valid: false, reason: validation.message });
      continue;
    }
    rejected = null;
    const plan = withDisabled(validation.plan, disabledSkills);
    executions += 1;
    result = await execute(plan);
    history.push({
      generation: generations,
      valid: true,
      ...(result.failureReason ? { reason: result.failureReason } : {}),
      result,
    });
    if (result.success || !result.canReplan) return outcome(false);
    for (const skill of failedSkills(plan, result, bounds.skill)) {
      if (!disabledSkills.includes(skill)) disabledSkills.push(skill);
    }
  }
  return outcome(true);
}

function withDisabled(plan: PlanJson, disabled: readonly string[]): PlanJson {
  const missing = disabled.filter((s) => !plan.disabledSkills.includes(s));
  return missing.length === 0
    ? plan
    : { ...plan, disabledSkills: [...plan.disabledSkills, ...missing] };
}

/** Skills of the failed (or timed-out) tools, in the result's topological order. */
function failedSkills(
  plan: PlanJson,
  result: ExecutionResult,
  planSkill: string | undefined,
): string[] {
  const skills: string[] = [];
  for (const toolId of result.failedTools) {
    const skill = plan.tools.find((t) => t.toolId === toolId)?.skill ?? planSkill;
    if (skill !== undefined) skills.push(skill);
  }
  return skills;
}
