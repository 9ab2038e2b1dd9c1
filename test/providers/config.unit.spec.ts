import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProviders, modelChain, ProviderConfigError } from '../../src/providers/config.js';
import { BudgetMeter } from '../../src/providers/budget.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function file(json: unknown): string {
  const d = mkdtempSync(join(tmpdir(), 'providers-'));
  dirs.push(d);
  const p = join(d, 'tiltyard.providers.json');
  writeFileSync(p, typeof json === 'string' ? json : JSON.stringify(json));
  return p;
}

describe('provider configuration', () => {
  it('given no file and no keys, then the mock and the local servers exist, and hosted providers do not', () => {
    const setup = loadProviders({ env: {}, file: null });
    expect([...setup.providers.keys()].sort()).toEqual(['lmstudio', 'mock', 'ollama']);
    expect(modelChain('mock', setup)).toEqual({ ok: true, chain: [{ provider: 'mock', model: 'mock' }] });
    expect(modelChain('openai:gpt-4o', setup)).toMatchObject({ ok: false, message: expect.stringContaining('no provider "openai"') });
    expect(modelChain('ollama', setup)).toMatchObject({ ok: false, message: expect.stringContaining('needs a model') });
  });

  it('given keys in the environment, then openai and anthropic exist with default models', () => {
    const setup = loadProviders({ env: { OPENAI_API_KEY: 'sk-x', ANTHROPIC_API_KEY: 'ak-x' }, file: null });
    expect(modelChain('openai', setup)).toEqual({ ok: true, chain: [{ provider: 'openai', model: 'gpt-4o-mini' }] });
    expect(modelChain('anthropic:claude-x', setup)).toEqual({ ok: true, chain: [{ provider: 'anthropic', model: 'claude-x' }] });
    expect(modelChain('ollama:qwen3:8b', setup)).toEqual({ ok: true, chain: [{ provider: 'ollama', model: 'qwen3:8b' }] });
  });

  it('given a file with ${ENV}, fallbacks and budgets, then they apply, and a missing variable is named', () => {
    const path = file({
      providers: { vllm: { kind: 'openai', base_url: 'http://gpu:8000/v1', api_key: '${VLLM_KEY}' } },
      fallbacks: { 'vllm:big': ['mock:mock'] },
      budgets: { game: { cost_usd: 1 } },
    });
    const setup = loadProviders({ env: { VLLM_KEY: 'k' }, file: path });
    expect(modelChain('vllm:big', setup)).toEqual({ ok: true, chain: [{ provider: 'vllm', model: 'big' }, { provider: 'mock', model: 'mock' }] });
    expect(setup.budgets).toEqual({ decision: { wall_ms: 120_000 }, game: { cost_usd: 1 } });
    expect(() => loadProviders({ env: {}, file: path })).toThrow(/VLLM_KEY/);
  });

  it('given a broken file, then the error names the file and the field', () => {
    expect(() => loadProviders({ env: {}, file: file('{not json') })).toThrow(ProviderConfigError);
    expect(() => loadProviders({ env: {}, file: file({ providers: { x: { kind: 'openai' } } }) })).toThrow(/providers\.x\.base_url/);
    expect(() => loadProviders({ env: {}, file: file({ budget: {} }) })).toThrow(/budget/);
    const bad = loadProviders({ env: {}, file: file({ fallbacks: { 'mock:mock': ['nowhere'] } }) });
    expect(modelChain('mock', bad)).toMatchObject({ ok: false, message: expect.stringContaining('fallback "nowhere"') });
  });
});

describe('BudgetMeter', () => {
  it('raises near at 80 % and exhausted at 100 %, once each, and says which dimension ran out', () => {
    const m = new BudgetMeter('decision', { tokens: 100, wall_ms: 1000 });
    expect(m.charge({ tokens: 50 })).toEqual([]);
    expect(m.charge({ tokens: 30 })).toEqual([{ scope: 'decision', dimension: 'tokens', level: 'near', used: 80, limit: 100 }]);
    expect(m.charge({ tokens: 1 })).toEqual([]);
    expect(m.exhausted()).toBeNull();
    expect(m.charge({ tokens: 30, wallMs: 100 })).toEqual([{ scope: 'decision', dimension: 'tokens', level: 'exhausted', used: 111, limit: 100 }]);
    expect(m.exhausted()).toBe('tokens');
    expect(m.wallLeftMs()).toBe(900);
    expect(new BudgetMeter('game', {}).wallLeftMs()).toBe(Infinity);
  });
});
