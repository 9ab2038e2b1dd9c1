import type { AgentSpec } from './agent-spec.js';
import { builtinSeat } from './builtin-seat.js';
import { commandSeat } from './command-seat.js';
import { planSeat } from './plan-seat.js';
import type { SeatAgent, SeatContext } from './types.js';

/** The seat agent for a resolved spec: in-process for built-ins, a process or a plan for skills. */
export function createSeat(agent: AgentSpec, ctx: SeatContext): SeatAgent {
  if (agent.kind === 'builtin') return builtinSeat(agent.name, ctx, agent.spec);
  const { skill } = agent;
  switch (skill.kind) {
    case 'builtin':
      return builtinSeat(skill.builtin!, ctx, agent.spec);
    case 'command':
      return commandSeat(skill, agent.spec, ctx);
    case 'plan':
      return planSeat(skill, agent.spec, ctx);
  }
}
