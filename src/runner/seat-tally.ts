import type { ProviderCallRecord, SeatDecision } from '../agents/seat/types.js';
import type { TraceRecord } from '../store/index.js';
import type { HealthGame } from './agent-health.js';
import { degradedBy, type Degraded } from './degraded.js';

/** One in-memory game's answers as the store would keep them: traces, provider calls, and whether it degraded. */
export type SeatTally = {
  /** PlayOptions.onDecision: called after each step, so a trace already says whether the engine rejected it. */
  onDecision: (seat: number, answer: SeatDecision) => void;
  traces: TraceRecord[];
  calls: ProviderCallRecord[];
  /** The first answer that degraded the game (degraded.ts), or null. */
  degraded(): Degraded | null;
  /** agentHealth's input for this game, its seats labelled with their agents. */
  game(agents: readonly string[]): HealthGame;
};

/**
 * Collects what `play` and `simulate` need for the seats' health without a store: the figures
 * then come from the same seatSummaries / agentHealth as a stored game's.
 *
 * @example const tally = seatTally(); await playSeated(spec, 0, { onDecision: tally.onDecision }); seatSummaries(seats, tally.traces, tally.calls)
 */
export function seatTally(): SeatTally {
  const traces: TraceRecord[] = [];
  const calls: ProviderCallRecord[] = [];
  let degraded: Degraded | null = null;
  return {
    onDecision: (seat, answer) => {
      const t = answer.trace;
      if (t) traces.push({ player_id: `plr_${seat + 1}`, turn: t.turn, window: t.window, request_id: t.request_id, entries: t });
      calls.push(...(answer.calls ?? []));
      degraded ??= degradedBy(answer);
    },
    traces,
    calls,
    degraded: () => degraded,
    game: (agents) => ({ state: 'ended', entrants: agents, players: agents.map((_, i) => `plr_${i + 1}`), traces, calls }),
  };
}
