import { raw, type Raw } from './finding.js';
import type { Invocation } from './invocation.js';

const SHOWN = 120;

/** Stderr is allowed (seed 001 §2.2) but every byte of it lands in the traces: a warning. */
export function stderrCheck(inv: Invocation): Raw[] {
  const text = inv.stderr.trim();
  if (!text) return [];
  const first = text.split('\n')[0]!;
  const shown = first.length > SHOWN ? `${first.slice(0, SHOWN)}…` : first;
  return [
    raw(
      'stderr',
      'warning',
      'stderr',
      `wrote ${text.length} chars to stderr: ${JSON.stringify(shown)}`,
      'keep stderr for real problems (it is stored in the traces); report progress as log events, which traces show structured',
      inv.window,
    ),
  ];
}
