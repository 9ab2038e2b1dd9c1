import type { JsonObject, ToolInput, TurnPlanRequest } from '../../protocol/index.js';
import { createAgent, type AgentName } from '../builtin/index.js';
import { runInProcessSync } from '../runtime/in-process.js';
import { readAnswer } from './answer.js';
import { TraceBuilder } from './trace.js';
import type { SeatAgent, SeatContext, SeatDecision } from './types.js';

/**
 * A built-in agent behind the tool protocol, in-process: its answer becomes a state_patch and a
 * done event that go through the same collector as any external agent's output. Cheap when
 * tracing is off (bulk simulation): no schema check here, the engine checks the answer anyway.
 */
export function builtinSeat(name: AgentName, ctx: SeatContext, spec: string = name): SeatAgent {
  const agent = createAgent(name, ctx.gameSeed, ctx.seat);
  const tracing = ctx.trace ?? false;
  let memory: JsonObject = {};
  const produce = (input: ToolInput) => [
    { version: '0', type: 'state_patch', patch: { decision: agent.decide(input.input as TurnPlanRequest) } },
    { version: '0', type: 'done', ok: true },
  ];
  return {
    spec,
    replayable: true,
    decide(request: TurnPlanRequest): Promise<SeatDecision> {
      const input: ToolInput = { requestId: request.request_id, tool: name, operation: request.window, input: request };
      const outcome = runInProcessSync(produce, input, {});
      const decision = outcome.state['decision'];
      if (!tracing) return Promise.resolve({ decision, trace: null, uiEvents: [] });
      const answer = readAnswer(outcome.state, request.window, memory);
      memory = answer.memory;
      const t = new TraceBuilder(request.request_id);
      t.add('act', 'orchestrator', { agent: spec, kind: 'builtin' }, { latency_ms: Math.round(outcome.durationMs) });
      t.add('verify', 'verifier', { valid: answer.validation.length === 0, issues: answer.validation });
      t.add('final', 'orchestrator', { decided: decision !== undefined, memory }, { latency_ms: Math.round(outcome.durationMs), tokens: 0, cost_usd: 0 });
      return Promise.resolve({
        decision,
        uiEvents: [],
        trace: {
          request_id: request.request_id,
          player_id: request.player_id,
          turn: request.turn,
          window: request.window,
          agent: spec,
          ok: outcome.ok,
          failure: outcome.failure,
          fallback: null,
          latency_ms: Math.round(outcome.durationMs),
          retries: 0,
          validation: answer.validation,
          health: 'healthy',
          memory,
          stages: t.stages,
        },
      });
    },
    restoreMemory(m) {
      memory = m;
    },
    close: () => Promise.resolve(),
  };
}
