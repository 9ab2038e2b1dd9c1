import { DECISION_SCHEMAS, formatIssues } from '../protocol/index.js';
import { raw, type Raw } from './finding.js';
import { schemaHint } from './hints.js';
import type { Invocation } from './invocation.js';

/** Whether the agent's own answer parses with its window's zod schema (DECISION_SCHEMAS). */
export function schemaIssues(inv: Invocation): string | null {
  if (inv.decision === undefined) return null;
  const parsed = DECISION_SCHEMAS[inv.window].safeParse(inv.decision);
  return parsed.success ? null : formatIssues(parsed.error.issues);
}

export function schemaCheck(inv: Invocation): Raw[] {
  const issues = schemaIssues(inv);
  if (issues === null) return [];
  const compact = inv.sample.request.constraints.compact;
  return [
    raw(
      'schema',
      'error',
      'schema',
      `the ${compact ? 'compact action' : inv.window} answer does not match its schema: ${issues}`,
      schemaHint(inv.window, compact),
      inv.window,
    ),
  ];
}
