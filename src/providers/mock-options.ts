import { z } from 'zod';
import type { PriceTable } from './types.js';

/** What a scheduled call may turn into besides a good answer. */
export const MOCK_FAILURES = [
  'timeout',
  'error',
  'malformed',
  'invalid',
  'refused',
  'rate_limited',
] as const;
export type MockFailure = (typeof MOCK_FAILURES)[number];
export type MockOutcome = 'ok' | MockFailure;

/** The built-in heuristic personalities the mock plays as (random is left out: it is not sensible). */
export const MOCK_PERSONALITIES = [
  'balanced',
  'aggressor',
  'turtle',
  'manipulator',
  'trickster',
] as const;
export type MockPersonality = (typeof MOCK_PERSONALITIES)[number];

/** MockServiceResponse (seed 004): simulated latency lies in 0–10,000 ms. */
export const MAX_MOCK_LATENCY_MS = 10_000;

const Ms = z.number().int().min(0).max(MAX_MOCK_LATENCY_MS);
const Rate = z.number().min(0).max(1);

const Rates = z
  .strictObject({
    timeout: Rate.optional(),
    error: Rate.optional(),
    malformed: Rate.optional(),
    invalid: Rate.optional(),
    refused: Rate.optional(),
    rate_limited: Rate.optional(),
  })
  .refine(
    (r) => Object.values(r).reduce((s: number, p) => s + (p ?? 0), 0) <= 1 + 1e-9,
    'failure rates add up to more than 1',
  );

const Script = z.strictObject({ script: z.array(z.enum(['ok', ...MOCK_FAILURES])) });

export const MockOptionsSchema = z.strictObject({
  /** A fixed latency, or a [min, max] range each call draws from deterministically. */
  latencyMs: z
    .union([
      Ms,
      z
        .tuple([Ms, Ms])
        .refine(([lo, hi]) => lo <= hi, 'latency range must be [min, max] with min ≤ max'),
    ])
    .default(0),
  failures: z.union([Script, Rates]).optional(),
  /** Forces one personality for every seat (by default each seat gets one from its seed). */
  personality: z.enum(MOCK_PERSONALITIES).optional(),
  prices: z
    .record(
      z.string(),
      z.object({ inputPerMTok: z.number().min(0), outputPerMTok: z.number().min(0) }),
    )
    .default({}),
});

/** How calls wait out their simulated latency; tests pass one that records and returns at once. */
export type MockSleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export type MockOptions = {
  /** Simulated latency in ms (0–10,000): a number, or [min, max] drawn per call. Default 0. */
  latencyMs?: number | readonly [number, number];
  /** Failure injection: a rate per kind (drawn per call), or an explicit outcome per call index. */
  failures?: Partial<Record<MockFailure, number>> | { script: readonly MockOutcome[] };
  personality?: MockPersonality;
  /** USD per million tokens by model; models not listed cost 0. */
  prices?: PriceTable;
  sleep?: MockSleep;
};

export type MockConfig = {
  latency: readonly [number, number];
  rates: Partial<Record<MockFailure, number>> | null;
  script: readonly MockOutcome[] | null;
  personality: MockPersonality | null;
  prices: PriceTable;
};

/**
 * Validates the options once, at construction: a bad latency or rate is a configuration error and
 * throws, unlike anything a call does.
 *
 * @example mockConfig({ latencyMs: [50, 400] }).latency // [50, 400]
 */
export function mockConfig(options: Omit<MockOptions, 'sleep'>): MockConfig {
  const parsed = MockOptionsSchema.safeParse(options);
  if (!parsed.success)
    throw new Error(`mock provider options are invalid:\n${z.prettifyError(parsed.error)}`);
  const o = parsed.data;
  const latency: readonly [number, number] =
    typeof o.latencyMs === 'number' ? [o.latencyMs, o.latencyMs] : o.latencyMs;
  const failures = o.failures ?? null;
  const script = failures && 'script' in failures ? failures.script : null;
  return {
    latency,
    rates: failures && !('script' in failures) ? failures : null,
    script,
    personality: o.personality ?? null,
    prices: o.prices,
  };
}
