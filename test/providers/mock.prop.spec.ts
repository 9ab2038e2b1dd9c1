import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAgent, type AgentName } from '../../src/agents/builtin/index.js';
import {
  awaiting,
  decide,
  initialState,
  requestFor,
  stepInPlace,
  type GameState,
} from '../../src/game/index.js';
import { DECISION_SCHEMAS, type TurnPlanRequest } from '../../src/protocol/index.js';
import { mockProvider } from '../../src/providers/mock.js';
import {
  MOCK_FAILURES,
  type MockOutcome,
  type MockSleep,
} from '../../src/providers/mock-options.js';
import { requestMessages } from '../../src/providers/mock-prompt.js';
import type { ProviderRequest } from '../../src/providers/types.js';

type Sample = { state: GameState; request: TurnPlanRequest };

const LINEUP: readonly AgentName[] = ['balanced', 'aggressor', 'turtle', 'trickster'];

/** Every `every`-th request of a built-in game, with the state that asked it (full or compact rules). */
function samples(seed: number, compact: boolean, every: number): Sample[] {
  const state = initialState({ seats: 4, rules: compact ? { windows: 'compact' } : {} }, seed);
  const agents = LINEUP.map((name, i) => createAgent(name, seed, i));
  stepInPlace(state, { type: 'start' });
  const out: Sample[] = [];
  let n = 0;
  for (let next = awaiting(state); next; next = awaiting(state)) {
    const seat = next.seats[0]!;
    const request = requestFor(state, seat);
    if (n++ % every === 0 || next.window === 'reaction')
      out.push({ state: structuredClone(state), request });
    stepInPlace(state, {
      type: 'decision',
      player_id: seat,
      window: next.window,
      decision: agents[Number(seat.slice(4)) - 1]!.decide(request),
    });
  }
  return out;
}

const SAMPLES: readonly Sample[] = [...samples(11, false, 5), ...samples(12, true, 3)];

const ask = (
  request: TurnPlanRequest,
  seed: string,
  over: Partial<ProviderRequest> = {},
): ProviderRequest => ({
  model: 'mock',
  messages: requestMessages(request),
  answer: { name: 'tiltyard_answer', schema: {} },
  maxOutputTokens: 4_000,
  deadlineMs: 10_000,
  meta: { seed },
  ...over,
});

const noSleep: MockSleep = () => Promise.resolve();
const sample = fc.nat({ max: SAMPLES.length - 1 }).map((i) => SAMPLES[i]!);
const seed = fc.string({ maxLength: 12 });

describe('mock provider: properties', () => {
  it('draws from requests of every window, full and compact', () => {
    const kinds = new Set(
      SAMPLES.map((s) => `${s.request.window}${s.request.constraints.compact ? ' (compact)' : ''}`),
    );
    expect([...kinds].sort()).toEqual([
      'action',
      'action (compact)',
      'intent',
      'reaction',
      'reflect',
      'reflect (compact)',
      'talk',
    ]);
    expect(SAMPLES.length).toBeGreaterThan(100);
  });

  it('is deterministic: a fresh provider gives the same result for the same seed and request', async () => {
    await fc.assert(
      fc.asyncProperty(
        sample,
        seed,
        fc.tuple(fc.nat({ max: 10_000 }), fc.nat({ max: 10_000 })),
        async (s, sd, [x, y]) => {
          const options = {
            latencyMs: [Math.min(x, y), Math.max(x, y)] as const,
            failures: { malformed: 0.1, rate_limited: 0.1 },
            sleep: noSleep,
          };
          const a = await mockProvider(options).call(ask(s.request, sd));
          const b = await mockProvider(options).call(ask(s.request, sd));
          expect(b).toEqual(a);
          expect(b.text).toBe(a.text);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers every sampled request legally, whatever the seed: schema first, then the engine', async () => {
    await fc.assert(
      fc.asyncProperty(sample, seed, async (s, sd) => {
        const r = await mockProvider({ sleep: noSleep }).call(ask(s.request, sd));
        expect(r.status).toBe('ok');
        const { reasoning, memory: _memory, ...decision } = r.json as Record<string, unknown>;
        expect(typeof reasoning).toBe('string');
        expect(DECISION_SCHEMAS[s.request.window].safeParse(decision).success).toBe(true);
        const id = s.request.player_id;
        const res = decide(s.state, {
          type: 'decision',
          player_id: id,
          window: s.request.window,
          decision,
        });
        expect(res.ok).toBe(true);
        if (!res.ok) return;
        for (const e of res.events) {
          if (e.type === 'action_rejected') expect(e.payload.player_id).not.toBe(id);
          if (e.type === 'secret_plan_committed' && e.payload.player_id === id)
            expect(e.payload.defaulted).toBeFalsy();
        }
      }),
      { numRuns: 200 },
    );
  });

  it('reports the latency it slept, within the configured range, and times out past the deadline', async () => {
    await fc.assert(
      fc.asyncProperty(
        sample,
        seed,
        fc.nat({ max: 10_000 }),
        fc.nat({ max: 10_000 }),
        fc.integer({ min: 1, max: 12_000 }),
        async (s, sd, x, y, deadlineMs) => {
          const delays: number[] = [];
          const [lo, hi] = [Math.min(x, y), Math.max(x, y)];
          const r = await mockProvider({
            latencyMs: [lo, hi],
            sleep: (ms) => (delays.push(ms), Promise.resolve()),
          }).call(ask(s.request, sd, { deadlineMs }));
          expect(delays).toEqual([r.latencyMs]);
          if (r.status === 'timeout') {
            expect(r.latencyMs).toBe(deadlineMs);
            expect(deadlineMs).toBeLessThan(hi);
          } else {
            expect(r.status).toBe('ok');
            expect(r.latencyMs).toBeGreaterThanOrEqual(lo);
            expect(r.latencyMs).toBeLessThanOrEqual(Math.min(hi, deadlineMs));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('follows a script call by call, and answers ok past its end', async () => {
    const STATUS: Record<MockOutcome, string> = {
      ok: 'ok',
      invalid: 'ok',
      timeout: 'timeout',
      error: 'error',
      malformed: 'malformed',
      refused: 'refused',
      rate_limited: 'rate_limited',
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<MockOutcome>('ok', ...MOCK_FAILURES), { maxLength: 12 }),
        sample,
        async (script, s) => {
          const p = mockProvider({ failures: { script }, sleep: noSleep });
          const got: string[] = [];
          for (let i = 0; i < script.length + 2; i++) {
            const r = await p.call(ask(s.request, 'x'));
            got.push(r.status);
            const valid =
              r.status === 'ok' && DECISION_SCHEMAS[s.request.window].safeParse(r.json).success;
            if (r.status === 'ok') expect(valid).toBe(script[i] !== 'invalid');
          }
          expect(got).toEqual([...script.map((k) => STATUS[k]), 'ok', 'ok']);
        },
      ),
      { numRuns: 60 },
    );
  });
});
