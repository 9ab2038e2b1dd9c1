import { parseAgentSpec } from '../agents/seat/agent-spec.js';
import { describePreflight, preflightSeats } from '../agents/seat/preflight.js';
import { checkAgent } from '../check/run-check.js';

/** Why an entrant may not play (null: it may). */
export type Admission = (agent: string) => Promise<string | null>;

/**
 * What an entrant passes before its first game: a built-in nothing; a skill `tiltyard agent-check`
 * (its findings' first error is the cause); an LLM entrant its provider preflight (one cheap
 * request per provider:model). An entrant refused is suspended with the cause, never seated.
 */
export const admitAgent: Admission = async (agent) => {
  const parsed = parseAgentSpec(agent);
  if (!parsed.ok) return `not a valid agent: ${parsed.message.split('\n')[0]}`;
  const spec = parsed.agent;
  if (spec.kind === 'builtin' || (spec.kind === 'skill' && spec.skill.kind === 'builtin')) return null;
  if (spec.kind === 'skill') {
    const report = await checkAgent(agent, { games: 1 });
    if (report.ok) return null;
    const first = report.findings.find((f) => f.severity === 'error') ?? report.findings[0];
    return `agent-check failed${first ? `: ${first.check}: ${first.message}` : ''}`;
  }
  const failures = await preflightSeats([agent]);
  return failures.length ? `preflight failed: ${describePreflight(failures, 'entrants').split('\n').join(' ')}` : null;
};
