import { beforeAll, describe, expect, it } from 'vitest';
import { buildMessages, repairMessages } from '../../src/agents/llm/prompt.js';
import { repromptOf } from '../../src/check/samples.js';
import {
  awaiting,
  decide,
  initialState,
  requestFor,
  stepInPlace,
  type GameState,
} from '../../src/game/index.js';
import {
  AttackPlan,
  DECISION_SCHEMAS,
  WINDOWS,
  type TurnPlanRequest,
} from '../../src/protocol/index.js';
import { mockProvider, type MockOptions } from '../../src/providers/mock.js';
import { MOCK_PERSONALITIES, type MockSleep } from '../../src/providers/mock-options.js';
import { personalityFor } from '../../src/providers/mock-decide.js';
import { requestMessages, REQUEST_FENCE } from '../../src/providers/mock-prompt.js';
import { requestHash } from '../../src/providers/request-hash.js';
import type { Provider, ProviderRequest, ProviderResult } from '../../src/providers/types.js';

const ANSWER = { name: 'tiltyard_answer', schema: {} };

const ask = (request: TurnPlanRequest, over: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model: 'mock-1',
  messages: requestMessages(request),
  answer: ANSWER,
  maxOutputTokens: 4_000,
  deadlineMs: 30_000,
  meta: { seed: 'seed-a' },
  ...over,
});

/** A sleep that records what it was asked to wait and returns at once. */
function fakeSleep(): { delays: number[]; sleep: MockSleep } {
  const delays: number[] = [];
  return { delays, sleep: (ms) => (delays.push(ms), Promise.resolve()) };
}

const mock = (o: MockOptions = {}): Provider => mockProvider({ sleep: fakeSleep().sleep, ...o });

/** The answer without the keys the LLM agent strips. */
function split(json: unknown): {
  decision: Record<string, unknown>;
  reasoning: unknown;
  memory: unknown;
} {
  const { reasoning, memory, ...decision } = json as Record<string, unknown>;
  return { decision, reasoning, memory };
}

/** What the engine made of an answer, on the state that asked: null when accepted. */
function refusal(state: GameState, r: TurnPlanRequest, decision: unknown): string | null {
  const id = r.player_id;
  const res = decide(state, { type: 'decision', player_id: id, window: r.window, decision });
  if (!res.ok) return res.rejection.code;
  for (const e of res.events) {
    if (e.type === 'action_rejected' && e.payload.player_id === id)
      return e.payload.code ?? 'rejected';
    if (e.type === 'secret_plan_committed' && e.payload.player_id === id && e.payload.defaulted)
      return 'defaulted secret plan';
  }
  return null;
}

type Turn = {
  request: TurnPlanRequest;
  result: ProviderResult;
  refused: string | null;
  schemaOk: boolean;
};

/** A whole game with the mock in every seat: each answer is checked on the state that asked, then applied. */
async function mockGame(seed: number, compact: boolean): Promise<Turn[]> {
  const provider = mock();
  const state = initialState({ seats: 4, rules: compact ? { windows: 'compact' } : {} }, seed);
  stepInPlace(state, { type: 'start' });
  const turns: Turn[] = [];
  for (let next = awaiting(state); next; next = awaiting(state)) {
    const seat = next.seats[0]!;
    const request = requestFor(state, seat);
    const result = await provider.call(ask(request, { meta: { seed: `${seed}:${seat}` } }));
    const { decision } = split(result.json);
    turns.push({
      request,
      result,
      refused: refusal(state, request, decision),
      schemaOk: DECISION_SCHEMAS[request.window].safeParse(decision).success,
    });
    const res = stepInPlace(state, {
      type: 'decision',
      player_id: seat,
      window: next.window,
      decision,
    });
    if (!res.ok) throw new Error(`engine refused the step: ${res.rejection.message}`);
  }
  return turns;
}

const FULL_SEEDS = [1, 2, 3, 4];
const COMPACT_SEEDS = [5, 6];
const full: Turn[] = [];
const compact: Turn[] = [];

beforeAll(async () => {
  for (const s of FULL_SEEDS) full.push(...(await mockGame(s, false)));
  for (const s of COMPACT_SEEDS) compact.push(...(await mockGame(s, true)));
});

const actionsOf = (turns: Turn[]) =>
  turns.filter((t) => t.request.window === 'action').map((t) => split(t.result.json).decision);

describe('mock provider: answers the engine accepts', () => {
  it('answers every window of full games: the answer parses with its schema and the engine accepts it', () => {
    expect(new Set(full.map((t) => t.request.window))).toEqual(new Set(WINDOWS));
    for (const t of full) {
      expect(t.result.status).toBe('ok');
      expect({ window: t.request.window, schemaOk: t.schemaOk, refused: t.refused }).toEqual({
        window: t.request.window,
        schemaOk: true,
        refused: null,
      });
    }
  });

  it('answers compact windows (secret plan, talk and up to two actions in one answer)', () => {
    const actions = compact.filter((t) => t.request.window === 'action');
    expect(actions.length).toBeGreaterThan(50);
    for (const t of compact)
      expect({ ok: t.result.status === 'ok', schemaOk: t.schemaOk, refused: t.refused }).toEqual({
        ok: true,
        schemaOk: true,
        refused: null,
      });
    const decisions = actionsOf(compact);
    expect(decisions.some((d) => d['follow_up'])).toBe(true);
    expect(decisions.some((d) => d['secret_plan'])).toBe(true);
  });

  it('answers the reprompt after a rejected action', async () => {
    const i = full.findIndex(
      (t) =>
        t.request.window === 'action' &&
        t.request.legal_actions.some((a) => a.kind === 'play_card'),
    );
    const { state, request } = replayTo(1, i);
    const again = repromptOf({ case: 'action', state, request });
    const r = await mock().call(ask(again.request));
    expect(refusal(again.state, again.request, split(r.json).decision)).toBeNull();
  });

  it('adds a one-sentence reasoning to every answer, and a memory patch after a round', () => {
    for (const t of [...full, ...compact]) {
      const { reasoning } = split(t.result.json);
      expect(typeof reasoning).toBe('string');
      expect((reasoning as string).length).toBeGreaterThan(10);
      expect((reasoning as string).length).toBeLessThanOrEqual(300);
      expect(reasoning).toMatch(/^[A-Z][^\n]*[.]$/);
    }
    const reflect = full.find((t) => t.request.window === 'reflect')!;
    expect(split(reflect.result.json).memory).toEqual({
      mock: { personality: expect.any(String), last_reflect_turn: reflect.request.turn },
    });
    expect(
      (split(reflect.result.json).decision['memory_updates'] as string[]).length,
    ).toBeGreaterThan(0);
  });
});

/** The state and request of the i-th call of game `seed` (full rules), replayed with the mock. */
function replayTo(seed: number, i: number): { state: GameState; request: TurnPlanRequest } {
  const state = initialState({ seats: 4 }, seed);
  stepInPlace(state, { type: 'start' });
  for (let k = 0; k < i; k++) {
    const next = awaiting(state)!;
    const t = full[k]!;
    stepInPlace(state, {
      type: 'decision',
      player_id: next.seats[0]!,
      window: next.window,
      decision: split(t.result.json).decision,
    });
  }
  return { state, request: requestFor(state, awaiting(state)!.seats[0]!) };
}

describe('mock provider: variety', () => {
  it('plays a mix: passes, plain cards and a fair share of attacks, each with an AttackPlan', () => {
    const all = [...actionsOf(full), ...actionsOf(compact)];
    const kind = (d: Record<string, unknown>) => (d['selected_action'] as { kind: string }).kind;
    const passes = all.filter((d) => kind(d) === 'pass').length;
    const attacks = all.filter((d) => d['attack_plan'] !== null);
    expect(all.length).toBeGreaterThan(300);
    expect(passes / all.length).toBeLessThan(0.5);
    expect(passes).toBeGreaterThan(0);
    expect(attacks.length / all.length).toBeGreaterThan(0.25);
    for (const d of attacks) expect(AttackPlan.safeParse(d['attack_plan']).success).toBe(true);
  });

  it('talks in talk windows', () => {
    const talk = full
      .filter((t) => t.request.window === 'talk')
      .map((t) => split(t.result.json).decision['speech_actions'] as unknown[]);
    expect(talk.filter((s) => s.length > 0).length / talk.length).toBeGreaterThan(0.5);
  });

  it('gives seats different personalities, each one for the whole game', () => {
    const seen = new Set(
      Array.from({ length: 40 }, (_, i) => personalityFor(`${i}:plr_1`, 'plr_1')),
    );
    expect(seen).toEqual(new Set(MOCK_PERSONALITIES));
    const mems = full
      .filter((t) => t.request.window === 'reflect')
      .map((t) => [
        t.request.game_id,
        t.request.player_id,
        (split(t.result.json).memory as { mock: { personality: string } }).mock.personality,
      ]);
    const bySeat = new Map<string, Set<string>>();
    for (const [g, p, name] of mems)
      bySeat.set(`${g}/${p}`, (bySeat.get(`${g}/${p}`) ?? new Set()).add(name!));
    for (const names of bySeat.values()) expect(names.size).toBe(1);
  });

  it('answers differently under different seeds', async () => {
    const request = full.find((t) => t.request.window === 'action')!.request;
    const texts = new Set<string>();
    for (let i = 0; i < 20; i++)
      texts.add(
        split((await mock().call(ask(request, { meta: { seed: `s${i}` } }))).json)
          .reasoning as string,
      );
    expect(texts.size).toBeGreaterThan(1);
  });
});

describe('mock provider: determinism and accounting', () => {
  const request = () =>
    full.find((t) => t.request.window === 'action' && split(t.result.json).decision['attack_plan'])!
      .request;

  it('gives the same request the same result, byte for byte, on one provider or two', async () => {
    const p = mock({ latencyMs: [0, 5_000] });
    const a = await p.call(ask(request()));
    const b = await mock({ latencyMs: [0, 5_000] }).call(ask(request()));
    expect(b).toEqual(a);
    const again = await p.call(ask(request()));
    expect(again.text).toBe(a.text);
  });

  it('counts tokens from characters, prices them from the table, and echoes model and provider', async () => {
    const req = ask(request());
    const r = await mock({ prices: { 'mock-1': { inputPerMTok: 2, outputPerMTok: 10 } } }).call(
      req,
    );
    const chars = req.messages.reduce((n, m) => n + m.content.length, 0);
    expect(r.usage).toEqual({
      inputTokens: Math.ceil(chars / 4),
      outputTokens: Math.ceil(r.text.length / 4),
    });
    expect(r.costUsd).toBeCloseTo((r.usage.inputTokens * 2 + r.usage.outputTokens * 10) / 1e6, 12);
    expect(r).toMatchObject({
      provider: 'mock',
      model: 'mock-1',
      error: null,
      retryAfterMs: null,
      requestHash: requestHash(req),
    });
    expect(JSON.parse(r.text)).toEqual(r.json);
    expect((await mock().call(req)).costUsd).toBe(0);
  });

  it('reads the block the LLM agent writes, and the one its repair prompt repeats', async () => {
    const r = request();
    const first = buildMessages('/nonexistent-skill-dir', r);
    const a = await mock().call(ask(r, { messages: first }));
    const repair = repairMessages(first, a.text, 'selected_action: invalid', r);
    const b = await mock().call(ask(r, { messages: repair }));
    expect(a.status).toBe('ok');
    expect(b.json).toEqual(a.json);
    expect(b.requestHash).not.toBe(a.requestHash);
  });

  it('fails with status error when the prompt carries no usable request block', async () => {
    const r = request();
    const none = await mock().call(ask(r, { messages: [{ role: 'user', content: 'Play well.' }] }));
    expect(none).toMatchObject({
      status: 'error',
      error: 'mock: no tiltyard-request block in the prompt',
      json: null,
    });
    const stale = await mock().call(
      ask(r, {
        messages: [
          ...requestMessages(r),
          { role: 'assistant', content: '{}' },
          { role: 'user', content: 'Again, please.' },
        ],
      }),
    );
    expect(stale.error).toBe('mock: no tiltyard-request block in the prompt');
    const notJson = await mock().call(
      ask(r, { messages: [{ role: 'user', content: `${REQUEST_FENCE}\n{oops\n\`\`\`` }] }),
    );
    expect(notJson.error).toMatch(/^mock: the tiltyard-request block is not JSON/);
    const notRequest = await mock().call(
      ask(r, {
        messages: [{ role: 'user', content: `${REQUEST_FENCE}\n{"window":"action"}\n\`\`\`` }],
      }),
    );
    expect(notRequest.error).toMatch(/^mock: the tiltyard-request block is not a TurnPlanRequest/);
  });

  it('cuts an answer longer than maxOutputTokens, as a model would: malformed', async () => {
    const r = await mock().call(ask(request(), { maxOutputTokens: 20 }));
    expect(r).toMatchObject({ status: 'malformed', json: null, usage: { outputTokens: 20 } });
    expect(r.text).toHaveLength(80);
  });
});

describe('mock provider: options', () => {
  it('plays one forced personality when asked', async () => {
    const reflect = full.find((t) => t.request.window === 'reflect')!.request;
    for (const personality of MOCK_PERSONALITIES) {
      const r = await mock({ personality }).call(ask(reflect));
      expect(split(r.json).memory).toMatchObject({ mock: { personality } });
    }
  });
});
