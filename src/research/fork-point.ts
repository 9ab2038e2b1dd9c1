import { z } from 'zod';
import type { GameEvent } from '../protocol/index.js';
import type { RecordedDecision } from '../runner/decision-record.js';

/** Where to fork: at or after a seq, or at the start of a round (the engine's `turn`). */
export type ForkAt = { seq: number } | { round: number };

const AtText = z.union([
  z.string().regex(/^\d+$/).transform((s): ForkAt => ({ seq: Number(s) })),
  z.string().regex(/^round:\d+$/).transform((s): ForkAt => ({ round: Number(s.slice(6)) })),
]);

/**
 * `--at` as written: `<seq>` or `round:<N>`; null when it is neither.
 *
 * @example parseForkAt('round:3') // { round: 3 }
 */
export function parseForkAt(text: string): ForkAt | null {
  const r = AtText.safeParse(text.trim());
  return r.success ? r.data : null;
}

export const describeAt = (at: ForkAt): string => ('seq' in at ? `seq ${at.seq}` : `round ${at.round}`);

/**
 * The fork point for `at`: the seq of the first decision point at or after it (the state's seq
 * when a seat was first asked there). A round's start is the first decision asked with the log's
 * turn at that round or later. Null when the game records no such decision.
 */
export function forkPoint(at: ForkAt, log: readonly GameEvent[], decisions: readonly RecordedDecision[]): number | null {
  const hit = decisions.find((d) => d.seq_before >= 1 && ('seq' in at ? d.seq_before >= at.seq : (log[d.seq_before - 1]?.turn ?? -1) >= at.round));
  return hit ? hit.seq_before : null;
}
