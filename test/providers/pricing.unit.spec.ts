import { describe, expect, it } from 'vitest';
import { costOf, DEFAULT_PRICES } from '../../src/providers/pricing.js';

const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000 };

describe('costOf', () => {
  it('prices exact, dated and tagged ids by the longest family prefix', () => {
    expect(costOf(DEFAULT_PRICES, 'gpt-4o', usage)).toEqual({
      usd: 12.5,
      known: true,
      priceKey: 'gpt-4o',
    });
    expect(costOf(DEFAULT_PRICES, 'gpt-4o-2024-08-06', usage).priceKey).toBe('gpt-4o');
    expect(costOf(DEFAULT_PRICES, 'gpt-4o-mini-2024-07-18', usage).priceKey).toBe('gpt-4o-mini');
    expect(costOf(DEFAULT_PRICES, 'gpt-4.1-mini-2025-04-14', usage).priceKey).toBe('gpt-4.1-mini');
    expect(costOf(DEFAULT_PRICES, 'claude-3-5-haiku-20241022', usage)).toEqual({
      usd: 4.8,
      known: true,
      priceKey: 'claude-3-5-haiku',
    });
    expect(costOf(DEFAULT_PRICES, 'llama3.1:8b', usage)).toEqual({
      usd: 0,
      known: true,
      priceKey: 'llama3',
    });
  });

  it('drops a router prefix', () => {
    expect(costOf(DEFAULT_PRICES, 'openai/gpt-4o-mini', usage).priceKey).toBe('gpt-4o-mini');
  });

  it('does not match across a word: gpt-4o is not a gpt-4', () => {
    expect(costOf({ 'gpt-4': { inputPerMTok: 30, outputPerMTok: 60 } }, 'gpt-4o', usage)).toEqual({
      usd: 0,
      known: false,
      priceKey: null,
    });
  });

  it('unknown models cost 0 and say so', () => {
    expect(costOf(DEFAULT_PRICES, 'mystery-model', usage)).toEqual({
      usd: 0,
      known: false,
      priceKey: null,
    });
  });
});
