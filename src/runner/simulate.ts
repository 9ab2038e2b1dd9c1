import { createHash, type Hash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { parseAgentSpec } from '../agents/seat/agent-spec.js';
import type { SeatContext } from '../agents/seat/types.js';
import { StrictRulesConfig, type RulesInput } from '../game/index.js';
import { MAX_SEED, Seed } from '../protocol/index.js';
import { buildSeats, defaultLineup, defaultSeats, seatConfigs } from './lineup.js';
import type { AgentResearch } from './research-figures.js';
import { dealsFor, gameAt, simSchedule } from './sim-schedule.js';
import { playGame, type PlayOptions } from './play-game.js';
import type { GameRun } from './run-game.js';
import { SimStats, type SimFigures } from './sim-stats.js';
import { agentHealth, isLlmAgent, type AgentHealth, type HealthGame } from './agent-health.js';
import { seatTally } from './seat-tally.js';
import type { Degraded } from './degraded.js';

const MAX_GAMES = 10_000_000;

/**
 * What a simulation runs, validated. Issues carry the option's name as their path, so a CLI can
 * name the offending flag.
 */
export const SimulationSpec = z
  .object({
    games: z.number().int('must be a whole number').min(1, 'must be at least 1').max(MAX_GAMES, `must be at most ${MAX_GAMES}`),
    seed: Seed,
    seats: z.number().int('must be a whole number').optional(),
    agents: z.array(z.string()).min(1, 'needs at least one agent').optional(),
    // Top-level typos in a rules file are errors, not silently dropped keys.
    rules: StrictRulesConfig.prefault({}),
  })
  .transform((o, ctx) => {
    const seats = o.seats ?? defaultSeats(o.agents);
    const lineup = o.agents ?? defaultLineup(seats);
    const { min_seats: min, max_seats: max } = o.rules;
    if (seats < min || seats > max) ctx.addIssue({ code: 'custom', path: ['seats'], message: `must be between ${min} and ${max}, got ${seats}` });
    for (const spec of new Set(lineup)) {
      const r = parseAgentSpec(spec);
      if (!r.ok) ctx.addIssue({ code: 'custom', path: ['agents'], message: r.message });
    }
    // More agents than seats: every line-up, so whole deals (the games round up to them).
    const schedule = seats >= min && seats <= max ? simSchedule(lineup.length, seats) : ({ mode: 'rotate' } as const);
    const deals = dealsFor(schedule, o.games);
    const games = schedule.mode === 'rotate' ? o.games : deals * schedule.gamesPerDeal;
    if (games > MAX_GAMES) ctx.addIssue({ code: 'custom', path: ['games'], message: `must be at most ${MAX_GAMES}: ${o.games} games round up to ${deals} deals of ${schedule.mode === 'rotate' ? 1 : schedule.gamesPerDeal} games (every line-up in every rotation)` });
    // Deal d is played with seed + d: the last one must be a seed too (compared without adding:
    // past 2^53 the sum itself would round).
    if (o.seed > MAX_SEED - (deals - 1))
      ctx.addIssue({
        code: 'custom',
        path: ['seed'],
        message:
          schedule.mode === 'rotate'
            ? `must be at most ${MAX_SEED - o.games + 1} for ${o.games} games (game g is played with seed + g, and seeds end at 2^53 − 1)`
            : `must be at most ${MAX_SEED - deals + 1} for ${deals} deals (deal d is played with seed + d, and seeds end at 2^53 − 1)`,
      });
    return { games, seed: o.seed, seats, lineup, rules: o.rules, schedule, deals };
  });
export type SimulationSpec = z.output<typeof SimulationSpec>;

export type SimulateOptions = {
  games: number;
  /** Game g (0-based) is played with seed `seed + g`, so game g of any run can be replayed alone. */
  seed: number;
  /** Default: the line-up's length when it names at least 2 agents, else 4. */
  seats?: number;
  /**
   * Agent specs (built-in names, skill:<folder>); seat i of game g gets `agents[(i + g) % agents.length]`.
   * With more agents than seats, every line-up of `seats` of them in every rotation per seed (see
   * SimSchedule; `games` rounds up to whole deals). Default: the registry's first `seats`.
   */
  agents?: readonly string[];
  rules?: RulesInput;
  /** Called after every game with the number done so far. */
  onProgress?: (done: number, total: number) => void;
};

export type SimulationResult = SimFigures & {
  /** Per LLM agent of the line-up, how its seats did (agent-health.ts); {} without LLM agents. */
  llm: Record<string, AgentHealth>;
  /** Games (0-based) in which an LLM seat ran out of budget (degraded.ts); [] without. */
  degraded: (Degraded & { game: number })[];
  seed: number;
  seats: number;
  lineup: string[];
  /** `rotate`: one table, seats rotating; `every-lineup`: more agents than seats (SimSchedule). */
  mode: 'rotate' | 'every-lineup';
  /** Tables of different agents played (1 when rotating). */
  lineups: number;
  /** Seeds played: seed … seed + deals − 1 (rotating: one per game). */
  deals: number;
  /** Per agent: manipulation given and received, slips, forced errors, tilt resilience, … (research-figures.ts). */
  research: AgentResearch[];
  windows: 'full' | 'compact';
  wallMs: number;
  eventsPerSec: number;
  gamesPerSec: number;
  decisionsPerSec: number;
  /** sha256 (hex) over every game's full events in order, each as `JSON.stringify(event) + "\n"`. */
  logHash: string;
};

/**
 * Plays game g of a simulation on its own: seed `spec.seed + g`, the line-up rotated by g (with
 * more agents than seats, game g of the every-line-up schedule: gameAt). So `play --seed S` shows
 * game 0 of `simulate --seed S`, event for event.
 */
export async function playSeated(spec: SimulationSpec, g: number, options: PlayOptions = {}, ctx: Pick<SeatContext, 'trace' | 'human'> = {}): Promise<{ run: GameRun; agents: string[]; seed: number }> {
  const { agents, seed } = gameAt(spec.schedule, spec.lineup, spec.seats, spec.seed, g);
  const seats = buildSeats(agents, seed, ctx);
  try {
    return { run: await playGame({ seats: seatConfigs(agents), rules: spec.rules }, seed, seats, options), agents, seed };
  } finally {
    await Promise.all(seats.map((s) => s.close()));
  }
}

/** What simulate keeps of each game it played: the running log hash and the balance figures. */
export type SimTally = { hash: Hash; stats: SimStats };

export const newTally = (): SimTally => ({ hash: createHash('sha256'), stats: new SimStats() });

/**
 * Simulate's work on one played game beyond playing it: every event into the log hash, the game
 * into the figures. Exported so a benchmark can compare against exactly what simulate does.
 */
export function tallyGame(tally: SimTally, run: GameRun, agents: string[], cluster?: string): void {
  for (const e of run.events) tally.hash.update(JSON.stringify(e) + '\n');
  tally.stats.add({ events: run.events, decisions: run.decisions.length, agents, ...(cluster === undefined ? {} : { cluster }) });
}

/**
 * Runs N seeded games in memory and reports throughput, a hash of the logs, and balance figures.
 * Deterministic when the agents are: the same options give the same logHash and figures (timings
 * aside). Invalid options throw (a ZodError naming the option).
 *
 * @example
 * const r = await simulate({ games: 100, seed: 1, agents: ['random', 'skill:skills/python-example'] });
 * r.logHash; r.seatWinRate; r.byAgent.random.meanPlacement;
 */
export async function simulate(options: SimulateOptions): Promise<SimulationResult> {
  const { onProgress, ...rest } = options;
  const spec = SimulationSpec.parse(rest);
  const tally = newTally();
  const start = performance.now();
  // LLM seats are traced (built-ins are not: it would slow every simulation) for their health.
  const llmAgents = [...new Set(spec.lineup)].filter(isLlmAgent);
  const health: HealthGame[] = [];
  const degraded: SimulationResult['degraded'] = [];
  for (let g = 0; g < spec.games; g++) {
    const seen = llmAgents.length ? seatTally() : null;
    const { run, agents, seed } = await playSeated(spec, g, seen ? { onDecision: seen.onDecision } : {}, { trace: seen !== null });
    if (seen) health.push(seen.game(agents));
    const d = seen?.degraded();
    if (d) degraded.push({ game: g, ...d });
    // The games of one deal share its seed (every line-up and rotation): the research intervals resample them together.
    tallyGame(tally, run, agents, `deal ${seed}`);
    onProgress?.(g + 1, spec.games);
  }
  const wallMs = performance.now() - start;
  const { games, ...figures } = tally.stats.figures();
  const perSec = (n: number) => (wallMs > 0 ? Math.round((n / wallMs) * 1000) : 0);
  return {
    games,
    seed: spec.seed,
    seats: spec.seats,
    lineup: spec.lineup,
    mode: spec.schedule.mode,
    lineups: spec.schedule.mode === 'rotate' ? 1 : spec.schedule.tables.length,
    deals: spec.deals,
    windows: spec.rules.windows,
    wallMs: Math.round(wallMs * 10) / 10,
    eventsPerSec: perSec(figures.events),
    gamesPerSec: wallMs > 0 ? Math.round((games / wallMs) * 1e5) / 100 : 0,
    decisionsPerSec: perSec(figures.decisions),
    logHash: tally.hash.digest('hex'),
    ...figures,
    research: tally.stats.research().agents,
    llm: agentHealth(llmAgents, health),
    degraded,
  };
}
