/**
 * How close the standings' k-step bootstrap (REFIT_STEPS Newton steps from the full fit, per
 * resample: src/tournament/group-bootstrap.ts) comes to a full refit of each resample, by
 * tournament size. Prints one JSON line per size: the gap in μ (max over agents, per resample)
 * at p50 / p95 / max, and the interval endpoints' largest gap (what a reader would see move).
 *
 * Tournaments are simulated (no games played): six entrants with built-in-like strengths, a
 * round-robin at four-seat tables with every rotation of a deal (duplicate groups), placements
 * drawn from their Plackett–Luce model (Gumbel scores, seeded). Deterministic.
 *
 *   npm run bench:kstep
 *   BENCH_KSTEP_SEEDS=2,8 BENCH_KSTEP_RESAMPLES=200 npm run bench:kstep
 */
import { parseTournamentConfig } from '../src/tournament/config.js';
import { fitAll, fitGames, PRIOR_SD, SCALE } from '../src/tournament/fit-standings.js';
import { groupKey, groupResamples, interval, mulberry32 } from '../src/tournament/group-bootstrap.js';
import { compileGames, fitCompiled, newtonSteps } from '../src/tournament/plackett-luce.js';
import { roundRobinSchedule } from '../src/tournament/round-robin.js';
import type { GameResult } from '../src/tournament/types.js';

const list = (k: string, d: string) => (process.env[k] ?? d).split(',').map(Number);
const SEEDS = list('BENCH_KSTEP_SEEDS', '2,8,28');
const RESAMPLES = Number(process.env['BENCH_KSTEP_RESAMPLES'] ?? 1000);
/** The steps the standings take (REFIT_STEPS in group-bootstrap.ts). */
const STEPS = 2;
const ENTRANTS = ['balanced', 'turtle', 'aggressor', 'manipulator', 'random', 'trickster'];
/** θ per entrant, about the spread the docs' six built-ins fit to (μ 21.8–27.5). */
const THETA = [0.4, 0.38, 0.28, -0.07, -0.5, -0.55];

function tournament(seeds: number): GameResult[] {
  const parsed = parseTournamentConfig({ format: 'round-robin', entrants: ENTRANTS, seats: 4, seeds, seed: 3 }, () => ({ ok: true }));
  if (!parsed.ok) throw new Error(parsed.message);
  const next = mulberry32(seeds * 7919);
  return roundRobinSchedule(parsed.config).map((g) => {
    const scores = g.seats.map((a) => THETA[ENTRANTS.indexOf(a)]! - Math.log(-Math.log(Math.max(next(), 1e-12))));
    return { key: g.key, round: g.round, seats: g.seats, placements: scores.map((s) => 1 + scores.filter((t) => t > s).length) };
  });
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const sci = (x: number) => Number(x.toPrecision(2));

for (const seeds of SEEDS) {
  const results = tournament(seeds);
  const { agents, sorted, theta } = fitAll(ENTRANTS, results);
  const compiled = compileGames(agents.length, fitGames(agents, sorted));
  const gaps: number[] = [];
  const kstep = agents.map(() => [] as number[]);
  const full = agents.map(() => [] as number[]);
  for (const weights of groupResamples(sorted.map((r) => groupKey(r.key)), 3, RESAMPLES)) {
    const k = newtonSteps(compiled, weights, { priorSd: PRIOR_SD, start: theta, steps: STEPS });
    const f = fitCompiled(compiled, weights, { priorSd: PRIOR_SD, start: theta, sd: false }).theta;
    let gap = 0;
    for (let j = 0; j < agents.length; j++) {
      gap = Math.max(gap, SCALE * Math.abs(k[j]! - f[j]!));
      kstep[j]!.push(25 + SCALE * k[j]!);
      full[j]!.push(25 + SCALE * f[j]!);
    }
    gaps.push(gap);
  }
  const endpointGap = Math.max(
    ...agents.map((_, j) => {
      const [a, b] = [interval(25 + SCALE * theta[j]!, kstep[j]!), interval(25 + SCALE * theta[j]!, full[j]!)];
      return Math.max(Math.abs(a.low - b.low), Math.abs(a.high - b.high));
    }),
  );
  const widths = agents.map((_, j) => {
    const i = interval(25 + SCALE * theta[j]!, full[j]!);
    return i.high - i.low;
  });
  console.log(
    JSON.stringify({
      bench: 'kstep',
      games: results.length,
      groups: new Set(sorted.map((r) => groupKey(r.key))).size,
      resamples: RESAMPLES,
      steps: STEPS,
      mu_gap_p50: sci(quantile(gaps, 0.5)),
      mu_gap_p95: sci(quantile(gaps, 0.95)),
      mu_gap_max: sci(Math.max(...gaps)),
      interval_endpoint_gap_max: sci(endpointGap),
      narrowest_interval_width: Number(Math.min(...widths).toFixed(3)),
    }),
  );
}
