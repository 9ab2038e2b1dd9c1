import { z } from 'zod';
import { JsonObject } from './tool-events.js';

/**
 * Session and trace envelopes (seed 004). One agent decision is a session: the runtime records
 * what it planned, asked, observed, verified and answered as stage events, with metrics, into
 * `agent_traces.entries`.
 */
export const Stage = z.enum(['plan', 'reason', 'act', 'observe', 'verify', 'replan', 'final', 'mid_event']);
export type Stage = z.infer<typeof Stage>;

/**
 * Who produced a stage: cli, orchestrator, verifier, mock_db — or the provider a call went to, by
 * its configured name (openai, anthropic, ollama, mock…), so a trace never passes a real call off
 * as a mock's.
 */
export const StageSource = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'a source is a lowercase name (cli, orchestrator, verifier, or a provider name)');
export type StageSource = z.infer<typeof StageSource>;

export const Metrics = z.object({
  latency_ms: z.number().int().min(0),
  tokens: z.number().int().min(0),
  cost_usd: z.number().min(0),
});
export type Metrics = z.infer<typeof Metrics>;

/** TTC guardrails: `{tokens, wall_ms}` from the seed, plus a spend cap in dollars. */
export const Budget = z.object({
  tokens: z.number().int().min(0).optional(),
  wall_ms: z.number().int().min(0).optional(),
  cost_usd: z.number().min(0).optional(),
});
export type Budget = z.infer<typeof Budget>;

export const StageEvent = z.object({
  event_id: z.string().min(1),
  /** The decision's request id. */
  session_id: z.string().min(1),
  stage: Stage,
  ts: z.string(),
  payload: JsonObject,
  metrics: Metrics.partial().optional(),
  source: StageSource,
});
export type StageEvent = z.infer<typeof StageEvent>;
