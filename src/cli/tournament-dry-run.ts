import { parseAgentSpec } from '../agents/seat/agent-spec.js';
import { builtinSeat } from '../agents/seat/builtin-seat.js';
import { costOf } from '../providers/pricing.js';
import type { PriceTable } from '../providers/types.js';
import { seatConfigs } from '../runner/lineup.js';
import { playGame } from '../runner/play-game.js';
import type { EventStore, ModelUsage } from '../store/index.js';
import { gameRules, parseTournamentConfig } from '../tournament/config.js';
import { planTournament } from '../tournament/plan.js';
import { deriveSeed } from '../tournament/seeds.js';
import type { TournamentConfig } from '../tournament/types.js';
import { num, table } from './format.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { configIssue } from './tournament-flags.js';
import { withStore } from './store-session.js';

/** Sample games that measure decisions per seat (built-in stand-ins, the tournament's rules). */
const SAMPLE_GAMES = 3;

/**
 * Tokens per call when the store has no calls of a model yet: a game request with its history is
 * typically 1,500–4,000 tokens in, an answer 150–800 out. Stated in the output as an assumption.
 */
const ASSUMED = { input: { p25: 1500, p90: 4000, max: 12_000 }, output: { p25: 150, p90: 800, max: 0 }, callsPerDecision: { low: 1, high: 2 } } as const;

/** Calls a decision makes at most when no call fails: the answer and one repair turn. */
const CALLS_PER_DECISION_BOUND = 2;

type Range = { low: number; high: number };

/** One LLM entrant's share of the plan. */
export type LlmEstimate = {
  agent: string;
  provider: string;
  model: string;
  games: number;
  decisions: number;
  calls: Range;
  tokens: { source: 'measured' | 'assumed'; calls_seen: number; input: Range; output: Range };
  /**
   * The likely range: calls at the measured (or assumed) rate, tokens at the 25th–90th
   * percentile. Null when the price table has no entry for the model.
   */
  cost_usd: Range | null;
  /**
   * A bound, not a guess: every game to the round cap, every decision answered and repaired,
   * every reply `max_tokens` long (or the longest seen, if longer), every prompt as long as the
   * longest seen. Only failed calls retried (timeouts, 429, 5xx) can pass it.
   */
  bound_usd: number | null;
  bound: { calls: number; input_tokens: number; output_tokens: number };
};

export type DryRun = { games: number; upper_bound: boolean; decisions_per_seat_game: number; decisions_per_seat_game_bound: number; llm: LlmEstimate[]; cost_usd: Range; bound_usd: number; unpriced: string[] };

/** Decisions a seat takes per game under these rules, measured on sample games with built-in seats. */
async function decisionsPerSeat(config: TournamentConfig): Promise<{ mean: number; bound: number }> {
  const agents = Array.from({ length: config.seats }, () => 'balanced');
  let decisions = 0;
  let perRound = 0;
  let roundCap = 0;
  for (let g = 0; g < SAMPLE_GAMES; g++) {
    const seed = deriveSeed(config.seed, 'dry-run', g);
    const seats = agents.map((a, seat) => builtinSeat('balanced', { gameSeed: seed, seat }, a));
    const run = await playGame({ seats: seatConfigs(agents), rules: gameRules(config) }, seed, seats);
    decisions += run.decisions.length;
    // A game that lasted longer would take as many decisions a round, up to the round cap.
    perRound = Math.max(perRound, run.decisions.length / config.seats / Math.max(1, run.state.turn));
    roundCap = run.state.rules.round_cap;
  }
  return { mean: decisions / SAMPLE_GAMES / config.seats, bound: Math.ceil(perRound * roundCap) };
}

/** The estimate of one LLM entrant, from measured usage when the store has some, else the assumptions. */
function estimate(agent: string, games: number, perSeat: { mean: number; bound: number }, ref: { provider: string; model: string }, usage: ModelUsage | null, setup: { prices: PriceTable; maxOutputTokens: number }): LlmEstimate {
  const prices = setup.prices;
  const decisions = Math.round(games * perSeat.mean);
  const ratio = usage && usage.decisions > 0 ? usage.calls / usage.decisions : null;
  const calls = ratio === null ? { low: decisions * ASSUMED.callsPerDecision.low, high: decisions * ASSUMED.callsPerDecision.high } : { low: Math.round(decisions * ratio), high: Math.round(decisions * ratio * 1.25) };
  const tokens = usage ?? { calls: 0, input_tokens: ASSUMED.input, output_tokens: ASSUMED.output };
  const price = (n: number, input: number, output: number) => costOf(prices, ref.model, { inputTokens: n * input, outputTokens: n * output });
  const low = price(calls.low, tokens.input_tokens.p25, tokens.output_tokens.p25);
  const high = price(calls.high, tokens.input_tokens.p90, tokens.output_tokens.p90);
  const perDecision = Math.max(CALLS_PER_DECISION_BOUND, Math.ceil(ratio ?? 0));
  const bound = { calls: games * perSeat.bound * perDecision, input_tokens: Math.max(tokens.input_tokens.max, ASSUMED.input.max), output_tokens: Math.max(tokens.output_tokens.max, setup.maxOutputTokens) };
  const worst = price(bound.calls, bound.input_tokens, bound.output_tokens);
  return {
    agent,
    ...ref,
    games,
    decisions,
    calls,
    tokens: { source: usage ? 'measured' : 'assumed', calls_seen: usage?.calls ?? 0, input: { low: tokens.input_tokens.p25, high: tokens.input_tokens.p90 }, output: { low: tokens.output_tokens.p25, high: tokens.output_tokens.p90 } },
    cost_usd: low.known ? { low: low.usd, high: high.usd } : null,
    bound_usd: low.known ? worst.usd : null,
    bound,
  };
}

/** `tiltyard tournament … --dry-run`: the plan and its cost, playing and spending nothing. */
export async function planOf(store: EventStore, input: unknown): Promise<DryRun> {
  const parsed = parseTournamentConfig(input);
  if (!parsed.ok) throw new UsageError(configIssue(parsed.message));
  const config = parsed.config;
  const plan = planTournament(config);
  const perSeat = await decisionsPerSeat(config);
  const llm: LlmEstimate[] = [];
  for (const { agent, games } of plan.seats) {
    const spec = parseAgentSpec(agent);
    if (!spec.ok || spec.agent.kind !== 'llm') continue;
    const ref = spec.agent.chain[0]!;
    llm.push(estimate(agent, games, perSeat, ref, await store.modelUsage(ref.provider, ref.model), spec.agent.setup));
  }
  const priced = llm.filter((e) => e.cost_usd);
  return {
    games: plan.games,
    upper_bound: plan.upper_bound,
    decisions_per_seat_game: perSeat.mean,
    decisions_per_seat_game_bound: perSeat.bound,
    llm,
    cost_usd: { low: priced.reduce((s, e) => s + e.cost_usd!.low, 0), high: priced.reduce((s, e) => s + e.cost_usd!.high, 0) },
    bound_usd: priced.reduce((s, e) => s + e.bound_usd!, 0),
    unpriced: llm.filter((e) => !e.cost_usd).map((e) => e.model),
  };
}

const usd = (x: number) => `$${x < 10 ? x.toFixed(2) : Math.round(x).toLocaleString('en-US')}`;
const range = (r: Range, f: (x: number) => string = (x) => Math.round(x).toLocaleString('en-US')) => (r.low === r.high ? f(r.low) : `${f(r.low)}–${f(r.high)}`);

export async function dryRun(io: CliIo, input: unknown, options: { json: boolean }): Promise<number> {
  return withStore(
    io,
    async (store) => {
      const run = await planOf(store, input);
      if (options.json) {
        io.out(`${JSON.stringify({ dry_run: true, ...run })}\n`);
        return EXIT.ok;
      }
      const lines = [`Plan: ${run.games} games${run.upper_bound ? ' at most (the stop rule may end it sooner)' : ''}; a seat takes about ${num(run.decisions_per_seat_game)} decisions a game (measured on ${SAMPLE_GAMES} sample games with built-in seats under these rules). Nothing was played.`];
      if (run.llm.length === 0) lines.push('', 'No LLM seats: the tournament costs nothing in provider calls.');
      else {
        lines.push('', ...table([['LLM seat', 'games', 'decisions', 'calls', 'tokens in / out per call', 'likely cost', 'at most'], ...run.llm.map((e) => [e.agent, String(e.games), e.decisions.toLocaleString('en-US'), range(e.calls), `${range(e.tokens.input)} / ${range(e.tokens.output)} (${e.tokens.source === 'measured' ? `measured on ${e.tokens.calls_seen} calls` : 'assumed'})`, e.cost_usd ? range(e.cost_usd, usd) : 'no price', e.bound_usd === null ? 'no price' : usd(e.bound_usd)])], 2));
        lines.push('', `Estimated cost: ${range(run.cost_usd, usd)} likely (calls at the usual rate, tokens at the 25th–90th percentile), at most ${usd(run.bound_usd)} (every game to the round cap, every decision repaired once, every reply max_tokens long, every prompt as long as the longest seen; only retried failures can pass it), at the price table's list prices (override them in the providers file: docs/providers.md).`);
        if (run.unpriced.length) lines.push(`No price for ${run.unpriced.join(', ')}: add one to the providers file to include it.`);
        lines.push('Cap the spend with --max-cost-usd X: no call is sent that could take the spend past X.');
      }
      io.out(`${lines.join('\n')}\n`);
      return EXIT.ok;
    },
    { quiet: options.json },
  );
}
