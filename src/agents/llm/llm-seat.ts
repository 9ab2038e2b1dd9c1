import type { Budget, JsonObject, TurnPlanRequest } from '../../protocol/index.js';
import { BudgetMeter } from '../../providers/budget.js';
import { route, modelRefText, type ModelRef, type RouteResult, type SpendCap } from '../../providers/router.js';
import type { CallStatus, ChatMessage, Provider, ProviderResult } from '../../providers/types.js';
import { withMemory } from '../seat/external-seat.js';
import { TraceBuilder } from '../seat/trace.js';
import type { FailureCode } from '../runtime/outcome.js';
import type { ProviderCallRecord, SeatAgent, SeatContext, SeatDecision } from '../seat/types.js';
import { checkAnswer, cutOversized, type Checked } from './answer-check.js';
import { answerSchema } from './answer-schema.js';
import { buildMessages, repairMessages } from './prompt.js';
import { refusalRepair } from './refusal.js';

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
  /** Decisions in a row with every call failed before the seat reports its provider down (default 5). */
  outageDecisions?: number;
  /** Output past this many tokens is cut (default: maxOutputTokens, the cap asked of the model). */
  outputCapTokens?: number;
  /** The tournament's cost cap: every call reserves its worst case first (router.ts). */
  spend?: SpendCap;
};

/** Consecutive decisions whose every call failed before a seat's provider is declared down (the game then fails). */
export const DEFAULT_OUTAGE_DECISIONS = 5;

/** Statuses that mean the provider never got to answer (the network, the server, the key or the model). */
const DOWN: ReadonlySet<CallStatus> = new Set(['unavailable', 'timeout', 'error', 'rate_limited']);

/** Whether routing stopped on an exhausted budget (router.ts says `decision|game budget exhausted (…)`). */
const budgetStop = (reason: string | null): reason is string => reason !== null && / budget exhausted \(/.test(reason);

/**
 * The LLM agent: a prompt built from the seat's view only, the window's JSON schema, routing along
 * the model chain within budgets, a strict check of the answer (answer-check.ts: nothing the model
 * wrote is silently dropped or defaulted), one repair turn quoting what was wrong (or, after a
 * refusal, restating the game), then — if still nothing usable — no answer, so the engine applies
 * the rules' fallback; the trace names the rule that fired. Every call becomes a provider_calls
 * record. A seat whose provider failed every call for `outageDecisions` decisions in a row says so
 * with the failure code `provider/down`, on which the runner fails the game.
 */
export function llmSeat(spec: string, ctx: SeatContext, options: LlmSeatOptions): SeatAgent {
  const game = new BudgetMeter('game', options.budgets.game);
  const outageAfter = options.outageDecisions ?? DEFAULT_OUTAGE_DECISIONS;
  const capTokens = options.outputCapTokens ?? options.maxOutputTokens;
  let memory: JsonObject = {};
  let downInARow = 0;

  async function decide(request: TurnPlanRequest): Promise<SeatDecision> {
    const trace = new TraceBuilder(request.request_id);
    const started = performance.now();
    const calls: ProviderCallRecord[] = [];
    const decisionMeter = new BudgetMeter('decision', options.budgets.decision);
    const seen = withMemory(request, memory);
    const record = (r: ProviderResult) => {
      calls.push({ provider: r.provider, model: r.model, request_hash: r.requestHash, input_tokens: r.usage.inputTokens, output_tokens: r.usage.outputTokens, cost_usd: r.costUsd, latency_ms: Math.round(r.latencyMs), queued_ms: Math.round(r.queuedMs ?? 0), status: r.status, error: r.error, player_id: request.player_id, turn: request.turn, window: request.window });
      trace.add('act', r.provider, { provider: r.provider, model: r.model, status: r.status, error: r.error }, { latency_ms: Math.round(r.latencyMs), tokens: r.usage.inputTokens + r.usage.outputTokens, cost_usd: r.costUsd });
    };
    const routeOptions = {
      providers: options.providers,
      chain: options.chain,
      budgets: { decision: decisionMeter, game },
      onCall: record,
      onAlert: (a: unknown) => trace.add('mid_event', 'orchestrator', { kind: 'budget_alert', ...(a as object) }),
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(options.spend ? { spend: options.spend } : {}),
    };
    const ask = (messages: ChatMessage[], chain: readonly ModelRef[] = options.chain) =>
      route({ messages, answer: answerSchema(request.window), maxOutputTokens: options.maxOutputTokens, deadlineMs: options.deadlineMs, meta: { game_id: request.game_id, player_id: request.player_id, turn: request.turn, window: request.window, seed: `${ctx.gameSeed}:${ctx.seat}` } }, { ...routeOptions, chain });
    /** Reads a routed reply: the output cap first (recorded on its call), then the strict check. */
    const read = (routed: RouteResult, repaired: boolean): Checked | null => {
      const r = routed.result;
      // A refusal that used up the chain is still the model's word: it gets its repair turn too.
      if (!r || (!routed.answered && r.status !== 'refused')) return null;
      const cut = cutOversized(r, capTokens);
      if (cut) {
        const call = calls.at(-1);
        if (call) call.error = call.error ? `${call.error}; ${cut.note}` : cut.note;
        trace.add('observe', 'verifier', { rule: 'truncated', note: cut.note, output_tokens: r.usage.outputTokens, cap_tokens: capTokens });
      }
      const checked = checkAnswer(cut?.result ?? r, request, memory);
      trace.add('verify', 'verifier', { valid: checked.ok, rule: checked.ok ? null : checked.rule, issues: checked.ok ? [] : [checked.problems], notes: checked.ok ? checked.notes : [], ...(repaired ? { repaired: true } : {}) });
      return checked;
    };

    trace.add('plan', 'orchestrator', { agent: spec, chain: options.chain.map(modelRefText), memory_keys: Object.keys(memory) });
    const messages = buildMessages(options.skillDir, seen);
    let outcome: Checked | null = null;
    let failure: string | null = null;
    let repairReason: string | null = null;
    // No trace: the step is not stored, and the decision is asked again when the game resumes.
    const halted = (routed: RouteResult): SeatDecision => {
      return { decision: undefined, uiEvents: [], calls, trace: null, halt: { reason: routed.capped ?? 'cost cap' } };
    };
    const first = await ask(messages);
    if (first.capped) return halted(first);
    outcome = read(first, false);
    if (outcome && !outcome.ok && first.result) {
      trace.add('replan', 'orchestrator', { repair: true, rule: outcome.rule, problems: outcome.problems });
      // The repair goes to the model that gave the answer it quotes (then its fallbacks), not back
      // to models that already refused, failed or timed out on this decision.
      const turn = outcome.rule === 'refusal' ? refusalRepair(seen) : null;
      const second = await ask(repairMessages(messages, first.result.text || first.result.error || '', turn ?? outcome.problems, seen, turn !== null), options.chain.slice(first.chainIndex ?? 0));
      if (second.capped) return halted(second);
      repairReason = second.reason;
      const again = read(second, true);
      if (again) {
        outcome = again;
        if (!again.ok) failure = `still unusable after one repair (${again.rule}): ${again.problems}`;
      } else failure = `the repair turn got no answer: ${second.reason ?? 'no call was made'}`;
    } else if (!outcome) failure = first.reason;

    const ok = outcome?.ok === true;
    if (outcome?.ok) memory = outcome.memory;
    // Every call failed (no answer, no refusal): the provider is down for this decision.
    const down = !ok && calls.length > 0 && calls.every((c) => DOWN.has(c.status as CallStatus));
    downInARow = down ? downInARow + 1 : 0;
    // A budget that ran out before the answer (or its repair) could be had is the cause, whatever
    // the first reply looked like: the game is then degraded (src/runner/degraded.ts), not merely unlucky.
    const broke = !ok && !down && (budgetStop(first.reason) || budgetStop(repairReason));
    const rule: string | null = ok ? null : down ? 'provider_down' : broke || calls.length === 0 ? 'budget' : outcome && !outcome.ok ? outcome.rule : 'no_answer';
    const code = ok ? null : down ? (downInARow >= outageAfter ? 'provider/down' : 'provider/unavailable') : `llm/${rule}`;
    const message = broke ? (budgetStop(repairReason) ? `the repair turn stopped: ${repairReason}` : first.reason!) : down && downInARow >= outageAfter ? `${spec}: every call to ${options.chain.map(modelRefText).join(', ')} failed for ${downInARow} decisions in a row (last: ${failure ?? 'no answer'})` : (failure ?? 'no usable answer');
    const latency = Math.round(performance.now() - started);
    const spent = decisionMeter.used;
    trace.add(
      'final',
      'orchestrator',
      { decided: ok, rule, reasoning: outcome?.ok ? outcome.reasoning : null, failure, fallback: ok ? null : 'engine: reprompt once where the rules allow, then pass', memory },
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
        failure: ok || !code ? null : { code: code as FailureCode, message },
        fallback: ok ? null : 'engine',
        latency_ms: latency,
        retries: Math.max(0, calls.length - 1),
        validation: outcome && !outcome.ok ? [outcome.problems] : [],
        health: ok ? 'healthy' : down && downInARow >= outageAfter ? 'permanentFailure' : 'temporaryFailure',
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
