import { decisionCheck } from './decision-check.js';
import { exitCodeCheck } from './exit-code-check.js';
import type { CheckName, Raw } from './finding.js';
import type { Invocation } from './invocation.js';
import { latencyCheck } from './latency-check.js';
import { legalCheck } from './legal-check.js';
import { protocolCheck } from './protocol-check.js';
import { schemaCheck } from './schema-check.js';
import { stderrCheck } from './stderr-check.js';
import { violationsCheck } from './violations-check.js';

/** The checks every invocation goes through, by name. */
export const INVOCATION_CHECKS: ReadonlyArray<readonly [CheckName, (inv: Invocation) => Raw[]]> = [
  ['protocol', protocolCheck],
  ['exit_code', exitCodeCheck],
  ['violations', violationsCheck],
  ['stderr', stderrCheck],
  ['decision', decisionCheck],
  ['schema', schemaCheck],
  ['legal', legalCheck],
  ['latency', latencyCheck],
];

/** Every per-invocation finding of one invocation. */
export const checkInvocation = (inv: Invocation): Raw[] =>
  INVOCATION_CHECKS.flatMap(([, check]) => check(inv));
