import type { WireEvent } from './history.js';

/**
 * Where "next phase", "previous round" and "jump to round 5, talk" land, from the event log
 * alone: the seqs of `phase_changed` events (a round starts at its first phase change).
 */
export type PhaseStop = { seq: number; turn: number; phase: string };

/** Every phase start in the log, in seq order. */
export function phaseStops(events: readonly WireEvent[]): PhaseStop[] {
  const stops: PhaseStop[] = [];
  for (const e of events) if (e.type === 'phase_changed') stops.push({ seq: e.seq, turn: e.turn, phase: e.phase });
  return stops;
}

/** The first stop after `seq` (dir 1) or the last one before it (dir −1), by phase or by round. */
export function stepStop(stops: readonly PhaseStop[], seq: number, dir: 1 | -1, by: 'phase' | 'round'): number | null {
  const list = by === 'phase' ? stops : stops.filter((s, i) => i === 0 || s.turn !== stops[i - 1]!.turn);
  if (dir === 1) return list.find((s) => s.seq > seq)?.seq ?? null;
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.seq < seq) return list[i]!.seq;
  return null;
}

/** The seq where round `turn` (and optionally `phase` in it) starts, or null if it never did. */
export function findStop(stops: readonly PhaseStop[], turn: number, phase: string | null): number | null {
  return stops.find((s) => s.turn === turn && (phase === null || s.phase === phase))?.seq ?? null;
}
