import type { JsonObject, ToolInput, TurnPlanRequest } from '../../protocol/index.js';
import type { Failure } from '../runtime/outcome.js';
import { TraceBuilder } from './trace.js';
import type { DecisionTrace, HumanSeating, Judge, PersonAtHand, SeatAgent, SeatContext, SeatDecision } from './types.js';

/** What ended a wait: an answer, the clock, or the run being stopped. */
type Ended = { by: 'answer'; decision: unknown } | { by: 'timeout' } | { by: 'stop' };

/**
 * A seat answered over HTTP by a person (or any remote program): its request waits on the desk
 * until `POST …/seats/:player_id/decision` brings an answer the engine takes, or the game's
 * `human_timeout_ms` passes — then it gives no answer, and the engine's fallback applies exactly
 * as for an agent that timed out (the trace says `process/timeout`). A stopped run ends the wait
 * with `halt`, so the step is not stored and the request is asked again on resume.
 */
export function humanSeat(spec: string, ctx: SeatContext): SeatAgent {
  const seating = ctx.human;
  if (!seating) throw new Error(`${spec}: a human seat is answered over HTTP, so it needs a server (tiltyard serve, POST /games), or a terminal (tiltyard play)`);
  let memory: JsonObject = {};
  if ('ask' in seating) return personSeat(spec, ctx, seating);
  return {
    spec,
    // A person's answers cannot be had again: a resume trusts the recorded ones.
    replayable: false,
    async decide(request: TurnPlanRequest, judge?: Judge): Promise<SeatDecision> {
      const input: ToolInput = { requestId: request.request_id, tool: 'human', operation: request.window, input: request };
      const started = performance.now();
      const ended = await waitForAnswer(seating, request.player_id, input, judge);
      const latency = Math.round(performance.now() - started);
      if (ended.by === 'stop') return { decision: undefined, trace: null, uiEvents: [], halt: { reason: 'the run was stopped while a person was deciding' } };
      const failure: Failure | null = ended.by === 'timeout' ? { code: 'process/timeout', message: `no answer over HTTP within human_timeout_ms (${seating.timeoutMs} ms)` } : null;
      const decision = ended.by === 'answer' ? ended.decision : undefined;
      return { decision, uiEvents: [], trace: ctx.trace ? traceOf(spec, request, failure, latency, memory) : null };
    },
    restoreMemory(m) {
      memory = m;
    },
    close: () => Promise.resolve(),
  };
}

/** A human seat whose person is at hand (the terminal): asked directly, waited for without a clock. */
function personSeat(spec: string, ctx: SeatContext, person: PersonAtHand): SeatAgent {
  return {
    spec,
    replayable: false,
    async decide(request: TurnPlanRequest, judge?: Judge): Promise<SeatDecision> {
      const started = performance.now();
      const decision = await person.ask(request, judge);
      return { decision, uiEvents: [], trace: ctx.trace ? traceOf(spec, request, null, Math.round(performance.now() - started), {}) : null };
    },
    restoreMemory: () => undefined,
    close: () => Promise.resolve(),
  };
}

/** Waits on the desk for the seat's answer, its time-out or the run's stop, whichever comes first. */
function waitForAnswer(seating: HumanSeating, playerId: string, input: ToolInput, judge: Judge | undefined): Promise<Ended> {
  const { desk, gameId, timeoutMs, signal } = seating;
  if (signal?.aborted) return Promise.resolve({ by: 'stop' });
  return new Promise<Ended>((resolve) => {
    const finish = (e: Ended) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(e);
    };
    // The clock and the stop only end the wait if the desk still holds the request (no answer won the race).
    const timer = setTimeout(() => desk.withdraw(gameId, playerId, input.requestId) && finish({ by: 'timeout' }), timeoutMs);
    const onAbort = () => desk.withdraw(gameId, playerId, input.requestId) && finish({ by: 'stop' });
    signal?.addEventListener('abort', onAbort, { once: true });
    void desk.open(gameId, playerId, input, judge, timeoutMs).then((decision) => finish({ by: 'answer', decision }));
  });
}

/** The decision's agent_traces row: who answered, how long it took, and a time-out as the failure it is. */
function traceOf(spec: string, request: TurnPlanRequest, failure: Failure | null, latency: number, memory: JsonObject): DecisionTrace {
  const t = new TraceBuilder(request.request_id);
  t.add('act', 'orchestrator', { agent: spec, kind: 'human' }, { latency_ms: latency });
  const fallback = failure ? 'engine: reprompt once where the rules allow, then pass' : null;
  t.add('final', 'orchestrator', { decided: failure === null, failure, fallback }, { latency_ms: latency, tokens: 0, cost_usd: 0 });
  return { request_id: request.request_id, player_id: request.player_id, turn: request.turn, window: request.window, agent: spec, ok: failure === null, failure, fallback: failure ? 'engine' : null, latency_ms: latency, retries: 0, validation: [], health: failure ? 'degraded' : 'healthy', memory, stages: t.stages };
}
