/**
 * Game depth (issue 14): every acceptance figure in one JSON object, in memory, seats rotating
 * (game g of a line-up is seed DEPTH_SEED + g with the line-up rotated by g, as `simulate`).
 *
 *   npm run bench:depth                          # the acceptance run (slow: run it niced)
 *   DEPTH_GAMES=40 DEPTH_VS_GAMES=100 DEPTH_EXPERT_GAMES=10 npm run bench:depth   # a quick look
 *
 * Knobs: DEPTH_SEED (1), DEPTH_GAMES per four-seat line-up (200), DEPTH_VS_GAMES per "one vs three
 * balanced" and four-balanced run (400), DEPTH_EXPERT_GAMES per expert table (100; 0 skips),
 * DEPTH_EXPERT (the expert spec, expert:fast; any budget: expert:deep, expert:4x, expert:3000). The
 * budget curve and compact windows are bench/expert-curve.ts.
 */
import { performance } from 'node:perf_hooks';
import { playSeated, SimulationSpec } from '../src/runner/simulate.js';
import { SimStats, type SimFigures } from '../src/runner/sim-stats.js';
import type { ResearchFigures } from '../src/runner/research-figures.js';

const env = (k: string, d: number) => Number(process.env[k] ?? d);
const SEED = env('DEPTH_SEED', 1);
const GAMES = env('DEPTH_GAMES', 200);
const VS_GAMES = env('DEPTH_VS_GAMES', 400);
const EXPERT_GAMES = env('DEPTH_EXPERT_GAMES', 100);
const EXPERT = process.env['DEPTH_EXPERT'] ?? 'expert:fast';
const SIX = ['random', 'balanced', 'aggressor', 'turtle', 'manipulator', 'trickster'];
const HEURISTIC = SIX.slice(1);

type Run = { figures: SimFigures; research: ResearchFigures; wallMs: number; seatDecisions: Record<string, number> };

async function run(lineup: string[], games: number, also?: SimStats): Promise<Run> {
  const stats = new SimStats();
  const spec = SimulationSpec.parse({ games, seed: SEED, agents: lineup, seats: lineup.length });
  const seatDecisions: Record<string, number> = {};
  const start = performance.now();
  for (let g = 0; g < games; g++) {
    const { run: r, agents } = await playSeated(spec, g);
    for (const d of r.decisions) if (d.window === 'action') {
      const a = agents[Number(d.player_id.slice(4)) - 1]!;
      seatDecisions[a] = (seatDecisions[a] ?? 0) + 1;
    }
    stats.add({ events: r.events, decisions: r.decisions.length, agents });
    also?.add({ events: r.events, decisions: r.decisions.length, agents });
  }
  return { figures: stats.figures(), research: stats.research(), wallMs: performance.now() - start, seatDecisions };
}

const r3 = (x: number | null | undefined) => (x === null || x === undefined ? null : Math.round(x * 1000) / 1000);
const winOf = (f: SimFigures, a: string) => r3(f.byAgent[a]?.winRate);

const out: Record<string, unknown> = { seed: SEED, games_per_lineup: GAMES, vs_games: VS_GAMES, expert_games: EXPERT_GAMES };
const checks: Record<string, boolean> = {};

// 1. All 15 four-seat line-ups of the six built-ins; one pooled tally for the mixed figures.
const pooled = new SimStats();
const lineups: { lineup: string[]; win: Record<string, number | null>; medianRounds: number | null }[] = [];
const wins: Record<string, [number, number]> = {};
for (let a = 0; a < 6; a++) for (let b = a + 1; b < 6; b++) for (let c = b + 1; c < 6; c++) for (let d = c + 1; d < 6; d++) {
  const l = [SIX[a]!, SIX[b]!, SIX[c]!, SIX[d]!];
  const r = await run(l, GAMES, pooled);
  for (const n of l) {
    const w = (wins[n] ??= [0, 0]);
    w[0] += r.figures.byAgent[n]!.wins;
    w[1] += r.figures.byAgent[n]!.games;
  }
  lineups.push({ lineup: l, win: Object.fromEntries(l.map((n) => [n, winOf(r.figures, n)])), medianRounds: r.figures.medianRounds });
  process.stderr.write(`lineup ${l.join(',')} done\n`);
}
const overall = Object.fromEntries(Object.entries(wins).map(([k, [w, g]]) => [k, r3(w / g)]));
out['lineups'] = lineups;
out['win_rate_over_lineups'] = overall;
checks['heuristics_12_to_40'] = HEURISTIC.every((n) => overall[n]! >= 0.12 && overall[n]! <= 0.4);
checks['random_at_most_10'] = overall['random']! <= 0.1;

// 2. Manipulation success by agent and by plan over the mixed games (15 × 200 = 3,000 at the defaults).
const mixed = pooled.figures();
const manip = Object.fromEntries(pooled.research().agents.map((a) => [a.agent, { attempts: a.manipulation_given.attempts, success_rate: r3(a.manipulation_given.success_rate), by_plan: Object.fromEntries(Object.entries(a.by_plan).map(([p, o]) => [p, r3(o.success_rate)])) }]));
out['mixed'] = { games: mixed.games, manipulation_by_agent: manip, depth: mixed.depth };
const bestHeuristic = Math.max(...HEURISTIC.map((n) => manip[n]?.success_rate ?? 0));
checks['manipulation_best_beats_random_by_15pp'] = bestHeuristic - (manip['random']?.success_rate ?? 0) >= 0.15;

// 3. One against three balanced; four balanced (the engine's own targets).
for (const who of ['turtle', 'aggressor', 'random']) {
  const r = await run([who, 'balanced', 'balanced', 'balanced'], VS_GAMES);
  out[`${who}_vs_3_balanced`] = winOf(r.figures, who);
  process.stderr.write(`${who} vs 3 balanced done\n`);
}
checks['turtle_vs_3_balanced_at_most_30'] = (out['turtle_vs_3_balanced'] as number) <= 0.3;
checks['aggressor_vs_3_balanced_at_least_18'] = (out['aggressor_vs_3_balanced'] as number) >= 0.18;
checks['random_vs_3_balanced_at_most_15'] = (out['random_vs_3_balanced'] as number) <= 0.15;
const four = (await run(['balanced', 'balanced', 'balanced', 'balanced'], VS_GAMES)).figures;
const seatRates = four.seatWinRate.map((x) => x ?? 0);
const cardShares = Object.fromEntries(Object.entries(four.cardTypeShare).map(([k, v]) => [k, r3(v)]));
out['four_balanced'] = {
  seat_win_rate: seatRates.map(r3),
  spread: r3(Math.max(...seatRates) - Math.min(...seatRates)),
  median_rounds: four.medianRounds,
  round_cap_rate: r3(four.roundCapRate),
  card_type_share: cardShares,
  emotion_coupling: four.emotionCoupling,
};
checks['four_balanced_spread_at_most_5pp'] = Math.max(...seatRates) - Math.min(...seatRates) <= 0.05;
checks['median_rounds_8_to_20'] = (four.medianRounds ?? 0) >= 8 && (four.medianRounds ?? 99) <= 20;
checks['round_cap_at_most_15'] = (four.roundCapRate ?? 1) <= 0.15;
checks['card_types_at_least_3'] = Object.values(mixed.cardTypeShare).every((v) => (v ?? 0) >= 0.03) && Object.values(four.cardTypeShare).every((v) => (v ?? 0) >= 0.03);
checks['emotion_coupling_clear'] = (four.emotionCoupling.highFear ?? 0) > (four.emotionCoupling.lowFear ?? 1);

// 4. The expert: against three balanced, and at a six-seat table with the five heuristics.
if (EXPERT_GAMES > 0) {
  const vs = await run([EXPERT, 'balanced', 'balanced', 'balanced'], EXPERT_GAMES);
  const six = await run([EXPERT, ...HEURISTIC], EXPERT_GAMES);
  const perSec = (r: Run) => Math.round(((r.seatDecisions[EXPERT] ?? 0) / r.wallMs) * 1e5) / 100;
  out['expert'] = {
    spec: EXPERT,
    vs_3_balanced: winOf(vs.figures, EXPERT),
    six_seat: winOf(six.figures, EXPERT),
    six_seat_all: Object.fromEntries([EXPERT, ...HEURISTIC].map((n) => [n, winOf(six.figures, n)])),
    // Its searched (action) decisions per second of wall time, the other seats' time included.
    search_decisions_per_sec: { vs_3_balanced: perSec(vs), six_seat: perSec(six) },
  };
  checks['expert_vs_3_balanced_at_least_45'] = (winOf(vs.figures, EXPERT) ?? 0) >= 0.45;
  checks['expert_six_seat_at_least_35'] = (winOf(six.figures, EXPERT) ?? 0) >= 0.35;
}
out['checks'] = checks;
console.log(JSON.stringify(out));
