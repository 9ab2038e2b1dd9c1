/**
 * Three kinds of bad attack that zod takes and whose ids are real — an attacking card with no
 * attack_plan, a plan aimed at another seat than its action, a card that names a third seat
 * naming an illegal one — get the repair turn like any other bad answer (they used to go straight
 * to the engine, which refused them). And a budget that runs out is the decision's failure code,
 * llm/budget, whatever the first reply looked like. Against a real local HTTP server (OpenAI wire).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LLM_SKILL_DIR } from '../../../src/agents/seat/agent-spec.js';
import { llmSeat } from '../../../src/agents/llm/llm-seat.js';
import type { SeatDecision } from '../../../src/agents/seat/types.js';
import { validateAction } from '../../../src/game/validate-action.js';
import type { Budget, TurnPlanRequest } from '../../../src/protocol/index.js';
import { openAiProvider } from '../../../src/providers/openai.js';
import type { Provider } from '../../../src/providers/types.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../providers/fake-llm-server.js';
import { OPENAI, PRICES, SEAT, attackAnswer, tableOfSeven } from './llm-contract-support.js';

const { action } = tableOfSeven();
const ATTACK = attackAnswer(action.request);
const plan = ATTACK['attack_plan'] as Record<string, unknown>;
const chosen = ATTACK['selected_action'] as { kind: string; payload: Record<string, unknown> };
const target = String(chosen.payload['target_player_id']);
const opponents = action.request.public_world_view.players.filter((p) => p.alive && p.player_id !== SEAT).map((p) => p.player_id);
const elsewhere = opponents.find((p) => p !== target)!;

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

function seat(budgets: { decision: Budget; game: Budget } = { decision: { wall_ms: 120_000 }, game: {} }) {
  const providers = new Map<string, Provider>([['openai', openAiProvider({ baseUrl: `${server.url}/v1`, apiKey: 'sk-test', prices: PRICES })]]);
  return llmSeat('llm:openai:gpt-test', { gameSeed: 7, seat: 3, trace: true }, { providers, chain: [{ provider: 'openai', model: 'gpt-test' }], budgets, maxOutputTokens: 600, deadlineMs: 2_000, skillDir: LLM_SKILL_DIR });
}

const verifies = (d: SeatDecision) => (d.trace?.stages ?? []).filter((s) => s.stage === 'verify').map((s) => s.payload);
const repairTurn = () => (OPENAI.conversation(server.requests[1]!.body).at(-1)?.content ?? '');
/** What the engine says of an answer in the state that asked (null: legal). */
const engine = (state: typeof action.state, answer: Record<string, unknown>) => {
  const r = validateAction(state, SEAT, answer as never);
  return r.ok ? null : r.code;
};

/** The same request with the attacking card marked as one that names a third seat (as Whisper is). */
function namingRequest(): TurnPlanRequest {
  const r = structuredClone(action.request);
  for (const l of r.legal_actions) if (l.kind === 'play_card' && l.card_id === chosen.payload['card_id']) l.needs_named_player = true;
  return r;
}

describe('the LLM seat repairs attacks the engine would refuse', () => {
  const naming = { ...ATTACK, selected_action: { ...chosen, payload: { ...chosen.payload, named_player_id: elsewhere } } };
  const cases: { rule: string; bad: Record<string, unknown>; says: RegExp; request?: () => TurnPlanRequest; code?: string; good?: Record<string, unknown> }[] = [
    { rule: 'missing_attack_plan', bad: { selected_action: chosen }, says: /is an attack: selected_action needs an "attack_plan"/, code: 'action/missing_attack_plan' },
    { rule: 'plan_target_mismatch', bad: { ...ATTACK, attack_plan: { ...plan, target_player_id: elsewhere } }, says: new RegExp(`targets \`${elsewhere}\` but the action targets \`${target}\``) },
    { rule: 'illegal_named_player', bad: { ...ATTACK, selected_action: { ...chosen, payload: { ...chosen.payload, named_player_id: target } } }, says: /needs payload.named_player_id: an alive third seat.*not `plr_\d`/, request: namingRequest, good: naming },
  ];

  it.each(cases)('given $rule, then the repair turn says what is wrong and the repaired answer is taken: calls [ok, ok]', async ({ rule, bad, says, request, code, good = ATTACK }) => {
    // The engine itself refuses the first two as they stand (the third is checked on a request that asks for a named seat).
    if (code) expect(engine(action.state, bad)).toBe(code);
    server.reply({ body: OPENAI.answer(bad, 'action') }, { body: OPENAI.answer(good, 'action') });

    const d = await seat().decide(request?.() ?? action.request);

    expect(d.calls?.map((c) => c.status)).toEqual(['ok', 'ok']);
    expect(verifies(d)[0]).toMatchObject({ valid: false, rule });
    expect(repairTurn()).toMatch(says);
    expect(d.decision).toEqual(good);
    expect(d.trace?.ok).toBe(true);
  });

  it('given a model that keeps sending an attack without a plan, then no decision goes to the engine and the failure is llm/missing_attack_plan', async () => {
    server.reply({ body: OPENAI.answer({ selected_action: chosen }, 'action') }, { body: OPENAI.answer({ selected_action: chosen }, 'action') });
    const d = await seat().decide(action.request);
    expect(d.decision).toBeUndefined();
    expect(d.trace?.failure?.code).toBe('llm/missing_attack_plan');
  });
});

describe('a budget that runs out', () => {
  it('given a game cost budget the first (careless) reply uses up, then the repair turn is never sent and the failure is llm/budget naming the budget', async () => {
    // camelCase: a careless answer any version repairs, so only the budget stops the repair turn.
    server.reply({ body: OPENAI.answer({ selectedAction: chosen }, 'action', { input: 1_000, output: 100 }) });
    // 1,000 in at $2 and 100 out at $10 a million: $0.003 against a $0.002 budget.
    const d = await seat({ decision: { wall_ms: 120_000 }, game: { cost_usd: 0.002 } }).decide(action.request);
    expect(server.requests).toHaveLength(1);
    expect(d.decision).toBeUndefined();
    expect(d.trace?.failure).toEqual({ code: 'llm/budget', message: 'the repair turn stopped: game budget exhausted (cost_usd)' });
  });
});
