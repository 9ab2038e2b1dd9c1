import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { Budget, formatIssues } from '../protocol/index.js';
import { substituteEnv } from '../agents/skills/config.js';
import { anthropicProvider } from './anthropic.js';
import { mockProvider } from './mock.js';
import { openAiProvider } from './openai.js';
import { DEFAULT_PRICES } from './pricing.js';
import type { ModelRef } from './router.js';
import type { PriceTable, Provider } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

export const Price = z.object({ inputPerMTok: z.number().min(0), outputPerMTok: z.number().min(0) });

const ProviderEntry = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('openai'),
    base_url: z.url(),
    api_key: z.string().optional(),
    structured_output: z.enum(['json_schema', 'json_object', 'none']).optional(),
    default_model: z.string().optional(),
  }),
  z.strictObject({ kind: z.literal('anthropic'), base_url: z.url().optional(), api_key: z.string().min(1), default_model: z.string().optional() }),
  z.strictObject({
    kind: z.literal('mock'),
    latency_ms: z.union([z.number(), z.tuple([z.number(), z.number()])]).optional(),
    failures: z.record(z.string(), z.unknown()).optional(),
    default_model: z.string().optional(),
  }),
]);
export type ProviderEntry = z.infer<typeof ProviderEntry>;

/**
 * The providers file (`TILTYARD_PROVIDERS_FILE`, else ./tiltyard.providers.json when present).
 * String values may use `${ENV}`; keys come from the environment that way and are never written
 * to traces, logs or agents.
 */
export const ProvidersFile = z.strictObject({
  providers: z.record(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'provider names are lowercase letters, digits, - and _'), ProviderEntry).default({}),
  /** `provider:model` → the models to try next, in order. */
  fallbacks: z.record(z.string(), z.array(z.string())).default({}),
  prices: z.record(z.string(), Price).default({}),
  // A decision's wall budget covers a timed-out call, its retry, a fallback model and a repair.
  budgets: z.strictObject({ decision: Budget.default({ wall_ms: 120_000 }), game: Budget.default({}) }).prefault({}),
  max_output_tokens: z.number().int().min(16).max(32_000).default(1_200),
  /** Per call. */
  deadline_ms: z.number().int().min(100).max(600_000).default(25_000),
  /** Output past this many tokens is cut and recorded (default: max_output_tokens). */
  output_cap_tokens: z.number().int().min(16).max(64_000).optional(),
  /** Decisions in a row whose every call failed before the game is failed with the cause. */
  outage_decisions: z.number().int().min(1).max(1_000).default(5),
});
export type ProvidersFile = z.infer<typeof ProvidersFile>;

export type ProviderSetup = {
  providers: Map<string, Provider>;
  /** Each provider's kind (what speaks to it), for listings that must not show keys or URLs. */
  kinds: Map<string, ProviderEntry['kind']>;
  defaults: Map<string, string>;
  fallbacks: Record<string, string[]>;
  budgets: ProvidersFile['budgets'];
  maxOutputTokens: number;
  deadlineMs: number;
  /** The price table (defaults with the file's overrides), for estimates before any call. */
  prices: PriceTable;
  outputCapTokens: number;
  outageDecisions: number;
  /** Where it came from, for error messages. */
  source: string;
  /**
   * The providers the server's operator set up: the mock, the providers file's, and the built-in
   * ones whose environment variable is set. Absent: only the mock. The others are defaults nobody
   * chose (ollama and lmstudio on their usual local ports), which whoever listens there answers:
   * a broadcast game does not trust them (agents/seat/broadcast-risk.ts).
   */
  configured?: ReadonlySet<string>;
};

export class ProviderConfigError extends Error {}

/** Substitutes `${ENV}` in every string of a parsed JSON value. */
function withEnv(value: unknown, env: Env, path: string): unknown {
  if (typeof value === 'string') {
    const r = substituteEnv(value, env);
    if (!r.ok) throw new ProviderConfigError(`${path} needs the environment variable ${r.missing}, which is not set`);
    return r.value;
  }
  if (Array.isArray(value)) return value.map((v, i) => withEnv(v, env, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withEnv(v, env, `${path}.${k}`)]));
  return value;
}

/** The environment variables that set up each built-in provider (see builtinEntries). */
const PROVIDER_ENV: Record<string, readonly string[]> = {
  openai: ['OPENAI_API_KEY', 'OPENAI_BASE_URL'],
  anthropic: ['ANTHROPIC_API_KEY'],
  openrouter: ['OPENROUTER_API_KEY'],
  ollama: ['OLLAMA_BASE_URL'],
  lmstudio: ['LMSTUDIO_BASE_URL'],
};

/** The providers available without a file: the mock always; the others when their keys or URLs are set. */
function builtinEntries(env: Env): Record<string, ProviderEntry> {
  const out: Record<string, ProviderEntry> = { mock: { kind: 'mock' } };
  if (env['OPENAI_API_KEY'] || env['OPENAI_BASE_URL'])
    out['openai'] = { kind: 'openai', base_url: env['OPENAI_BASE_URL'] ?? 'https://api.openai.com/v1', ...(env['OPENAI_API_KEY'] ? { api_key: env['OPENAI_API_KEY'] } : {}), default_model: 'gpt-4o-mini' };
  if (env['ANTHROPIC_API_KEY'])
    out['anthropic'] = { kind: 'anthropic', api_key: env['ANTHROPIC_API_KEY'], ...(env['ANTHROPIC_BASE_URL'] ? { base_url: env['ANTHROPIC_BASE_URL'] } : {}), default_model: 'claude-sonnet-4-20250514' };
  if (env['OPENROUTER_API_KEY']) out['openrouter'] = { kind: 'openai', base_url: 'https://openrouter.ai/api/v1', api_key: env['OPENROUTER_API_KEY'] };
  out['ollama'] = { kind: 'openai', base_url: env['OLLAMA_BASE_URL'] ?? 'http://localhost:11434/v1' };
  out['lmstudio'] = { kind: 'openai', base_url: env['LMSTUDIO_BASE_URL'] ?? 'http://localhost:1234/v1', structured_output: 'json_schema' };
  return out;
}

function build(name: string, entry: ProviderEntry, prices: PriceTable): Provider {
  switch (entry.kind) {
    case 'openai':
      return openAiProvider({ baseUrl: entry.base_url, name, prices, ...(entry.api_key ? { apiKey: entry.api_key } : {}), ...(entry.structured_output ? { structuredOutput: entry.structured_output } : {}) });
    case 'anthropic':
      return anthropicProvider({ apiKey: entry.api_key, prices, ...(entry.base_url ? { baseUrl: entry.base_url } : {}) });
    case 'mock':
      return mockProvider({ prices, ...(entry.latency_ms !== undefined ? { latencyMs: entry.latency_ms } : {}), ...(entry.failures ? { failures: entry.failures as never } : {}) });
  }
}

/**
 * Loads the provider setup: built-in entries from the environment, overridden and extended by the
 * providers file. Errors name the file and the field.
 *
 * @example loadProviders({ env: process.env }).providers.get('mock')
 */
export function loadProviders(options: { env?: Env; file?: string | null; cwd?: string } = {}): ProviderSetup {
  const env = options.env ?? process.env;
  const path = options.file === undefined ? (env['TILTYARD_PROVIDERS_FILE'] ?? (existsSync('tiltyard.providers.json') ? 'tiltyard.providers.json' : null)) : options.file;
  let file: ProvidersFile = ProvidersFile.parse({});
  if (path) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      throw new ProviderConfigError(`providers file ${path}: ${(e as Error).message}`);
    }
    const parsed = ProvidersFile.safeParse(withEnv(raw, env, path));
    if (!parsed.success) throw new ProviderConfigError(`providers file ${path}: ${formatIssues(parsed.error.issues)}`);
    file = parsed.data;
  }
  const prices = { ...DEFAULT_PRICES, ...file.prices };
  const entries = { ...builtinEntries(env), ...file.providers };
  const providers = new Map<string, Provider>();
  const defaults = new Map<string, string>();
  const kinds = new Map<string, ProviderEntry['kind']>();
  for (const [name, entry] of Object.entries(entries)) {
    kinds.set(name, entry.kind);
    try {
      providers.set(name, build(name, entry, prices));
    } catch (e) {
      throw new ProviderConfigError(`provider ${name}: ${(e as Error).message}`);
    }
    if (entry.default_model) defaults.set(name, entry.default_model);
  }
  const configured = new Set(['mock', ...Object.keys(file.providers)]);
  for (const [name, vars] of Object.entries(PROVIDER_ENV)) if (vars.some((v) => env[v])) configured.add(name);
  return { providers, kinds, defaults, fallbacks: file.fallbacks, budgets: file.budgets, maxOutputTokens: file.max_output_tokens, deadlineMs: file.deadline_ms, outputCapTokens: file.output_cap_tokens ?? file.max_output_tokens, outageDecisions: file.outage_decisions, prices, source: path ?? 'environment', configured };
}

/**
 * `llm:<provider>[:<model>]` → the model chain: the model, then its configured fallbacks. A
 * provider with no model named uses its default model (the mock's is "mock").
 */
export function modelChain(ref: string, setup: ProviderSetup): { ok: true; chain: ModelRef[] } | { ok: false; message: string } {
  const [provider, ...rest] = ref.split(':');
  if (!provider) return { ok: false, message: 'llm: needs a provider, e.g. llm:mock or llm:openai:gpt-4o-mini' };
  if (!setup.providers.has(provider)) return { ok: false, message: `no provider "${provider}" (configured: ${[...setup.providers.keys()].join(', ')}; see docs/providers.md)` };
  const model = rest.join(':') || setup.defaults.get(provider) || (provider === 'mock' ? 'mock' : '');
  if (!model) return { ok: false, message: `llm:${provider} needs a model: llm:${provider}:<model>` };
  const chain: ModelRef[] = [{ provider, model }];
  for (const next of setup.fallbacks[`${provider}:${model}`] ?? []) {
    const [p, ...m] = next.split(':');
    if (!p || !setup.providers.has(p) || m.length === 0) return { ok: false, message: `fallback "${next}" of ${provider}:${model} must be provider:model with a configured provider` };
    chain.push({ provider: p, model: m.join(':') });
  }
  return { ok: true, chain };
}
