import { performance } from 'node:perf_hooks';
import { isPlainObject, type GameEvent } from '../protocol/index.js';
import { playGame } from '../runner/play-game.js';
import { resolveSpecs, seatAgents, seatConfigs } from '../runner/lineup.js';
import type { Decision } from '../runner/run-game.js';
import type { AgentSpec } from '../agents/seat/agent-spec.js';
import { createSeat } from '../agents/seat/create-seat.js';
import type { DecisionTrace, SeatDecision } from '../agents/seat/types.js';

/** The built-ins the skill plays against; the skill sits in a different seat each game. */
export const OPPONENTS = ['balanced', 'aggressor', 'manipulator'] as const;

export type GamesFigures = {
  games: number;
  seeds: number[];
  /** Odd games use compact windows, so both rule sets are played. */
  windows: Array<'full' | 'compact'>;
  /** Windows the skill was asked to answer. */
  decisions: number;
  /** Answers the skill gave itself (not failed, not its fallback agent's). */
  answered: number;
  legal: number;
  legal_rate: number | null;
  illegal_codes: Record<string, number>;
  failures: number;
  failure_codes: Record<string, number>;
  /** Answers its fallback agent gave (plan degrade, or after the runtime gave up on the skill). */
  fallback_answers: number;
  action_answers: number;
  passes: number;
  pass_rate: number | null;
  latency_ms: { p50: number; p90: number; max: number } | null;
  /** The skill's placement in each game (1 = won). */
  placements: number[];
  /** The skill's health at the end of each game. */
  health: string[];
  wall_ms: number;
};

type Tally = Omit<
  GamesFigures,
  'games' | 'seeds' | 'windows' | 'legal_rate' | 'pass_rate' | 'latency_ms' | 'wall_ms'
> & { latencies: number[] };

const emptyTally = (): Tally => ({
  decisions: 0,
  answered: 0,
  legal: 0,
  illegal_codes: {},
  failures: 0,
  failure_codes: {},
  fallback_answers: 0,
  action_answers: 0,
  passes: 0,
  placements: [],
  health: [],
  latencies: [],
});
const COUNTS = [
  'decisions',
  'answered',
  'legal',
  'failures',
  'fallback_answers',
  'action_answers',
  'passes',
] as const;

function merge(into: Tally, t: Tally): Tally {
  for (const k of COUNTS) into[k] += t[k];
  for (const [c, n] of Object.entries(t.illegal_codes))
    into.illegal_codes[c] = (into.illegal_codes[c] ?? 0) + n;
  for (const [c, n] of Object.entries(t.failure_codes))
    into.failure_codes[c] = (into.failure_codes[c] ?? 0) + n;
  into.placements.push(...t.placements);
  into.health.push(...t.health);
  into.latencies.push(...t.latencies);
  return into;
}

/** An action answer that passes (in compact windows too: the first action is the one that counts). */
const isPass = (d: unknown): boolean =>
  isPlainObject(d) &&
  isPlainObject(d['selected_action']) &&
  d['selected_action']['kind'] === 'pass';

const bump = (m: Record<string, number>, k: string) => void (m[k] = (m[k] ?? 0) + 1);
const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 1e4) / 1e4 : null);
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** The engine refused this seat's answer in this step: a rejection, or (intent) a defaulted plan. */
export function rejectionIn(events: readonly GameEvent[], player: string): string | null {
  for (const e of events) {
    if (e.type === 'action_rejected' && e.payload.player_id === player)
      return e.payload.code ?? 'rejected';
    if (
      e.type === 'secret_plan_committed' &&
      e.payload.player_id === player &&
      e.payload.defaulted &&
      e.payload.rejection
    )
      return e.payload.rejection.code;
  }
  return null;
}

/** The events each decision produced: those after its seq, up to the next decision's. */
function eventsByDecision(
  decisions: readonly Decision[],
  events: readonly GameEvent[],
): GameEvent[][] {
  const out: GameEvent[][] = decisions.map(() => []);
  let j = 0;
  for (const e of events) {
    while (j + 1 < decisions.length && e.seq > decisions[j + 1]!.seq) j++;
    if (decisions.length && e.seq > decisions[j]!.seq) out[j]!.push(e);
  }
  return out;
}

/** Folds one decision of the skill into the tally. */
export function tallyDecision(
  t: Tally,
  trace: DecisionTrace,
  decision: unknown,
  stepEvents: readonly GameEvent[],
): void {
  t.decisions++;
  if (trace.fallback?.startsWith('agent:')) {
    t.fallback_answers++;
    if (trace.failure) {
      t.failures++;
      bump(t.failure_codes, trace.failure.code);
    }
    return;
  }
  t.latencies.push(trace.latency_ms);
  if (!trace.ok || decision === undefined) {
    t.failures++;
    bump(t.failure_codes, trace.failure?.code ?? 'unknown');
    return;
  }
  t.answered++;
  const rejected = rejectionIn(stepEvents, trace.player_id);
  if (rejected) bump(t.illegal_codes, rejected);
  else t.legal++;
  if (trace.window === 'action') {
    t.action_answers++;
    if (isPass(decision)) t.passes++;
  }
}

async function playOne(skill: AgentSpec, seed: number, g: number, t: Tally): Promise<void> {
  const specs = seatAgents([skill.spec, ...OPPONENTS], OPPONENTS.length + 1, g);
  const mine = specs.indexOf(skill.spec);
  const agents = resolveSpecs(specs).map((a, i) => (i === mine ? skill : a));
  const seats = agents.map((a, i) => createSeat(a, { gameSeed: seed, seat: i, trace: i === mine }));
  const answers: SeatDecision[] = [];
  const rules = g % 2 === 1 ? { windows: 'compact' as const } : {};
  try {
    const run = await playGame({ seats: seatConfigs(specs), rules }, seed, seats, {
      onDecision: (seat, a) => void (seat === mine && answers.push(a)),
    });
    const player = `plr_${mine + 1}`;
    const steps = eventsByDecision(run.decisions, run.events);
    let k = 0;
    run.decisions.forEach((d, i) => {
      if (d.player_id !== player) return;
      const trace = answers[k++]?.trace;
      if (trace) tallyDecision(t, trace, d.decision, steps[i]!);
    });
    if (answers.length) t.health.push(answers[answers.length - 1]!.trace?.health ?? 'healthy');
    const end = run.events.find((e) => e.type === 'game_ended');
    const placement =
      end?.type === 'game_ended'
        ? end.payload.placements.find((p) => p.player_id === player)?.placement
        : undefined;
    if (placement !== undefined) t.placements.push(placement);
  } finally {
    await Promise.all(seats.map((s) => s.close()));
  }
}

/**
 * Plays `count` full games of the skill against built-ins, concurrently (an external agent spends
 * its time in its own processes): game g uses seed `seed + g`, the skill in seat g mod 4, compact
 * windows when g is odd. Figures count only the skill's own answers.
 */
export async function playGames(
  skill: AgentSpec,
  count: number,
  seed: number,
): Promise<GamesFigures> {
  const started = performance.now();
  const tallies = Array.from({ length: count }, emptyTally);
  await Promise.all(tallies.map((t, g) => playOne(skill, seed + g, g, t)));
  const { latencies, ...totals } = tallies.reduce(merge, emptyTally());
  const lat = latencies.sort((a, b) => a - b);
  return {
    games: count,
    seeds: tallies.map((_, g) => seed + g),
    windows: tallies.map((_, g) => (g % 2 === 1 ? 'compact' : 'full')),
    ...totals,
    legal_rate: ratio(totals.legal, totals.answered),
    pass_rate: ratio(totals.passes, totals.action_answers),
    latency_ms: lat.length
      ? { p50: quantile(lat, 0.5), p90: quantile(lat, 0.9), max: lat[lat.length - 1]! }
      : null,
    wall_ms: Math.round(performance.now() - started),
  };
}
