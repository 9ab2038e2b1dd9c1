/**
 * Fitting a conditional logit (McFadden): at each sampled position the seats still in compete,
 * P(seat i wins) = softmax(w·x_i), and w maximises the log likelihood of who actually won, with a
 * small ridge so rare features stay finite. Newton's method with a fixed iteration count: pure
 * arithmetic in a fixed order, so the same data gives the same weights on every run.
 */
import { softmax } from './model.js';

/** One sampled position: each living seat's features and its share of the win (1, 0, or a tie's split). */
export type Group = { rows: number[][]; won: number[] };

/** Solves A x = b for a symmetric positive definite A (Cholesky). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const l = a.map(() => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i]![j]!;
      for (let k = 0; k < j; k++) s -= l[i]![k]! * l[j]![k]!;
      l[i]![j] = i === j ? Math.sqrt(Math.max(s, 1e-12)) : s / l[j]![j]!;
    }
  }
  const y = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i]![k]! * y[k]!;
    y[i] = s / l[i]![i]!;
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < n; k++) s -= l[k]![i]! * x[k]!;
    x[i] = s / l[i]![i]!;
  }
  return x;
}

/**
 * @example fitConditionalLogit([{ rows: [[3], [1]], won: [1, 0] }], 1, { ridge: 1, iterations: 20 })
 */
export function fitConditionalLogit(groups: readonly Group[], dims: number, o: { ridge: number; iterations: number }): number[] {
  let w = new Array<number>(dims).fill(0);
  for (let it = 0; it < o.iterations; it++) {
    const grad = w.map((x) => -o.ridge * x);
    const hess = Array.from({ length: dims }, (_, i) => Array.from({ length: dims }, (_, j) => (i === j ? o.ridge : 0)));
    for (const g of groups) {
      const p = softmax(g.rows.map((x) => x.reduce((s, v, k) => s + v * w[k]!, 0)));
      const mean = new Array<number>(dims).fill(0);
      g.rows.forEach((x, i) => x.forEach((v, k) => (mean[k]! += p[i]! * v)));
      g.rows.forEach((x, i) => {
        for (let k = 0; k < dims; k++) grad[k]! += g.won[i]! * (x[k]! - mean[k]!);
        for (let a = 0; a < dims; a++) {
          const da = x[a]! - mean[a]!;
          if (da === 0) continue;
          const row = hess[a]!;
          for (let b = 0; b < dims; b++) row[b]! += p[i]! * da * (x[b]! - mean[b]!);
        }
      });
    }
    const step = solve(hess, grad);
    w = w.map((x, k) => x + step[k]!);
  }
  return w;
}
