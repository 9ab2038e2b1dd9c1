import { describe, expect, it } from 'vitest';
import { fitRatings, PRIOR_SD, SCALE } from '../../src/tournament/fit-standings.js';
import { fitPlackettLuce, type FitGame } from '../../src/tournament/plackett-luce.js';
import { prng } from '../../src/tournament/seeds.js';

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/** Root of a decreasing function on [lo, hi] by bisection: an independent solver for the tests. */
function bisect(f: (x: number) => number, lo: number, hi: number): number {
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** `wins` games won by seat 0 over seat 1 and `losses` the other way, as fit games. */
const pairs = (wins: number, losses: number): FitGame[] => [
  ...Array.from({ length: wins }, () => ({ seats: [0, 1], placements: [1, 2] })),
  ...Array.from({ length: losses }, () => ({ seats: [0, 1], placements: [2, 1] })),
];

/**
 * Hunter's (2004) MM algorithm for Plackett–Luce maximum likelihood of full rankings without ties
 * (his eq. 30): γᵢ ← wᵢ / Σ_j Σ_stages [i in the risk set] / Σ_risk γ. Written here from the paper,
 * independently of the Newton fit under test.
 */
function hunterMM(n: number, rankings: readonly number[][]): number[] {
  let gamma = new Array<number>(n).fill(1);
  const wins = new Array<number>(n).fill(0);
  for (const r of rankings) for (let k = 0; k < r.length - 1; k++) wins[r[k]!]! += 1;
  for (let iter = 0; iter < 20_000; iter++) {
    const denom = new Array<number>(n).fill(0);
    for (const r of rankings)
      for (let k = 0; k < r.length - 1; k++) {
        let sum = 0;
        for (let m = k; m < r.length; m++) sum += gamma[r[m]!]!;
        for (let m = k; m < r.length; m++) denom[r[m]!]! += 1 / sum;
      }
    const next = gamma.map((_, i) => wins[i]! / denom[i]!);
    const total = next.reduce((a, b) => a + b, 0);
    gamma = next.map((g) => (g * n) / total);
  }
  const logs = gamma.map(Math.log);
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  return logs.map((x) => x - mean);
}

describe('the Plackett–Luce fit', () => {
  it('given two agents and no prior, the log-odds are log(wins / losses) exactly (Bradley–Terry by hand)', () => {
    const fit = fitPlackettLuce(2, pairs(3, 1), { priorSd: null });
    expect(fit.theta[0]! - fit.theta[1]!).toBeCloseTo(Math.log(3), 9);
    expect(fit.theta[0]! + fit.theta[1]!).toBeCloseTo(0, 9);
  });

  it('given two agents and the prior, θ solves w − n·σ(2θ) − θ/τ² = 0 (found here by bisection)', () => {
    const [w, l] = [7, 2];
    const tau2 = PRIOR_SD * PRIOR_SD;
    const expected = bisect((t) => w - (w + l) * logistic(2 * t) - t / tau2, -10, 10);
    const fit = fitPlackettLuce(2, pairs(w, l), { priorSd: PRIOR_SD });
    expect(fit.theta[0]).toBeCloseTo(expected, 9);
    expect(fit.theta[1]).toBeCloseTo(-expected, 9);
    // σ from the curvature: the negative Hessian is [[a + 1/τ², −a], [−a, a + 1/τ²]] with
    // a = n·p(1 − p), so Var(θ₀) = (H⁻¹)₀₀ = (a + 1/τ²) / det H.
    const p = logistic(2 * expected);
    const a = (w + l) * p * (1 - p);
    const h = [a + 1 / tau2, -a];
    const det = h[0]! * h[0]! - h[1]! * h[1]!;
    expect(fit.sd[0]).toBeCloseTo(Math.sqrt(h[0]! / det), 9);
  });

  it('agrees with Hunter’s MM algorithm on random full rankings of 3–5 seats (maximum likelihood)', () => {
    const n = 5;
    const next = prng(42, 'pl-test');
    const strength = [1.2, 0.6, 0, -0.4, -1];
    const rankings: number[][] = [];
    for (let g = 0; g < 300; g++) {
      const size = 3 + Math.floor(next() * 3);
      const seated = [0, 1, 2, 3, 4].sort(() => next() - 0.5).slice(0, size);
      const scores = seated.map((i) => strength[i]! - Math.log(-Math.log(next() || 1e-12)));
      rankings.push(seated.map((i, k) => [i, scores[k]!] as const).sort((x, y) => y[1] - x[1]).map(([i]) => i));
    }
    const games: FitGame[] = rankings.map((r) => ({ seats: r, placements: r.map((_, k) => k + 1) }));
    const newton = fitPlackettLuce(n, games, { priorSd: null });
    const mm = hunterMM(n, rankings);
    for (let i = 0; i < n; i++) expect(newton.theta[i]).toBeCloseTo(mm[i]!, 6);
  });

  it('reproduces a published Bradley–Terry fit: the 1987 American League East (Agresti, Categorical Data Analysis, 2nd ed., §10.6)', () => {
    const teams = ['Milwaukee', 'Detroit', 'Toronto', 'New York', 'Boston', 'Cleveland', 'Baltimore'];
    // wins[i][j]: games team i won against team j (13 per pair).
    const wins = [
      [0, 7, 9, 7, 7, 9, 11],
      [6, 0, 7, 5, 11, 9, 9],
      [4, 6, 0, 7, 7, 8, 12],
      [6, 8, 6, 0, 6, 7, 10],
      [6, 2, 6, 7, 0, 7, 12],
      [4, 4, 5, 6, 6, 0, 6],
      [2, 4, 1, 3, 1, 7, 0],
    ];
    const games: FitGame[] = [];
    wins.forEach((row, i) => row.forEach((k, j) => games.push(...Array.from({ length: k }, () => ({ seats: [i, j], placements: [1, 2] })))));
    const theta = fitPlackettLuce(teams.length, games, { priorSd: null }).theta;
    // Published with Baltimore as the baseline (β = 0), to two decimals.
    const published = [1.58, 1.44, 1.29, 1.25, 1.11, 0.68, 0];
    teams.forEach((_, i) => expect(theta[i]! - theta[6]!).toBeCloseTo(published[i]!, 2));
  });

  it('on the rating scale, a μ gap of β√2 means e : 1 odds in a two-seat game', () => {
    // 1,000 games at e : 1 — the fit's μ gap (no prior pull to speak of) is close to SCALE.
    const won = Math.round((1000 * Math.E) / (1 + Math.E));
    const results = Array.from({ length: 1000 }, (_, i) => ({ key: `k${String(i).padStart(4, '0')}`, round: 0, seats: ['x', 'y'], placements: i < won ? [1, 2] : [2, 1] }));
    const r = fitRatings(['x', 'y'], results);
    expect((r.get('x')!.mu - r.get('y')!.mu) / SCALE).toBeCloseTo(1, 1);
  });
});
