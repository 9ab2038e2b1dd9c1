import { describe, expect, it } from 'vitest';
import { collectSamples } from '../../src/check/samples.js';
import {
  DECISION_SCHEMAS,
  WINDOWS,
  type TurnPlanRequest,
  type Window,
} from '../../src/protocol/index.js';
import { mockProvider, type MockOptions } from '../../src/providers/mock.js';
import { MOCK_FAILURES, type MockSleep } from '../../src/providers/mock-options.js';
import { requestMessages } from '../../src/providers/mock-prompt.js';
import type { Provider, ProviderRequest, ProviderResult } from '../../src/providers/types.js';

/** One real request per window (and a compact one), from built-in games of seed 1. */
const SAMPLES = collectSamples(1);
const request = (): TurnPlanRequest => SAMPLES.find((s) => s.case === 'action')!.request;

const ask = (r: TurnPlanRequest, over: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model: 'mock-1',
  messages: requestMessages(r),
  answer: { name: 'tiltyard_answer', schema: {} },
  maxOutputTokens: 4_000,
  deadlineMs: 30_000,
  meta: { seed: 'seed-a' },
  ...over,
});

/** Another seed makes another call of the same request: distinct draws without distinct games. */
const seeded = (i: number): Partial<ProviderRequest> => ({ meta: { seed: `seed-${i}` } });

/** A sleep that records what it was asked to wait and returns at once. */
function fakeSleep(): { delays: number[]; sleep: MockSleep } {
  const delays: number[] = [];
  return { delays, sleep: (ms) => (delays.push(ms), Promise.resolve()) };
}

const mock = (o: MockOptions = {}): Provider => mockProvider({ sleep: fakeSleep().sleep, ...o });

describe('mock provider: latency', () => {
  it('simulates a fixed latency through the sleep port and reports it', async () => {
    const { delays, sleep } = fakeSleep();
    const r = await mockProvider({ latencyMs: 9_000, sleep }).call(ask(request()));
    expect(delays).toEqual([9_000]);
    expect(r).toMatchObject({ status: 'ok', latencyMs: 9_000 });
  });

  it('draws a latency in the range, the same for the same request, spread across requests', async () => {
    const { delays, sleep } = fakeSleep();
    const p = mockProvider({ latencyMs: [100, 2_000], sleep });
    const results: ProviderResult[] = [];
    for (let i = 0; i < 60; i++)
      results.push(
        await mockProvider({ latencyMs: [100, 2_000], sleep }).call(ask(request(), seeded(i))),
      );
    expect(results.every((r) => r.latencyMs >= 100 && r.latencyMs <= 2_000)).toBe(true);
    expect(new Set(results.map((r) => r.latencyMs)).size).toBeGreaterThan(30);
    expect(delays).toEqual(results.map((r) => r.latencyMs));
    expect((await p.call(ask(request(), seeded(0)))).latencyMs).toBe(results[0]!.latencyMs);
  });

  it('times out when the latency exceeds the deadline, after sleeping only until the deadline', async () => {
    const { delays, sleep } = fakeSleep();
    const r = await mockProvider({ latencyMs: 3_000, sleep }).call(
      ask(request(), { deadlineMs: 1_200 }),
    );
    expect(delays).toEqual([1_200]);
    expect(r).toMatchObject({
      status: 'timeout',
      latencyMs: 1_200,
      json: null,
      text: '',
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    expect(r.error).toMatch(/1200 ms deadline/);
  });

  it('waits on real timers by default, and an abort ends the wait as a cancelled call', async () => {
    const ctl = new AbortController();
    // Had the abort not ended the 10 s wait, the call would have answered 'ok'.
    const pending = mockProvider({ latencyMs: 10_000 }).call(
      ask(request(), { signal: ctl.signal }),
    );
    setTimeout(() => ctl.abort(), 20);
    const r = await pending;
    expect(r).toMatchObject({ status: 'timeout', error: 'mock: cancelled by the caller' });
    const quick = await mockProvider({ latencyMs: 30 }).call(ask(request()));
    expect(quick).toMatchObject({ status: 'ok', latencyMs: 30 });
  });
});

describe('mock provider: failure injection', () => {
  const byWindow = new Map<Window, TurnPlanRequest>(
    SAMPLES.map((s) => [s.request.window, s.request]),
  );

  it('turns each scripted kind into its documented status, by call index', async () => {
    const { delays, sleep } = fakeSleep();
    const p = mockProvider({
      latencyMs: 50,
      sleep,
      failures: {
        script: ['ok', 'timeout', 'error', 'malformed', 'invalid', 'refused', 'rate_limited'],
      },
    });
    const r: ProviderResult[] = [];
    for (let i = 0; i < 8; i++) r.push(await p.call(ask(request(), { deadlineMs: 700 })));
    expect(r.map((x) => x.status)).toEqual([
      'ok',
      'timeout',
      'error',
      'malformed',
      'ok',
      'refused',
      'rate_limited',
      'ok',
    ]);
    expect(delays).toEqual([50, 700, 50, 50, 50, 50, 50, 50]);
    expect(r[1]).toMatchObject({ latencyMs: 700, error: expect.stringContaining('(injected)') });
    expect(r[2]!.error).toBe('mock: provider error (injected)');
    expect(() => JSON.parse(r[3]!.text) as unknown).toThrow();
    expect(r[3]!.json).toBeNull();
    expect(r[5]!.text).toMatch(/can't help/);
    expect(r[6]!.retryAfterMs).toBeGreaterThanOrEqual(500);
    expect(r[6]!.retryAfterMs).toBeLessThanOrEqual(3_000);
    for (const x of r) expect(x.status === 'ok' || x.error !== null).toBe(true);
  });

  it('injects invalid answers that parse as JSON but break each window schema', async () => {
    expect([...byWindow.keys()].sort()).toEqual([...WINDOWS].sort());
    for (const [window, request] of byWindow) {
      const r = await mock({ failures: { invalid: 1 } }).call(ask(request));
      expect(r.status).toBe('ok');
      expect(JSON.parse(r.text)).toEqual(r.json);
      expect(DECISION_SCHEMAS[window].safeParse(r.json).success).toBe(false);
    }
  });

  it('draws failures at the configured rates, reproducibly, and gives a retry fresh weather', async () => {
    const run = async () => {
      const p = mock({ failures: { malformed: 0.2, timeout: 0.1 } });
      const out: string[] = [];
      for (let i = 0; i < 300; i++) out.push((await p.call(ask(request(), seeded(i)))).status);
      return out;
    };
    const a = await run();
    expect(await run()).toEqual(a);
    const share = (s: string) => a.filter((x) => x === s).length / a.length;
    expect(share('malformed')).toBeGreaterThan(0.12);
    expect(share('malformed')).toBeLessThan(0.28);
    expect(share('timeout')).toBeGreaterThan(0.04);
    expect(share('timeout')).toBeLessThan(0.16);
    // The same request asked again until it goes through: a retry is not doomed to repeat its failure.
    const p = mock({ failures: { malformed: 0.5 } });
    const statuses: string[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await p.call(ask(request()))).status);
    expect(new Set(statuses)).toEqual(new Set(['ok', 'malformed']));
  });

  it('fails every call of a kind at rate 1', async () => {
    const status = {
      timeout: 'timeout',
      error: 'error',
      malformed: 'malformed',
      invalid: 'ok',
      refused: 'refused',
      rate_limited: 'rate_limited',
    } as const;
    for (const kind of MOCK_FAILURES) {
      const r = await mock({ failures: { [kind]: 1 } }).call(ask(request()));
      expect([kind, r.status]).toEqual([kind, status[kind]]);
    }
  });
});

describe('mock provider: options', () => {
  it.each([
    [{ latencyMs: 10_001 }, /latencyMs/],
    [{ latencyMs: -1 }, /latencyMs/],
    [{ latencyMs: 2.5 }, /latencyMs/],
    [{ latencyMs: [500, 100] as const }, /min ≤ max/],
    [{ latencyMs: [0, 20_000] as const }, /latencyMs/],
    [{ failures: { timeout: 0.7, error: 0.5 } }, /add up to more than 1/],
    [{ failures: { timeout: 1.5 } }, /failures/],
    [{ failures: { slow: 0.1 } as never }, /failures/],
    [{ failures: { script: ['ok', 'explode'] } as never }, /failures/],
    [{ personality: 'random' } as never, /personality/],
  ])('rejects %j at construction', (options, message) => {
    expect(() => mockProvider(options)).toThrow(/mock provider options are invalid/);
    expect(() => mockProvider(options)).toThrow(message);
  });
});
