import { z } from 'zod';
import { JsonObject, ToolEvent } from './tool-events.js';

/**
 * Plans of tools (seeds 000 and 002): a seat may answer a window by running several tools — say
 * perceive → appraise → deliberate → act — as a dependency graph. Defaults are the seed's:
 * sequential, required, 3 retries with a 100 ms backoff base, 30 s per tool.
 */
export const RetryPolicy = z.object({
  maxRetries: z.number().int().min(0).max(10).default(3),
  /** Delay before attempt n+1 is `backoffMs × 2^(n−1)`. */
  backoffMs: z.number().int().min(0).max(60_000).default(100),
});
export type RetryPolicy = z.infer<typeof RetryPolicy>;

const id = z.string().min(1, 'must be a non-empty string');

export const ToolInvocation = z.object({
  toolId: id,
  /** The executable, relative to the skill folder unless absolute. */
  toolPath: id,
  /** Extra arguments after the executable (an interpreter's script, say). */
  args: z.array(z.string()).default([]),
  input: JsonObject.default({}),
  dependencies: z.array(id).default([]),
  /** A required tool's failure skips its dependents and fails the plan; an optional one's gives them null. */
  required: z.boolean().default(true),
  /** May run beside other async tools when the plan is `parallel`. */
  async: z.boolean().default(false),
  retryPolicy: RetryPolicy.prefault({}),
  timeoutMs: z.number().int().min(1).max(600_000).default(30_000),
  /** The skill this tool belongs to, for `disabledSkills` (default: the plan's own skill). */
  skill: z.string().optional(),
});
export type ToolInvocation = z.infer<typeof ToolInvocation>;
export type ToolInvocationInput = z.input<typeof ToolInvocation>;

export const PlanMetadata = z.object({
  generationAttempt: z.number().int().min(1).default(1),
  parentPlanId: z.string().nullable().default(null),
  generatedAt: z.string().nullable().default(null),
});
export type PlanMetadata = z.infer<typeof PlanMetadata>;

export const PlanJson = z.object({
  requestId: id,
  narrative: z.string().default(''),
  tools: z.array(ToolInvocation).min(1, 'a plan needs at least one tool'),
  parallel: z.boolean().default(false),
  /** Skills the planner must not use (they failed earlier in this run). */
  disabledSkills: z.array(z.string()).default([]),
  metadata: PlanMetadata.prefault({}),
  timeoutMs: z.number().int().min(1).max(600_000).default(60_000),
});
export type PlanJson = z.infer<typeof PlanJson>;
export type PlanJsonInput = z.input<typeof PlanJson>;

export const ToolExecutionState = z.enum(['pending', 'executing', 'completed', 'failed', 'skipped', 'timeout']);
export type ToolExecutionState = z.infer<typeof ToolExecutionState>;

export const ToolResult = z.object({
  toolId: id,
  ok: z.boolean(),
  state: ToolExecutionState,
  executionTimeMs: z.number().min(0),
  retryCount: z.number().int().min(0),
  error: z.string().nullable(),
  /** The tool's merged state patches. */
  output: JsonObject,
  events: z.array(ToolEvent),
});
export type ToolResult = z.infer<typeof ToolResult>;

export const TraceEntry = z.object({
  ts: z.string(),
  type: z.enum([
    'plan_started',
    'tool_started',
    'event_received',
    'tool_completed',
    'tool_failed',
    'tool_skipped',
    'retry',
    'dependency_wait',
    'plan_finished',
  ]),
  toolId: z.string().nullable(),
  data: JsonObject,
});
export type TraceEntry = z.infer<typeof TraceEntry>;

export const ExecutionResult = z.object({
  planId: id,
  success: z.boolean(),
  narrative: z.string(),
  executionTimeMs: z.number().min(0),
  toolResults: z.array(ToolResult),
  failedTools: z.array(z.string()),
  skippedTools: z.array(z.string()),
  generationMetadata: PlanMetadata,
  canReplan: z.boolean(),
  failureReason: z.string().nullable(),
  /** Every completed tool's patches deep-merged in topological order, so parallel runs merge alike. */
  state: JsonObject,
  trace: z.array(TraceEntry),
});
export type ExecutionResult = z.infer<typeof ExecutionResult>;
