import type { PriceTable, Usage } from './types.js';

/** When the list prices below were last checked against the providers' pricing pages. */
export const PRICES_CHECKED = '2025-11-25';

/**
 * List prices in USD per million tokens (standard tier, uncached input), as published on the date
 * above. Prices change: override them in the providers file's `prices` (which also prices models
 * not listed here: a model with no price is refused, see docs/providers.md). Keys match dated and
 * tagged ids by prefix (costOf). Local models (Ollama, LM Studio, vLLM) and the mock are listed at
 * 0 so a local run reports no spend rather than "unknown".
 */
export const DEFAULT_PRICES: PriceTable = {
  // OpenAI
  'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 },
  'gpt-5-mini': { inputPerMTok: 0.25, outputPerMTok: 2 },
  'gpt-5-nano': { inputPerMTok: 0.05, outputPerMTok: 0.4 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  o1: { inputPerMTok: 15, outputPerMTok: 60 },
  o3: { inputPerMTok: 2, outputPerMTok: 8 },
  'o3-pro': { inputPerMTok: 20, outputPerMTok: 80 },
  'o3-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  'o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  // Anthropic
  'claude-opus-4-5': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-opus-4-1': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-opus-4': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 },
  'claude-3-7-sonnet': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-3-5-haiku': { inputPerMTok: 0.8, outputPerMTok: 4 },
  // The mock provider costs nothing (a providers file may price it to test budgets).
  mock: { inputPerMTok: 0, outputPerMTok: 0 },
  // Local model families, free to run (hosted copies of them are not: override for those).
  llama3: { inputPerMTok: 0, outputPerMTok: 0 },
  'qwen2.5': { inputPerMTok: 0, outputPerMTok: 0 },
  qwen3: { inputPerMTok: 0, outputPerMTok: 0 },
  mistral: { inputPerMTok: 0, outputPerMTok: 0 },
  gemma3: { inputPerMTok: 0, outputPerMTok: 0 },
  phi4: { inputPerMTok: 0, outputPerMTok: 0 },
};

/** A call's price: `known` is false (and usd 0) when no table entry matched the model. */
export type Cost = { usd: number; known: boolean; priceKey: string | null };

/**
 * What `usage` cost for `model`. Matches the exact id first, then the longest table key that is a
 * prefix of the id ending at a separator, so dated and tagged ids price as their family
 * ("gpt-4o-2024-08-06" → gpt-4o, "gpt-4o-mini-2024-07-18" → gpt-4o-mini, "llama3.1:8b" → llama3)
 * while "gpt-4o" never matches a "gpt-4" key. A router prefix ("openai/gpt-4o") is tried without it.
 *
 * @example
 * costOf(DEFAULT_PRICES, 'gpt-4o-2024-08-06', { inputTokens: 1_000, outputTokens: 200 });
 * // { usd: 0.0045, known: true, priceKey: 'gpt-4o' }
 * costOf(DEFAULT_PRICES, 'mystery-1', { inputTokens: 1_000, outputTokens: 200 });
 * // { usd: 0, known: false, priceKey: null }
 */
export function costOf(table: PriceTable, model: string, usage: Usage): Cost {
  const key = priceKey(table, model) ?? priceKey(table, model.slice(model.lastIndexOf('/') + 1));
  const price = key === null ? undefined : table[key];
  if (key === null || price === undefined) return { usd: 0, known: false, priceKey: null };
  const usd =
    (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1_000_000;
  return { usd, known: true, priceKey: key };
}

function priceKey(table: PriceTable, model: string): string | null {
  if (Object.hasOwn(table, model)) return model;
  let best: string | null = null;
  for (const key of Object.keys(table)) {
    const next = model.charAt(key.length);
    const atSeparator = next !== '' && !/[a-z0-9]/i.test(next);
    if (model.startsWith(key) && atSeparator && (best === null || key.length > best.length))
      best = key;
  }
  return best;
}
