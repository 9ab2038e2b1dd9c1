import { llmSeat } from '../llm/llm-seat.js';
import { modelChain } from '../../providers/config.js';
import { defaultProviders, LLM_SKILL_DIR, type AgentSpec } from './agent-spec.js';
import { builtinSeat } from './builtin-seat.js';
import { commandSeat } from './command-seat.js';
import { humanSeat } from './human-seat.js';
import { planSeat } from './plan-seat.js';
import type { PriceTable } from '../../providers/types.js';
import type { SeatAgent, SeatContext } from './types.js';

/** The seat's share of its tournament's cost cap, priced by its provider setup. */
const capOf = (ctx: SeatContext, prices: PriceTable) => (ctx.spend ? { spend: { ledger: ctx.spend, prices } } : {});

/** The seat agent for a resolved spec: in-process for built-ins, a process or a plan for skills, a model chain for llm:. */
export function createSeat(agent: AgentSpec, ctx: SeatContext): SeatAgent {
  if (agent.kind === 'builtin') return builtinSeat(agent.name, ctx, agent.spec);
  if (agent.kind === 'human') return humanSeat(agent.spec, ctx);
  if (agent.kind === 'llm') {
    const { setup } = agent;
    return llmSeat(agent.spec, ctx, { providers: setup.providers, chain: agent.chain, budgets: setup.budgets, maxOutputTokens: setup.maxOutputTokens, outputCapTokens: setup.outputCapTokens, outageDecisions: setup.outageDecisions, deadlineMs: setup.deadlineMs, skillDir: LLM_SKILL_DIR, ...capOf(ctx, setup.prices) });
  }
  const { skill } = agent;
  switch (skill.kind) {
    case 'builtin':
      return builtinSeat(skill.builtin!, ctx, agent.spec);
    case 'command':
      return commandSeat(skill, agent.spec, ctx);
    case 'plan':
      return planSeat(skill, agent.spec, ctx);
    case 'llm': {
      const setup = defaultProviders();
      const chain = modelChain(skill.llm!, setup);
      if (!chain.ok) throw new Error(`${agent.spec}: ${chain.message}`);
      return llmSeat(agent.spec, ctx, { providers: setup.providers, chain: chain.chain, budgets: setup.budgets, maxOutputTokens: setup.maxOutputTokens, outputCapTokens: setup.outputCapTokens, outageDecisions: setup.outageDecisions, deadlineMs: setup.deadlineMs, skillDir: skill.dir, ...capOf(ctx, setup.prices) });
    }
  }
}
