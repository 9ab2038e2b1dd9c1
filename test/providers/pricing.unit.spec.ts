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

describe('DEFAULT_PRICES', () => {
  it('is dated, and every entry parses as a providers-file price', async () => {
    const { Price } = await import('../../src/providers/config.js');
    const { PRICES_CHECKED } = await import('../../src/providers/pricing.js');
    expect(PRICES_CHECKED).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(PRICES_CHECKED))).toBe(false);
    for (const [key, price] of Object.entries(DEFAULT_PRICES)) expect(Price.safeParse(price).success, key).toBe(true);
  });

  it('prices the models people use now, dated ids by their family', () => {
    const family: Record<string, string> = {
      'gpt-4o-2024-11-20': 'gpt-4o',
      'gpt-4o-mini': 'gpt-4o-mini',
      'gpt-4.1-2025-04-14': 'gpt-4.1',
      'gpt-4.1-nano': 'gpt-4.1-nano',
      'o3-2025-04-16': 'o3',
      'o3-mini': 'o3-mini',
      'o4-mini-2025-04-16': 'o4-mini',
      'gpt-5-mini-2025-08-07': 'gpt-5-mini',
      'claude-opus-4-1-20250805': 'claude-opus-4-1',
      'claude-opus-4-20250514': 'claude-opus-4',
      'claude-opus-4-5-20251101': 'claude-opus-4-5',
      'claude-sonnet-4-20250514': 'claude-sonnet-4',
      'claude-sonnet-4-5-20250929': 'claude-sonnet-4-5',
      'claude-haiku-4-5-20251001': 'claude-haiku-4-5',
      mock: 'mock',
    };
    for (const [model, key] of Object.entries(family)) expect(costOf(DEFAULT_PRICES, model, usage).priceKey, model).toBe(key);
    // claude-opus-4-1 is not priced as the cheaper 4.5 nor the other way round.
    expect(costOf(DEFAULT_PRICES, 'claude-opus-4-1', usage).usd).toBe(90);
    expect(costOf(DEFAULT_PRICES, 'claude-opus-4-5', usage).usd).toBe(30);
  });
});
