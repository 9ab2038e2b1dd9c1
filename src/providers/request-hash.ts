import { createHash } from 'node:crypto';
import type { ProviderRequest } from './types.js';

/**
 * The provider_calls request_hash: sha256 (hex) of the canonical JSON of what decides the answer —
 * model, messages, answer schema, token cap and temperature. The deadline, signal and meta are left
 * out on purpose: the same question asked under a tighter deadline or for another game is the same
 * request, so identical prompts can be found (and cached or compared) across games.
 *
 * @example
 * requestHash({ model: 'gpt-4o', messages, answer, maxOutputTokens: 400, deadlineMs: 5_000 });
 * // → '3f1c…' (64 hex chars); key order in the schema does not change it
 */
export function requestHash(req: ProviderRequest): string {
  const { model, messages, answer, maxOutputTokens, temperature } = req;
  return createHash('sha256')
    .update(canonicalJson({ model, messages, answer, maxOutputTokens, temperature }))
    .digest('hex');
}

/**
 * JSON with object keys sorted at every depth, so two equal values always serialise alike whatever
 * order their keys were built in. Follows JSON.stringify otherwise: undefined object members are
 * dropped, undefined array items become null.
 *
 * @example
 * canonicalJson({ b: 1, a: { d: [2, undefined], c: 3 } }); // '{"a":{"c":3,"d":[2,null]},"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value))
    return value.map((item: unknown) => (item === undefined ? null : sortKeys(item)));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}
