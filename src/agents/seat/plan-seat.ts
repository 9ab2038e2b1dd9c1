import { performance } from 'node:perf_hooks';
import type { UiEvent } from '../../protocol/index.js';
import { DEFAULT_REPLAN_BOUNDS, executePlan, runWithReplan } from '../plan/index.js';
import { minimalEnv, runProcess } from '../runtime/process-runner.js';
import type { Skill } from '../skills/load-skill.js';
import { externalSeat, reportedUsage, type Attempt } from './external-seat.js';
import { skillSandbox } from './skill-sandbox.js';
import { KNOWN_UI_EVENTS, type SeatAgent, type SeatContext } from './types.js';

/**
 * A skill whose answer is a plan of tools (seed 002): each decision generates a plan from the
 * skill's template, executes it (dependencies, retries, parallel branches, timeouts) and reads the
 * merged state. A failed plan is replanned without the skills that failed, within the bounds
 * (3 executions, 5 generations); past them the seat answers with its fallback agent this time.
 */
export function planSeat(skill: Skill, spec: string, ctx: SeatContext): SeatAgent {
  const template = skill.plan!;
  const sandbox = skillSandbox(skill, ctx.sandboxTrace);
  return externalSeat(skill, spec, ctx, async (request, workDir, trace): Promise<Attempt> => {
    const started = performance.now();
    const env = minimalEnv(workDir, { TILTYARD_SKILL_DIR: skill.dir });
    const uiEvents: UiEvent[] = [];
    const logs: Array<{ fields?: Record<string, unknown> }> = [];
    const out = await runWithReplan(
      ({ attempt, disabledSkills }) => {
        // A required tool of a disabled skill cannot be planned around: nothing left to try.
        if (template.tools.some((t) => t.required && disabledSkills.includes(t.skill ?? skill.name))) return null;
        trace.add(attempt === 1 ? 'plan' : 'replan', 'orchestrator', { generation: attempt, disabled_skills: disabledSkills, tools: template.tools.map((t) => t.toolId) });
        return { ...template, requestId: `${request.request_id}~g${attempt}`, disabledSkills, metadata: { ...template.metadata, generationAttempt: attempt } };
      },
      (plan) =>
        executePlan(
          plan,
          {
            runTool: async (tool, input, { deadlineMs, signal }) => {
              const outcome = await runProcess({ argv: [tool.toolPath, ...tool.args], cwd: workDir, env, input: { ...input, config: skill.config.values, workDir }, deadlineMs, signal, knownUiEvents: KNOWN_UI_EVENTS, workDir, sandbox });
              uiEvents.push(...outcome.uiEvents);
              logs.push(...outcome.logs);
              return outcome;
            },
          },
          { operation: request.window, input: request, tool: skill.name, skill: skill.name },
        ),
      { ...DEFAULT_REPLAN_BOUNDS, skill: skill.name },
    );
    const result = out.result;
    for (const step of out.history) {
      if (!step.result) {
        trace.add('replan', 'orchestrator', { generation: step.generation, valid: step.valid, reason: step.reason ?? null });
        continue;
      }
      const r = step.result;
      trace.add(
        'act',
        'orchestrator',
        {
          generation: step.generation,
          plan_id: r.planId,
          success: r.success,
          tools: r.toolResults.map((t) => ({ toolId: t.toolId, state: t.state, ok: t.ok, retries: t.retryCount, ms: Math.round(t.executionTimeMs), error: t.error })),
          failed: r.failedTools,
          skipped: r.skippedTools,
          failure_reason: r.failureReason,
        },
        { latency_ms: Math.round(r.executionTimeMs) },
      );
      trace.add('observe', 'orchestrator', { generation: step.generation, trace: r.trace.slice(0, 200) });
    }
    const ok = result?.success === true && !out.exhausted;
    const usage = reportedUsage(logs, skill.name);
    return {
      ok,
      failure: ok ? null : { code: 'plan/failed', message: result?.failureReason ?? (out.exhausted ? 'replan bounds reached' : 'no plan could be made') },
      state: ok ? result.state : {},
      retries: result ? result.toolResults.reduce((n, t) => n + t.retryCount, 0) : 0,
      latencyMs: performance.now() - started,
      deadlineMs: template.timeoutMs,
      uiEvents,
      tokens: usage.tokens,
      costUsd: usage.costUsd,
      reported: usage.calls,
      degrade: !ok,
    };
  });
}
