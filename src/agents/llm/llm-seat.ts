import { DECISION_SCHEMAS, formatIssues, type Budget, type JsonObject, type TurnPlanRequest } from '../../protocol/index.js';
import { BudgetMeter } from '../../providers/budget.js';
import { route, modelRefText, type ModelRef } from '../../providers/router.js';
import type { ChatMessage, Provider, ProviderResult } from '../../providers/types.js';
import { readAnswer } from '../seat/answer.js';
import { withMemory } from '../seat/external-seat.js';
import { TraceBuilder } from '../seat/trace.js';
import type { ProviderCallRecord, SeatAgent, SeatContext, SeatDecision } from '../seat/types.js';
import { answerSchema, splitAnswer } from './answer-schema.js';
import { buildMessages, repairMessages } from './prompt.js';

export type LlmSeatOptions = {
  providers: ReadonlyMap<string, Provider>;
  /** The seat's model, then its fallbacks. */
  chain: readonly ModelRef[];
  budgets: { decision: Budget; game: Budget };
  maxOutputTokens: number;
  /** Per call. */
  deadlineMs: number;
  /** The LLM skill folder (its prompt.md). */
  skillDir: string;
  sleep?: (ms: number) => Promise<void>;
};

type Checked = { ok: true; decision: unknown; memory: JsonObject; reasoning: string | null; notes: string[] } | { ok: false; problems: string };

/**
 * The LLM agent: a prompt built from the seat's view only, the window's JSON schema, routing along
 * the model chain within budgets, zod validation of the answer, one repair turn quoting what was
 * wrong, then — if still nothing usable — no answer, so the engine applies the rules' fallback.
 * Every call becomes a provider_calls record; the trace keeps a short reasoning summary, not the
 * raw chain of thought.
 */
export function llmSeat(spec: string, ctx: SeatContext, options: LlmSeatOptions): SeatAgent {
  const game = new BudgetMeter('game', options.budgets.game);
  let memory: JsonObject = {};

  const check = (result: ProviderResult, request: TurnPlanRequest): Checked => {
    if (result.status === 'malformed') return { ok: false, problems: `it is not a JSON object (${result.error ?? 'no JSON found'})` };
    const { decision, memory: mem, reasoning } = splitAnswer(result.json);
    const parsed = DECISION_SCHEMAS[request.window].safeParse(decision);
    if (!parsed.success) return { ok: false, problems: formatIssues(parsed.error.issues) };
    const answer = readAnswer(mem === undefined ? { decision } : { decision, memory: mem }, request.window, memory);
    return { ok: true, decision, memory: answer.memory, reasoning, notes: answer.problems };
  };

  async function decide(request: TurnPlanRequest): Promise<SeatDecision> {
    const trace = new TraceBuilder(request.request_id);
    const started = performance.now();
    const calls: ProviderCallRecord[] = [];
    const decisionMeter = new BudgetMeter('decision', options.budgets.decision);
    const seen = withMemory(request, memory);
    const record = (r: ProviderResult) => {
      calls.push({ provider: r.provider, model: r.model, request_hash: r.requestHash, input_tokens: r.usage.inputTokens, output_tokens: r.usage.outputTokens, cost_usd: r.costUsd, latency_ms: Math.round(r.latencyMs), status: r.status, error: r.error, player_id: request.player_id, turn: request.turn, window: request.window });
      trace.add('act', 'mock_llm', { provider: r.provider, model: r.model, status: r.status, error: r.error }, { latency_ms: Math.round(r.latencyMs), tokens: r.usage.inputTokens + r.usage.outputTokens, cost_usd: r.costUsd });
    };
    const routeOptions = {
      providers: options.providers,
      chain: options.chain,
      budgets: { decision: decisionMeter, game },
      onCall: record,
      onAlert: (a: unknown) => trace.add('mid_event', 'orchestrator', { kind: 'budget_alert', ...(a as object) }),
      ...(options.sleep ? { sleep: options.sleep } : {}),
    };
    const ask = (messages: ChatMessage[], chain: readonly ModelRef[] = options.chain) =>
      route({ messages, answer: answerSchema(request.window), maxOutputTokens: options.maxOutputTokens, deadlineMs: options.deadlineMs, meta: { game_id: request.game_id, player_id: request.player_id, turn: request.turn, window: request.window, seed: `${ctx.gameSeed}:${ctx.seat}` } }, { ...routeOptions, chain });

    trace.add('plan', 'orchestrator', { agent: spec, chain: options.chain.map(modelRefText), memory_keys: Object.keys(memory) });
    const messages = buildMessages(options.skillDir, seen);
    let outcome: Checked | null = null;
    let failure: string | null = null;
    const first = await ask(messages);
    if (first.answered && first.result) {
      outcome = check(first.result, request);
      trace.add('verify', 'verifier', { valid: outcome.ok, issues: outcome.ok ? [] : [outcome.problems], notes: outcome.ok ? outcome.notes : [] });
      if (!outcome.ok) {
        trace.add('replan', 'orchestrator', { repair: true, problems: outcome.problems });
        // The repair goes to the model that gave the answer it quotes (then its fallbacks), not back
        // to models that already refused, failed or timed out on this decision.
        const second = await ask(repairMessages(messages, first.result.text, outcome.problems, seen), options.chain.slice(first.chainIndex ?? 0));
        if (second.answered && second.result) {
          outcome = check(second.result, request);
          trace.add('verify', 'verifier', { valid: outcome.ok, issues: outcome.ok ? [] : [outcome.problems], repaired: true });
          if (!outcome.ok) failure = `still invalid after one repair: ${outcome.problems}`;
        } else failure = second.reason;
      }
    } else failure = first.reason;

    const ok = outcome?.ok === true;
    if (outcome?.ok) memory = outcome.memory;
    const latency = Math.round(performance.now() - started);
    const spent = decisionMeter.used;
    trace.add(
      'final',
      'orchestrator',
      { decided: ok, reasoning: outcome?.ok ? outcome.reasoning : null, failure, fallback: ok ? null : 'engine: reprompt once where the rules allow, then pass', memory },
      { latency_ms: latency, tokens: spent.tokens, cost_usd: Math.round(spent.costUsd * 1e6) / 1e6 },
    );
    return {
      decision: outcome?.ok ? outcome.decision : undefined,
      uiEvents: [],
      calls,
      trace: {
        request_id: request.request_id,
        player_id: request.player_id,
        turn: request.turn,
        window: request.window,
        agent: spec,
        ok,
        failure: ok ? null : { code: 'decision/missing', message: failure ?? 'no usable answer' },
        fallback: ok ? null : 'engine',
        latency_ms: latency,
        retries: Math.max(0, calls.length - 1),
        validation: outcome && !outcome.ok ? [outcome.problems] : [],
        health: ok ? 'healthy' : 'temporaryFailure',
        memory,
        stages: trace.stages,
      },
    };
  }

  return {
    spec,
    replayable: false,
    decide,
    restoreMemory(m) {
      memory = m;
    },
    close: () => Promise.resolve(),
  };
}
