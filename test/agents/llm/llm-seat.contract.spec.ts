/**
 * The LLM seat against a real local HTTP server speaking each wire format (OpenAI chat completions,
 * Anthropic Messages): every documented outcome of docs/providers.md's routing table ends where it
 * should, with the right provider_calls records, and no request ever carries what the seat may not see.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LLM_SKILL_DIR } from '../../../src/agents/seat/agent-spec.js';
import { systemPrompt } from '../../../src/agents/llm/prompt.js';
import { llmSeat } from '../../../src/agents/llm/llm-seat.js';
import { answerSchema } from '../../../src/agents/llm/answer-schema.js';
import type { SeatAgent, SeatDecision } from '../../../src/agents/seat/types.js';
import { decide } from '../../../src/game/index.js';
import type { Budget, StageEvent } from '../../../src/protocol/index.js';
import { anthropicProvider } from '../../../src/providers/anthropic.js';
import { openAiProvider } from '../../../src/providers/openai.js';
import { canonicalJson, requestHash } from '../../../src/providers/request-hash.js';
import type { Provider } from '../../../src/providers/types.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../providers/fake-llm-server.js';
import {
  ANTHROPIC,
  OPENAI,
  PRICES,
  SEAT,
  SEAT_INDEX,
  SEED,
  TALK_ANSWER,
  attackAnswer,
  haystack,
  hiddenFrom,
  objectsIn,
  requestInPrompt,
  tableOfSeven,
  type Wire,
} from './llm-contract-support.js';

/** The deadline of the test that hangs on purpose; the others get ROOMY_DEADLINE_MS. */
const DEADLINE_MS = 500;
/** A deadline a loaded machine's local round trip never meets (500 ms did not, at load 25). */
const ROOMY_DEADLINE_MS = 30_000;
const MAX_OUTPUT_TOKENS = 600;
const BUDGETS: { decision: Budget; game: Budget } = { decision: { wall_ms: 60_000 }, game: {} };

const { talk, action } = tableOfSeven();
const ATTACK = attackAnswer(action.request);

let server: FakeLlmServer;
let sleeps: number[];
beforeEach(async () => {
  server = await startFakeLlmServer();
  sleeps = [];
});
afterEach(() => server.close());

/** The seat at SEAT with both providers on the fake server; `chain` is its model, then its fallbacks. */
function seatWith(
  chain: readonly { provider: string; model: string }[],
  budgets = BUDGETS,
  deadlineMs = ROOMY_DEADLINE_MS,
): SeatAgent {
  const providers = new Map<string, Provider>([
    [
      'openai',
      openAiProvider({
        baseUrl: `${server.url}/v1`,
        apiKey: 'sk-test',
        name: 'openai',
        prices: PRICES,
      }),
    ],
    ['anthropic', anthropicProvider({ baseUrl: server.url, apiKey: 'ak-test', prices: PRICES })],
  ]);
  return llmSeat(
    `llm:${chain[0]!.provider}:${chain[0]!.model}`,
    { gameSeed: SEED, seat: SEAT_INDEX, trace: true },
    {
      providers,
      chain: chain.map((w) => ({ provider: w.provider, model: w.model })),
      budgets,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      deadlineMs,
      skillDir: LLM_SKILL_DIR,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    },
  );
}

const statuses = (d: SeatDecision) => d.calls?.map((c) => `${c.provider}:${c.status}`);
const stagesOf = (d: SeatDecision, stage: StageEvent['stage']) =>
  (d.trace?.stages ?? []).filter((s) => s.stage === stage);
const finalOf = (d: SeatDecision) => stagesOf(d, 'final')[0]?.payload;
const conversationOf = (wire: Wire, i: number) => wire.conversation(server.requests[i]!.body);

/** The request hash the seat must record for what the server received (model, messages, schema, cap). */
function hashOfSent(wire: Wire, i: number, window: 'talk' | 'action'): string {
  return requestHash({
    model: wire.model,
    messages: conversationOf(wire, i),
    answer: answerSchema(window),
    maxOutputTokens: MAX_OUTPUT_TOKENS,
    deadlineMs: 0,
  });
}

describe.each([
  { wire: OPENAI, fallback: ANTHROPIC },
  { wire: ANTHROPIC, fallback: OPENAI },
])('the LLM seat with $wire.label first, $fallback.label as fallback', ({ wire, fallback }) => {
  const cost = (model: string, input: number, output: number) =>
    (input * PRICES[model]!.inputPerMTok + output * PRICES[model]!.outputPerMTok) / 1e6;

  it('given a model that answers with JSON, reasoning and memory, then the decision is the answer without the extras, the memory is patched into the next prompt, the final stage keeps the reasoning, and calls = [ok] priced', async () => {
    const seat = seatWith([wire, fallback]);
    server.reply(
      {
        body: wire.answer(
          {
            ...TALK_ANSWER,
            reasoning: 'Needle Seat 2 in public.',
            memory: { suspect: 'plr_2', mood: 'calm' },
          },
          'talk',
          { input: 1_200, output: 80 },
        ),
      },
      {
        body: wire.answer(
          {
            ...ATTACK,
            reasoning: 'Seat 2 looks exposed; bait it now.',
            memory: { mood: null, last_target: 'plr_2' },
          },
          'action',
          { input: 1_500, output: 120 },
        ),
      },
      { body: wire.answer(TALK_ANSWER, 'talk') },
    );

    const first = await seat.decide(talk.request);
    const second = await seat.decide(action.request);
    const third = await seat.decide(talk.request);

    expect(first.decision).toEqual(TALK_ANSWER);
    expect(second.decision).toEqual(ATTACK);
    expect(server.requests.map((r) => r.path)).toEqual([wire.path, wire.path, wire.path]);
    // Memory travels in the fenced request block; `null` deletes a key.
    const memories = [0, 1, 2].map(
      (i) => requestInPrompt(conversationOf(wire, i)).player_private_view.memory_state.agent,
    );
    expect(memories).toEqual([
      {},
      { suspect: 'plr_2', mood: 'calm' },
      { suspect: 'plr_2', last_target: 'plr_2' },
    ]);
    expect(requestInPrompt(conversationOf(wire, 1)).request_id).toBe(action.request.request_id);
    expect(second.trace?.memory).toEqual({ suspect: 'plr_2', last_target: 'plr_2' });
    expect(third.decision).toEqual(TALK_ANSWER);

    expect(second.trace?.stages.at(-1)).toMatchObject({
      stage: 'final',
      payload: {
        decided: true,
        reasoning: 'Seat 2 looks exposed; bait it now.',
        failure: null,
        fallback: null,
      },
    });
    expect(second.trace).toMatchObject({
      ok: true,
      failure: null,
      fallback: null,
      retries: 0,
      validation: [],
      agent: `llm:${wire.provider}:${wire.model}`,
    });
    expect(second.calls).toEqual([
      {
        provider: wire.provider,
        model: wire.model,
        request_hash: hashOfSent(wire, 1, 'action'),
        input_tokens: 1_500,
        output_tokens: 120,
        cost_usd: expect.closeTo(cost(wire.model, 1_500, 120), 12),
        latency_ms: expect.any(Number),
        // Nothing held it back (no cap, no retry): measured, so only its kind is fixed here.
        queued_ms: expect.any(Number),
        status: 'ok',
        error: null,
        player_id: SEAT,
        turn: 1,
        window: 'action',
      },
    ]);
    expect(second.calls![0]!.cost_usd).toBeGreaterThan(0);
    expect(second.calls![0]!.request_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(second.calls![0]!.request_hash).not.toBe(first.calls![0]!.request_hash);
    expect(Number.isInteger(second.calls![0]!.latency_ms)).toBe(true);
    expect(sleeps).toEqual([]);
  });

  it('given the decision of a successful action call, when applied to the engine on the state that asked, then it is accepted: the card is submitted, nothing is rejected', async () => {
    server.reply({ body: wire.answer({ ...ATTACK, reasoning: 'Bait it.' }, 'action') });
    const { decision } = await seatWith([wire]).decide(action.request);

    const res = decide(action.state, {
      type: 'decision',
      player_id: SEAT,
      window: 'action',
      decision,
    });

    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.events.filter((e) => e.type === 'action_rejected')).toEqual([]);
    const submitted = res.events.find((e) => e.type === 'action_submitted');
    const chosen = ATTACK['selected_action'] as {
      payload: { card_id: string; target_player_id: string };
    };
    expect(submitted?.payload).toMatchObject({
      player_id: SEAT,
      kind: 'play_card',
      forced: false,
      target_player_id: chosen.payload.target_player_id,
      action: { payload: { card_id: chosen.payload.card_id } },
      attack_plan: ATTACK['attack_plan'],
    });
  });

  it('given 429 with retry-after: 2, then the seat waits 2000 ms (recorded, not slept) and retries the same model: calls [rate_limited, ok]', async () => {
    server.reply(
      { status: 429, headers: { 'retry-after': '2' }, body: wire.error('Rate limit reached') },
      { body: wire.answer(ATTACK, 'action') },
    );

    const d = await seatWith([wire, fallback]).decide(action.request);

    expect(sleeps).toEqual([2_000]);
    expect(d.decision).toEqual(ATTACK);
    expect(statuses(d)).toEqual([`${wire.provider}:rate_limited`, `${wire.provider}:ok`]);
    expect(d.calls?.[0]).toMatchObject({
      model: wire.model,
      error: 'HTTP 429: Rate limit reached',
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
    });
    expect(server.requests.map((r) => r.path)).toEqual([wire.path, wire.path]);
    expect(d.trace?.retries).toBe(1);
  });

  it('given 500 every time on the first model, then it backs off twice (250, 500 ms) and the fallback model answers: calls [unavailable ×3, ok]', async () => {
    const down = { status: 500, body: wire.error('The server had an error') };
    server.reply(down, down, down, { body: fallback.answer(ATTACK, 'action') });

    const d = await seatWith([wire, fallback]).decide(action.request);

    expect(sleeps).toEqual([250, 500]);
    expect(d.decision).toEqual(ATTACK);
    expect(statuses(d)).toEqual([
      `${wire.provider}:unavailable`,
      `${wire.provider}:unavailable`,
      `${wire.provider}:unavailable`,
      `${fallback.provider}:ok`,
    ]);
    expect(d.calls?.map((c) => c.model)).toEqual([
      wire.model,
      wire.model,
      wire.model,
      fallback.model,
    ]);
    expect(server.requests.map((r) => r.path)).toEqual([
      wire.path,
      wire.path,
      wire.path,
      fallback.path,
    ]);
    expect(fallback.conversation(server.requests[3]!.body)).toEqual(conversationOf(wire, 0));
    expect(finalOf(d)).toMatchObject({ decided: true });
  });

  it('given a reply that hangs past the deadline, then the call is retried once and the fallback answers: calls [timeout, timeout, ok], each cut at the deadline', async () => {
    server.reply(
      { hang: 'headers' },
      { hang: 'body', body: wire.answer(ATTACK, 'action') },
      { body: fallback.answer(ATTACK, 'action') },
    );

    const started = performance.now();
    const d = await seatWith([wire, fallback], BUDGETS, DEADLINE_MS).decide(action.request);
    const elapsed = performance.now() - started;

    expect(d.decision).toEqual(ATTACK);
    expect(statuses(d)).toEqual([
      `${wire.provider}:timeout`,
      `${wire.provider}:timeout`,
      `${fallback.provider}:ok`,
    ]);
    for (const c of d.calls!.slice(0, 2)) {
      expect(c.error).toContain(`timeout after ${DEADLINE_MS} ms`);
      // Waited the deadline out (a timer never fires early); how much longer a loaded machine takes
      // is not asserted: a hang the deadline failed to cut would never reach these lines.
      expect(c.latency_ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    }
    expect(elapsed).toBeGreaterThanOrEqual(2 * DEADLINE_MS - 50);
    expect(sleeps).toEqual([]);
  });

  it('given malformed text, then one repair turn carries the text back as an assistant turn and quotes the problem: calls [malformed, ok]', async () => {
    const prose = "I'd lean on Seat 2 here, probably with Needle, but let me think —";
    server.reply({ body: wire.text(prose) }, { body: wire.answer(ATTACK, 'action') });

    const d = await seatWith([wire, fallback]).decide(action.request);

    expect(d.decision).toEqual(ATTACK);
    expect(statuses(d)).toEqual([`${wire.provider}:malformed`, `${wire.provider}:ok`]);
    const before = conversationOf(wire, 0);
    const repair = conversationOf(wire, 1);
    expect(repair.slice(0, before.length)).toEqual(before);
    expect(repair).toHaveLength(before.length + 2);
    expect(repair[before.length]).toEqual({ role: 'assistant', content: prose });
    expect(repair[before.length + 1]).toMatchObject({
      role: 'user',
      content: expect.stringContaining('That answer cannot be used: it is not a JSON object'),
    });
    expect(requestInPrompt(repair).request_id).toBe(action.request.request_id);
    expect(stagesOf(d, 'replan')).toHaveLength(1);
    expect(stagesOf(d, 'verify').map((s) => s.payload['valid'])).toEqual([false, true]);
  });

  it('given JSON that breaks the schema (selected_action.kind "dance"), then the repair quotes the zod issue path and the fixed answer is taken: calls [ok, ok]', async () => {
    const dance = { selected_action: { kind: 'dance', payload: {} }, reasoning: 'Dance!' };
    server.reply({ body: wire.answer(dance, 'action') }, { body: wire.answer(ATTACK, 'action') });

    const d = await seatWith([wire, fallback]).decide(action.request);

    expect(d.decision).toEqual(ATTACK);
    expect(statuses(d)).toEqual([`${wire.provider}:ok`, `${wire.provider}:ok`]);
    const repair = conversationOf(wire, 1);
    expect(JSON.parse(repair.at(-2)!.content)).toEqual(dance);
    expect(repair.at(-2)!.role).toBe('assistant');
    expect(repair.at(-1)!.content).toMatch(/^That answer cannot be used: selected_action\.kind: /);
    expect(d.trace).toMatchObject({ ok: true, validation: [] });
  });

  it('given a model that stays invalid after the repair, then there is no decision (the engine falls back), the trace says so, and calls are [ok, ok] at the wire level', async () => {
    const dance = { selected_action: { kind: 'dance', payload: {} } };
    server.reply({ body: wire.answer(dance, 'action') }, { body: wire.answer(dance, 'action') });

    const d = await seatWith([wire, fallback]).decide(action.request);

    expect(d.decision).toBeUndefined();
    expect(statuses(d)).toEqual([`${wire.provider}:ok`, `${wire.provider}:ok`]);
    expect(d.trace).toMatchObject({
      ok: false,
      fallback: 'engine',
      health: 'temporaryFailure',
      failure: {
        code: 'llm/schema',
        message: expect.stringMatching(/^still unusable after one repair \(schema\): selected_action\.kind: /),
      },
    });
    expect(d.trace?.validation).toEqual([expect.stringContaining('selected_action.kind')]);
    expect(finalOf(d)).toMatchObject({
      decided: false,
      reasoning: null,
      fallback: expect.stringContaining('engine'),
    });
    expect(server.requests).toHaveLength(2);
  });

  it('given a refusal, then the fallback model answers: calls [refused, ok]', async () => {
    server.reply({ body: wire.refusal() }, { body: fallback.answer(ATTACK, 'action') });

    const d = await seatWith([wire, fallback]).decide(action.request);

    expect(d.decision).toEqual(ATTACK);
    expect(statuses(d)).toEqual([`${wire.provider}:refused`, `${fallback.provider}:ok`]);
    expect(server.requests.map((r) => r.path)).toEqual([wire.path, fallback.path]);
    expect(sleeps).toEqual([]);
  });

  it('given the first model refuses and the fallback answers malformed text, then the repair turn goes to the fallback that answered, not back to the refusing model: calls [refused, malformed, ok]', async () => {
    const prose = 'Seat 2, probably. Or Seat 1.';
    server.reply(
      { body: wire.refusal() },
      { body: fallback.text(prose) },
      { body: fallback.answer(ATTACK, 'action') },
    );

    const d = await seatWith([wire, fallback]).decide(action.request);

    expect(d.decision).toEqual(ATTACK);
    expect(statuses(d)).toEqual([
      `${wire.provider}:refused`,
      `${fallback.provider}:malformed`,
      `${fallback.provider}:ok`,
    ]);
    expect(server.requests.map((r) => r.path)).toEqual([wire.path, fallback.path, fallback.path]);
    expect(fallback.conversation(server.requests[2]!.body).at(-2)).toEqual({
      role: 'assistant',
      content: prose,
    });
  });

  it('given a refusal and a one-model chain, then one repair turn restates the game; refused again, there is no decision and the trace names the refusal once (no doubled prefix)', async () => {
    server.reply({ body: wire.refusal() }, { body: wire.refusal() });

    const d = await seatWith([wire]).decide(action.request);

    expect(d.decision).toBeUndefined();
    expect(statuses(d)).toEqual([`${wire.provider}:refused`, `${wire.provider}:refused`]);
    expect(d.trace?.failure).toMatchObject({ code: 'llm/refusal', message: expect.stringMatching(/^still unusable after one repair \(refusal\): the model declined/) });
    expect(JSON.stringify(d.trace)).not.toContain('refused: refused');
    expect(conversationOf(wire, 1).at(-1)?.content).toContain('fictional card game');
    expect(server.requests).toHaveLength(2);
  });

  it('given a refusal and a fallback whose provider is not configured, then there is no decision and the reason is still the refusal', async () => {
    server.reply({ body: wire.refusal() }, { body: wire.refusal() });
    const d = await seatWith([wire, { provider: 'nowhere', model: fallback.model }]).decide(
      action.request,
    );

    expect(d.decision).toBeUndefined();
    expect(statuses(d)).toEqual([`${wire.provider}:refused`, `${wire.provider}:refused`]);
    expect(d.trace?.failure?.code).toBe('llm/refusal');
  });

  it('given a game cost budget the first call exhausts, then that decision stands, and the next decision makes no call and gives no answer', async () => {
    const seat = seatWith([wire, fallback], { decision: {}, game: { cost_usd: 0.000_1 } });
    server.reply({ body: wire.answer(ATTACK, 'action') }, { body: wire.answer(ATTACK, 'action') });

    const first = await seat.decide(action.request);
    const second = await seat.decide(action.request);

    expect(first.decision).toEqual(ATTACK);
    expect(first.calls![0]!.cost_usd).toBeGreaterThan(0.000_1);
    expect(stagesOf(first, 'mid_event').map((s) => s.payload)).toEqual([
      {
        kind: 'budget_alert',
        scope: 'game',
        dimension: 'cost_usd',
        level: 'exhausted',
        used: expect.any(Number),
        limit: 0.000_1,
      },
    ]);
    expect(second.decision).toBeUndefined();
    expect(second.calls).toEqual([]);
    expect(stagesOf(second, 'act')).toEqual([]);
    expect(second.trace?.failure?.message).toBe('game budget exhausted (cost_usd)');
    expect(server.requests).toHaveLength(1);
  });

  it('given a decision token budget, then a "near" and then an "exhausted" alert are recorded as mid_event budget_alert stages', async () => {
    // 100 + 20 tokens a call: the first (malformed) reaches 80 % of 150, the repair passes 150.
    server.reply(
      { body: wire.text('Hmm, Seat 2 perhaps.') },
      { body: wire.answer(ATTACK, 'action', { input: 100, output: 20 }) },
    );

    const d = await seatWith([wire, fallback], { decision: { tokens: 150 }, game: {} }).decide(
      action.request,
    );

    expect(d.decision).toEqual(ATTACK);
    expect(stagesOf(d, 'mid_event').map((s) => [s.source, s.payload])).toEqual([
      [
        'orchestrator',
        {
          kind: 'budget_alert',
          scope: 'decision',
          dimension: 'tokens',
          level: 'near',
          used: 120,
          limit: 150,
        },
      ],
      [
        'orchestrator',
        {
          kind: 'budget_alert',
          scope: 'decision',
          dimension: 'tokens',
          level: 'exhausted',
          used: 240,
          limit: 150,
        },
      ],
    ]);
    // Each alert sits right after the call that raised it.
    expect(d.trace?.stages.map((s) => s.stage)).toEqual([
      'plan',
      'act',
      'mid_event',
      'verify',
      'replan',
      'act',
      'mid_event',
      'verify',
      'final',
    ]);
  });

  it('given a decision token budget the first call exhausts, then the repair call is not made and there is no decision', async () => {
    server.reply(
      { body: wire.text('Hmm, Seat 2 perhaps.') },
      { body: wire.answer(ATTACK, 'action') },
    );

    const d = await seatWith([wire, fallback], { decision: { tokens: 100 }, game: {} }).decide(
      action.request,
    );

    expect(d.decision).toBeUndefined();
    expect(statuses(d)).toEqual([`${wire.provider}:malformed`]);
    // A budget that stops the repair is the decision's failure (llm/budget), not the first reply's.
    expect(d.trace?.failure).toEqual({ code: 'llm/budget', message: 'the repair turn stopped: decision budget exhausted (tokens)' });
    expect(server.requests).toHaveLength(1);
  });

  it('given talk and action decisions (with a repair turn), then each request names the model and the window schema, and none carries another seat’s hidden hand, plan or private message', async () => {
    server.reply(
      { body: wire.answer(TALK_ANSWER, 'talk') },
      { body: wire.text('Let me think about it.') },
      { body: wire.answer(ATTACK, 'action') },
    );
    const seat = seatWith([wire]);
    await seat.decide(talk.request);
    await seat.decide(action.request);

    expect(server.requests).toHaveLength(3);
    const prompt = systemPrompt(LLM_SKILL_DIR);
    expect(prompt.length).toBeGreaterThan(100);
    for (const [i, window] of [
      [0, 'talk'],
      [1, 'action'],
      [2, 'action'],
    ] as const) {
      const sent = server.requests[i]!;
      const body = sent.body as Record<string, unknown>;
      expect(sent.path).toBe(wire.path);
      expect(body['model']).toBe(wire.model);
      expect(body['max_tokens']).toBe(MAX_OUTPUT_TOKENS);
      expect(conversationOf(wire, i)[0]).toEqual({ role: 'system', content: prompt });
      const { name, schema } = wire.schema(body);
      expect(name).toBe(`tiltyard_${window}`);
      expect(schema).toEqual(answerSchema(window).schema);
      expect(Object.keys(schema['properties'] as object)).toEqual(
        expect.arrayContaining(
          window === 'action'
            ? ['selected_action', 'attack_plan', 'memory', 'reasoning']
            : ['speech_actions', 'memory', 'reasoning'],
        ),
      );
      if (wire.provider === 'openai') {
        expect(sent.headers.authorization).toBe('Bearer sk-test');
        expect(body['response_format']).toMatchObject({
          type: 'json_schema',
          json_schema: { name: `tiltyard_${window}`, strict: false },
        });
      } else {
        expect(sent.headers['x-api-key']).toBe('ak-test');
        expect(body['tool_choice']).toEqual({ type: 'tool', name: `tiltyard_${window}` });
        expect(body['messages']).toEqual(
          expect.not.arrayContaining([expect.objectContaining({ role: 'system' })]),
        );
      }
    }

    for (const [asked, sent] of [
      [talk, server.requests.slice(0, 1)],
      [action, server.requests.slice(1)],
    ] as const) {
      const hidden = hiddenFrom(asked.state, SEAT);
      // The search must have something to find, and finds what the seat may see (its own hand).
      expect(hidden.cardIds.length).toBeGreaterThan(10);
      expect(hidden.plans.length).toBe(3);
      expect(hidden.privateTexts.length).toBeGreaterThan(0);
      const own = asked.state.players[SEAT_INDEX]!;
      expect(hidden.plans).not.toContainEqual(own.secret_plan);
      const texts = haystack(sent);
      const found = (needle: string) => texts.some((t) => t.includes(needle));
      expect(own.hand.every(found)).toBe(true);
      expect(found(JSON.stringify(own.secret_plan))).toBe(true);

      expect(hidden.cardIds.filter(found)).toEqual([]);
      expect(hidden.plans.map((p) => JSON.stringify(p)).filter(found)).toEqual([]);
      expect(hidden.privateTexts.filter(found)).toEqual([]);
      const blocks = sent.map((r) => requestInPrompt(wire.conversation(r.body)));
      const planKeys = new Set(hidden.plans.map(canonicalJson));
      expect(objectsIn(blocks).filter((o) => planKeys.has(canonicalJson(o)))).toEqual([]);
    }
  });
});
