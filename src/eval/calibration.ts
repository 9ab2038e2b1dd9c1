/**
 * How well stated chances match what happened: expected calibration error over 10 equal-width
 * bins, the Brier score and the log loss. One observation is one living seat at one position
 * (its stated chance, and 1 if it went on to win, a tie's share, or 0).
 */
export type Observation = { p: number; won: number };

/** A reliability bin: the mean stated chance and the observed win rate of the observations in it. */
export type Bin = { from: number; to: number; n: number; mean_p: number; win_rate: number };

export type Calibration = { observations: number; ece: number; brier: number; log_loss: number; bins: Bin[] };

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

/**
 * `positions` groups the observations of one position, so the log loss is the winner's (the
 * cross-entropy of the table's distribution), as a multi-class model is scored.
 *
 * @example calibration([[{ p: 0.7, won: 1 }, { p: 0.3, won: 0 }]]).brier // 0.09
 */
export function calibration(positions: readonly (readonly Observation[])[], binCount = 10): Calibration {
  const sums = Array.from({ length: binCount }, () => ({ n: 0, p: 0, won: 0 }));
  let n = 0;
  let sq = 0;
  let ll = 0;
  for (const pos of positions) {
    for (const o of pos) {
      const b = sums[Math.min(binCount - 1, Math.floor(o.p * binCount))]!;
      b.n++;
      b.p += o.p;
      b.won += o.won;
      n++;
      sq += (o.p - o.won) ** 2;
      if (o.won > 0) ll -= o.won * Math.log(Math.max(1e-12, o.p));
    }
  }
  let ece = 0;
  const bins: Bin[] = sums.map((b, i) => {
    if (b.n) ece += (b.n / n) * Math.abs(b.p / b.n - b.won / b.n);
    return { from: i / binCount, to: (i + 1) / binCount, n: b.n, mean_p: b.n ? r4(b.p / b.n) : 0, win_rate: b.n ? r4(b.won / b.n) : 0 };
  });
  return { observations: n, ece: r4(ece), brier: r4(sq / Math.max(1, n)), log_loss: r4(ll / Math.max(1, positions.length)), bins };
}
