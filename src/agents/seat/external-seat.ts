import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject, TurnPlanRequest, UiEvent } from '../../protocol/index.js';
import { removeTree } from '../../lib/remove-tree.js';
import { createAgent } from '../builtin/index.js';
import type { Skill } from '../skills/load-skill.js';
import type { Failure } from '../runtime/outcome.js';
import { readAnswer } from './answer.js';
import { SkillHealth } from './health.js';
import { TraceBuilder, maskSecrets } from './trace.js';
import type { ProviderCallRecord, SeatAgent, SeatContext, SeatDecision } from './types.js';

/** What one attempt at a decision produced, whatever ran it (one process, or a plan of them). */
export type Attempt = {
  ok: boolean;
  failure: Failure | null;
  /** The merged state_patch patches. */
  state: JsonObject;
  retries: number;
  latencyMs: number;
  deadlineMs: number;
  uiEvents: UiEvent[];
  /** Tokens and cost the agent reported in `log` fields (`usage`), summed. */
  tokens: number;
  costUsd: number;
  /** A failed attempt answers with the fallback agent this time, instead of the engine's fallback. */
  degrade?: boolean;
  /** Usage the agent reported in its logs (provider_calls rows). */
  reported?: ReportedCall[];
};

/** Runs the skill once for a request (with the seat's memory in it), recording stages on `trace`. */
export type Invoke = (request: TurnPlanRequest, workDir: string, trace: TraceBuilder) => Promise<Attempt>;

export const defaultWorkRoot = (): string => join(tmpdir(), 'tiltyard-agents');

/** The request as the agent sees it: its own memory handed back in memory_state.agent. */
export function withMemory(request: TurnPlanRequest, memory: JsonObject): TurnPlanRequest {
  const view = request.player_private_view;
  return { ...request, player_private_view: { ...view, memory_state: { ...view.memory_state, agent: memory } } };
}

/**
 * The part every external skill shares: memory across windows, health over the run, the fallback
 * agent once the skill has failed for good, and the decision's trace (secrets masked). A failed
 * attempt gives the engine no answer, so the rules' fallback applies: a reprompt where the rules
 * allow one, then pass.
 */
export function externalSeat(skill: Skill, spec: string, ctx: SeatContext, invoke: Invoke, onClose: () => Promise<void> = () => Promise.resolve()): SeatAgent {
  const health = new SkillHealth();
  const fallback = createAgent(skill.fallback, ctx.gameSeed, ctx.seat);
  let memory: JsonObject = {};
  let workDir: string | null = null;
  const secrets = skill.config.secrets;

  const ensureWorkDir = (): string => {
    if (workDir) return workDir;
    const root = ctx.workRoot ?? defaultWorkRoot();
    mkdirSync(root, { recursive: true });
    workDir = mkdtempSync(join(root, `${skill.name}-seat${ctx.seat + 1}-`));
    return workDir;
  };

  async function decide(request: TurnPlanRequest): Promise<SeatDecision> {
    const trace = new TraceBuilder(request.request_id);
    const base = { request_id: request.request_id, player_id: request.player_id, turn: request.turn, window: request.window, agent: spec };
    if (health.state === 'permanentFailure') {
      const decision = fallback.decide(request);
      trace.add('replan', 'orchestrator', { reason: `${skill.name} failed permanently`, degraded_to: skill.fallback });
      trace.add('final', 'orchestrator', { decided: true, fallback_agent: skill.fallback });
      return {
        decision,
        uiEvents: [],
        trace: { ...base, ok: false, failure: null, fallback: `agent:${skill.fallback}`, latency_ms: 0, retries: 0, validation: [], health: health.state, memory, stages: trace.stages },
      };
    }
    trace.add('plan', 'orchestrator', { agent: spec, kind: skill.kind, attempt: (request.constraints.reprompt ? 2 : 1), memory_keys: Object.keys(memory) });
    const attempt = await invoke(withMemory(request, memory), ensureWorkDir(), trace);
    let failure = attempt.failure;
    let decision: unknown = undefined;
    let validation: string[] = [];
    const problems: string[] = [];
    if (attempt.ok) {
      const answer = readAnswer(attempt.state, request.window, memory);
      problems.push(...answer.problems);
      validation = answer.validation;
      decision = answer.decision;
      memory = answer.memory;
      if (decision === undefined) failure = { code: 'decision/missing', message: 'the agent finished without a "decision" in its state_patch' };
    }
    const ok = attempt.ok && decision !== undefined;
    const state = health.record({ ok, failure, latencyMs: attempt.latencyMs, deadlineMs: attempt.deadlineMs });
    const degraded = !ok && attempt.degrade === true;
    if (degraded) {
      decision = fallback.decide(request);
      trace.add('replan', 'orchestrator', { reason: failure?.message ?? 'failed', degraded_to: skill.fallback });
    }
    trace.add('verify', 'verifier', { valid: ok && validation.length === 0, issues: validation, problems });
    trace.add(
      'final',
      'orchestrator',
      { decided: ok || degraded, failure, health: state, fallback: ok ? null : degraded ? `agent:${skill.fallback}` : 'engine: reprompt once where the rules allow, then pass', memory },
      { latency_ms: Math.round(attempt.latencyMs), tokens: attempt.tokens, cost_usd: attempt.costUsd },
    );
    const trace_ = ctx.trace
      ? maskSecrets(
          { ...base, ok, failure, fallback: ok ? null : degraded ? `agent:${skill.fallback}` : 'engine', latency_ms: Math.round(attempt.latencyMs), retries: attempt.retries, validation, health: state, memory, stages: trace.stages },
          secrets,
        )
      : null;
    const calls = (attempt.reported ?? []).map((c) => ({ ...c, player_id: request.player_id, turn: request.turn, window: request.window }));
    return { decision: ok || degraded ? decision : undefined, uiEvents: attempt.uiEvents, trace: trace_, calls };
  }

  return {
    spec,
    replayable: false,
    decide,
    restoreMemory(m) {
      memory = m;
    },
    async close() {
      await onClose();
      const dir = workDir;
      workDir = null;
      // The agent's files, as many as it made: removed without holding the event loop.
      if (dir) await removeTree(dir);
    },
  };
}

/** A call an agent reported in a log's `fields.usage`, before the seat adds where it belongs. */
export type ReportedCall = Omit<ProviderCallRecord, 'player_id' | 'turn' | 'window'>;

/**
 * Usage an agent reported in its log fields — `{usage: {provider?, model?, input_tokens,
 * output_tokens, cost_usd?, latency_ms?}}` — one provider_calls record per log line (status
 * "reported"), and the sums for the trace's metrics.
 */
export function reportedUsage(logs: ReadonlyArray<{ fields?: Record<string, unknown> | undefined }>, agent: string): { tokens: number; costUsd: number; calls: ReportedCall[] } {
  let tokens = 0;
  let costUsd = 0;
  const calls: ReportedCall[] = [];
  for (const l of logs) {
    const u = l.fields?.['usage'];
    if (!u || typeof u !== 'object') continue;
    const field = (k: string) => (u as Record<string, unknown>)[k];
    const n = (k: string) => {
      const v = field(k);
      return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0;
    };
    const text = (k: string, fallback: string) => {
      const v = field(k);
      return typeof v === 'string' && v.length > 0 ? v.slice(0, 200) : fallback;
    };
    const input = Math.round(n('input_tokens') + n('tokens'));
    const output = Math.round(n('output_tokens'));
    tokens += input + output;
    costUsd += n('cost_usd');
    calls.push({ provider: text('provider', 'external'), model: text('model', agent), request_hash: null, input_tokens: input, output_tokens: output, cost_usd: n('cost_usd'), latency_ms: Math.round(n('latency_ms')), status: 'reported', error: null });
  }
  return { tokens, costUsd, calls };
}
