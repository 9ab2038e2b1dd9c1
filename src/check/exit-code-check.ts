import { raw, type Raw } from './finding.js';
import { FAILURE_HINTS } from './hints.js';
import type { Invocation } from './invocation.js';

/** Seed 001 §5.3: a non-zero exit (or a crash by signal) fails the invocation whatever it printed. */
export function exitCodeCheck(inv: Invocation): Raw[] {
  const f = inv.failure;
  if (!f || (f.code !== 'protocol/exit_code' && f.code !== 'protocol/signal')) return [];
  return [
    raw('exit_code', 'error', f.code, `${f.code}: ${f.message}`, FAILURE_HINTS[f.code], inv.window),
  ];
}
