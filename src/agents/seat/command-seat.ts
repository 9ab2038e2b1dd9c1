import { PersistentProcess } from '../runtime/persistent-process.js';
import { minimalEnv, runProcess } from '../runtime/process-runner.js';
import type { Skill } from '../skills/load-skill.js';
import { externalSeat, reportedUsage, type Attempt, type Invoke } from './external-seat.js';
import { skillSandbox } from './skill-sandbox.js';
import { excerpt } from './trace.js';
import { KNOWN_UI_EVENTS, type SeatAgent, type SeatContext } from './types.js';

/**
 * A skill run as one process per decision window (or, with `metadata.mode: persistent`, one
 * long-lived process per seat answering request after request): stdin `{requestId, tool, operation: <window>,
 * input: <TurnPlanRequest>, config, workDir}`, NDJSON on stdout. No retry here: a failed
 * invocation is the engine's to handle (reprompt once, then pass).
 */
export function commandSeat(skill: Skill, spec: string, ctx: SeatContext): SeatAgent {
  const argv = skill.argv!;
  // Opt-in long-lived mode: one process for the seat, requests correlated by requestId.
  const persistent = skill.metadata['mode'] === 'persistent';
  let proc: PersistentProcess | null = null;
  const sandbox = skillSandbox(skill, ctx.sandboxTrace);
  const invoke: Invoke = async (request, workDir, trace) => {
    const env = minimalEnv(workDir, { TILTYARD_SKILL_DIR: skill.dir });
    const input = { requestId: request.request_id, tool: skill.name, operation: request.window, input: request, config: skill.config.values, workDir };
    const outcome = persistent
      ? await (proc ??= new PersistentProcess({ argv, cwd: workDir, env, knownUiEvents: KNOWN_UI_EVENTS, workDir, sandbox })).request(input, skill.timeoutMs)
      : await runProcess({ argv, cwd: workDir, env, input, deadlineMs: skill.timeoutMs, knownUiEvents: KNOWN_UI_EVENTS, workDir, sandbox });
    trace.add(
      'act',
      'orchestrator',
      { argv, exit_code: outcome.exitCode, signal: outcome.signal, stdout_bytes: outcome.stdoutBytes },
      { latency_ms: Math.round(outcome.durationMs) },
    );
    trace.add('observe', 'orchestrator', {
      done: outcome.done,
      failure: outcome.failure,
      logs: outcome.logs.slice(0, 50).map((l) => ({ level: l.level, message: excerpt(l.message, 500), fields: l.fields })),
      errors: outcome.errors.map((e) => ({ code: e.errorCode, message: excerpt(e.errorMessage, 500), details: e.details })),
      assets: outcome.assets.map((a) => ({ assetId: a.assetId, kind: a.kind, mediaType: a.mediaType, path: a.path })),
      ui_events: outcome.uiEvents.map((u) => u.event),
      violations: outcome.violations,
      after_done: outcome.afterDone,
      stderr: excerpt(outcome.stderr),
      stderr_truncated: outcome.stderrTruncated,
    });
    const usage = reportedUsage(outcome.logs, skill.name);
    const attempt: Attempt = {
      ok: outcome.ok,
      failure: outcome.failure ?? (outcome.done && !outcome.done.ok ? { code: 'agent/reported_failure', message: `the agent reported failure: ${outcome.done.summary ?? 'done {ok:false}'}` } : null),
      state: outcome.state,
      retries: 0,
      latencyMs: outcome.durationMs,
      deadlineMs: skill.timeoutMs,
      uiEvents: outcome.uiEvents,
      tokens: usage.tokens,
      costUsd: usage.costUsd,
      reported: usage.calls,
    };
    return attempt;
  };
  return externalSeat(skill, spec, ctx, invoke, () => proc?.close() ?? Promise.resolve());
}
