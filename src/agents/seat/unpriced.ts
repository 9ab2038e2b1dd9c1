import { modelChain, type ProviderSetup } from '../../providers/config.js';
import { costOf } from '../../providers/pricing.js';
import { modelRefText, type ModelRef } from '../../providers/router.js';
import { defaultProviders, parseAgentSpec, type AgentSpec } from './agent-spec.js';

/** The models of an LLM seat (its model and fallbacks), with the setup that prices them; null for other seats. */
function chainOf(agent: AgentSpec): { chain: ModelRef[]; setup: ProviderSetup } | null {
  if (agent.kind === 'llm') return { chain: agent.chain, setup: agent.setup };
  if (agent.kind !== 'skill' || agent.skill.kind !== 'llm' || !agent.skill.llm) return null;
  const setup = defaultProviders();
  const chain = modelChain(agent.skill.llm, setup);
  return chain.ok ? { chain: chain.chain, setup } : null;
}

/**
 * The models of a seat that no price covers (built-in table or the providers file's `prices`), as
 * `provider:model`; empty for a priced LLM seat, any other seat, and a spec that does not resolve
 * (that is refused elsewhere, with its own reason).
 *
 * @example unpricedModels('llm:openai:my-finetune-v2') // ['openai:my-finetune-v2']
 */
export function unpricedModels(spec: string): string[] {
  const parsed = parseAgentSpec(spec);
  const seat = parsed.ok ? chainOf(parsed.agent) : null;
  if (!seat) return [];
  return seat.chain.filter((m) => !costOf(seat.setup.prices, m.model, { inputTokens: 0, outputTokens: 0 }).known).map(modelRefText);
}

/** Why an unpriced seat is refused, and the two ways on. */
export function unpricedMessage(spec: string, models: readonly string[]): string {
  const model = models[0]!.slice(models[0]!.indexOf(':') + 1);
  return `${spec}: ${models.join(', ')} ha${models.length === 1 ? 's' : 've'} no price, so its calls would be recorded as $0 and no cost cap could bound them; add one to the providers file ("prices": {"${model}": {"inputPerMTok": <USD>, "outputPerMTok": <USD>}}, see docs/providers.md) or opt in with --allow-unpriced (REST: allow_unpriced) to play it with its cost reported as unknown`;
}

/** The entrants with unpriced models, each with its message (empty when all are priced). */
export function unpricedEntrants(entrants: readonly string[]): { spec: string; message: string }[] {
  return entrants.flatMap((spec) => {
    const models = unpricedModels(spec);
    return models.length ? [{ spec, message: unpricedMessage(spec, models) }] : [];
  });
}

/**
 * Why a cost cap cannot run over these entrants (null when it can): a model with no price has no
 * worst case to reserve, so the cap could not hold. Price it in the providers file to cap it.
 */
export function capRefusal(entrants: readonly string[], words: { optIn: string; cap: string } = { optIn: '--allow-unpriced', cap: '--max-cost-usd' }): string | null {
  const unpriced = entrants.flatMap((spec) => unpricedModels(spec));
  if (!unpriced.length) return null;
  return `a cost cap needs a price for every model it may call, and ${unpriced.join(', ')} ha${unpriced.length === 1 ? 's' : 've'} none (${words.optIn} does not lift this): add ${unpriced.length === 1 ? 'it' : 'them'} to the providers file's "prices" (docs/providers.md), or run without ${words.cap}`;
}
