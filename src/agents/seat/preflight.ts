import { modelChain, type ProviderSetup } from '../../providers/config.js';
import { preflightModels } from '../../providers/preflight.js';
import { modelRefText, type ModelRef } from '../../providers/router.js';
import { defaultProviders, parseAgentSpec, type SpecOptions } from './agent-spec.js';

/** One model that failed its preflight, with every seat that would have used it. */
export type PreflightFailure = { seats: number[]; spec: string; provider: string; model: string; cause: string };

/** The LLM model chain (and its provider setup) behind a spec, or null for agents that call no model. */
function chainOf(spec: string, options: SpecOptions): { chain: ModelRef[]; setup: ProviderSetup } | null {
  const r = parseAgentSpec(spec, options);
  if (!r.ok) return null;
  if (r.agent.kind === 'llm') return { chain: r.agent.chain, setup: r.agent.setup };
  if (r.agent.kind === 'skill' && r.agent.skill.kind === 'llm' && r.agent.skill.llm) {
    const setup = options.providers ?? defaultProviders();
    const chain = modelChain(r.agent.skill.llm, setup);
    return chain.ok ? { chain: chain.chain, setup } : null;
  }
  return null;
}

/**
 * Before a game (or a tournament) with LLM seats starts: each distinct provider:model of the
 * seats' chains answers one cheap request, or the start is refused with the seat, the provider and
 * the cause. The mock provider needs no check. Seats are numbered from 1, as people count them.
 *
 * @example
 * const failures = await preflightSeats(['llm:openai:gpt-4o-mini', 'balanced']);
 * // [{ seats: [1], spec: 'llm:openai:gpt-4o-mini', provider: 'openai', model: 'gpt-4o-mini', cause: 'connection refused (…)' }]
 */
export async function preflightSeats(specs: readonly string[], options: SpecOptions = {}): Promise<PreflightFailure[]> {
  const uses: { seat: number; spec: string; model: ModelRef; setup: ProviderSetup }[] = [];
  specs.forEach((spec, i) => {
    const found = chainOf(spec, options);
    for (const model of found?.chain ?? []) if (found!.setup.kinds.get(model.provider) !== 'mock') uses.push({ seat: i + 1, spec, model, setup: found!.setup });
  });
  if (uses.length === 0) return [];
  const setup = uses[0]!.setup;
  const results = await preflightModels(uses.map((u) => u.model), setup.providers, setup.deadlineMs);
  const failures = new Map<string, PreflightFailure>();
  for (const u of uses) {
    const key = modelRefText(u.model);
    const r = results.get(key);
    if (!r || r.ok) continue;
    const known = failures.get(key);
    if (known) known.seats.push(u.seat);
    else failures.set(key, { seats: [u.seat], spec: u.spec, provider: u.model.provider, model: u.model.model, cause: r.cause ?? r.status });
  }
  return [...failures.values()];
}

/**
 * One line per failure: `seat 1 (llm:openai:gpt-4o-mini): openai:gpt-4o-mini failed its preflight: connection refused (…)`.
 * A tournament's specs are its entrants, not seats (an entrant sits in many): `entrant llm:openai:gpt-4o-mini: …`.
 */
export function describePreflight(failures: readonly PreflightFailure[], of: 'seats' | 'entrants' = 'seats'): string {
  const who = (f: PreflightFailure) => (of === 'entrants' ? `entrant ${f.spec}` : `seat${f.seats.length > 1 ? 's' : ''} ${f.seats.join(', ')} (${f.spec})`);
  return failures
    .map((f) => `${who(f)}: ${f.provider}:${f.model} failed its preflight request: ${f.cause}`)
    .join('\n');
}
