import { modelRefText, type ModelRef } from './router.js';
import { callCause } from './router.js';
import type { CallStatus, Provider } from './types.js';

/** Statuses that prove the endpoint, the key and the model work (a refusal or a 429 is a live model talking). */
const ALIVE: ReadonlySet<CallStatus> = new Set(['ok', 'malformed', 'refused', 'rate_limited']);

/** The longest a preflight call may take, whatever the per-call deadline. */
export const PREFLIGHT_DEADLINE_MS = 15_000;

export type PreflightResult = { model: ModelRef; ok: boolean; status: CallStatus; cause: string | null };

/**
 * Checks one model with the cheapest real request there is: two short messages, a one-field
 * schema and a 16-token cap, through the same client the seat will use (so a bad base URL, key or
 * model fails here exactly as it would in the game). Never throws.
 *
 * @example const r = await preflightModel(provider, { provider: 'openai', model: 'gpt-4o-mini' }, 10_000);
 * if (!r.ok) console.error(r.cause); // "connection refused (ECONNREFUSED 127.0.0.1:9)"
 */
export async function preflightModel(provider: Provider, model: ModelRef, deadlineMs: number): Promise<PreflightResult> {
  const r = await provider.call({
    model: model.model,
    messages: [
      { role: 'system', content: 'You are being checked for availability. Answer with JSON only.' },
      { role: 'user', content: 'Answer {"ok": true}.' },
    ],
    answer: { name: 'tiltyard_preflight', schema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
    maxOutputTokens: 16,
    deadlineMs: Math.min(deadlineMs, PREFLIGHT_DEADLINE_MS),
  });
  const ok = ALIVE.has(r.status);
  return { model, ok, status: r.status, cause: ok ? null : callCause(r) };
}

/** `provider:model` → its result, each distinct model checked once, all at the same time. */
export async function preflightModels(models: readonly ModelRef[], providers: ReadonlyMap<string, Provider>, deadlineMs: number): Promise<Map<string, PreflightResult>> {
  const distinct = new Map(models.map((m) => [modelRefText(m), m]));
  const out = new Map<string, PreflightResult>();
  await Promise.all(
    [...distinct].map(async ([key, m]) => {
      const provider = providers.get(m.provider);
      out.set(key, provider ? await preflightModel(provider, m, deadlineMs) : { model: m, ok: false, status: 'error', cause: `no provider "${m.provider}" is configured` });
    }),
  );
  return out;
}
