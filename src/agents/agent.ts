import type { TurnPlanRequest } from '../protocol/index.js';

/**
 * A built-in agent: a policy over its seat's TurnPlanRequest (nothing else), with its own PRNG
 * stream. The tool-protocol runtime wraps these behind the same event interface as external agents.
 */
export interface Agent {
  readonly name: string;
  decide(request: TurnPlanRequest): unknown;
}

export type AgentFactory = (seed: string) => Agent;
