/**
 * How much one more deal among a set of entrants would teach the ranking: the matchmaker's score.
 *
 * The fit (tournament/plackett-luce.ts) gives θ and, from its curvature, the posterior covariance
 * Σ (the Laplace approximation). A deal among members T adds, in expectation, its Fisher
 * information J_T to the posterior precision, so the covariance after it is (Σ⁻¹ + J_T)⁻¹, which
 * the Woodbury identity gives from Σ with one k×k solve: Σ' = Σ − Σ_{·T} (I + J_T Σ_TT)⁻¹ J_T Σ_{T·}.
 * Per pair (i, j) the variance v of θᵢ − θⱼ becomes v' and the score adds
 *
 *   w_ij · exp(−Δ²/2v) · ½ ln(v / v')
 *
 * ½ ln(v/v') is the information the deal gives about the difference (the entropy drop of a
 * Gaussian, in nats); exp(−Δ²/2v) is how much the pair's order is still in doubt (1 when the fit
 * cannot tell them apart, ~0 once they are many σ apart); w_ij says whether the pair matters (see
 * `pairWeights`). It is a fast proxy for the expected information gain on the ranking: the
 * Hessian is already computed by the fit, where a bootstrap per candidate deal would cost hundreds
 * of refits per choice (group-bootstrap.ts stays the leaderboard's interval; this only steers).
 */

/**
 * The expected Fisher information of one game among entrants of log-worth `theta` (k×k, row-major):
 * the expected negative Hessian of the Plackett–Luce log-likelihood. A game is a sequence of
 * stages; a stage with remaining set R contributes diag(p) − ppᵀ, p the softmax of θ over R. The
 * expectation runs over which sets are reached, by dynamic programming over subsets (2^k of them:
 * exact, and cheap at table sizes).
 */
export function gameInformation(theta: readonly number[]): Float64Array {
  const k = theta.length;
  const e = theta.map((t) => Math.exp(t));
  const full = (1 << k) - 1;
  const reach = new Float64Array(1 << k);
  reach[full] = 1;
  const info = new Float64Array(k * k);
  // Larger sets first: a set is reached from every superset with one more member.
  for (let set = full; set > 0; set--) {
    const pr = reach[set]!;
    if (pr === 0) continue;
    let total = 0;
    for (let i = 0; i < k; i++) if (set & (1 << i)) total += e[i]!;
    for (let i = 0; i < k; i++) {
      if (!(set & (1 << i))) continue;
      const pi = e[i]! / total;
      reach[set & ~(1 << i)]! += pr * pi;
      info[i * k + i]! += pr * pi;
      for (let j = 0; j < k; j++) if (set & (1 << j)) info[i * k + j]! -= pr * pi * (e[j]! / total);
    }
  }
  return info;
}

/** Solves the k×k system a x = b for every column of b (Gaussian elimination, partial pivoting); a and b are overwritten. */
function solveInPlace(a: Float64Array, b: Float64Array, k: number): Float64Array {
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(a[r * k + c]!) > Math.abs(a[p * k + c]!)) p = r;
    if (p !== c)
      for (let j = 0; j < k; j++) {
        [a[c * k + j], a[p * k + j]] = [a[p * k + j]!, a[c * k + j]!];
        [b[c * k + j], b[p * k + j]] = [b[p * k + j]!, b[c * k + j]!];
      }
    const pivot = a[c * k + c]!;
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = a[r * k + c]! / pivot;
      if (f === 0) continue;
      for (let j = 0; j < k; j++) {
        a[r * k + j]! -= f * a[c * k + j]!;
        b[r * k + j]! -= f * b[c * k + j]!;
      }
    }
  }
  for (let r = 0; r < k; r++) for (let j = 0; j < k; j++) b[r * k + j]! /= a[r * k + r]!;
  return b;
}

export type RankingState = {
  /** θ per entrant (the fit's posterior mode). */
  theta: Float64Array;
  /** The posterior covariance, n×n row-major. */
  cov: Float64Array;
  /** Pairs (i < j) that count, each with w = w_ij · exp(−Δ²/2v) (pairs left out weigh 0). */
  pairs: readonly { i: number; j: number; w: number }[];
};

/**
 * The pairs the ranking's uncertainty is measured on, over the schedulable entrants `ranked`
 * (indices, best first by θ): every pair among them, or with `focusTop` only pairs with at least
 * one member in the top `focusTop` — the order within the top and the cut below it; the order far
 * below is left to the idle rule (w_ij is 1 for a pair that counts, 0 otherwise). Each carries its
 * doubt exp(−Δ²/2v); pairs beyond doubt (about 6σ apart: doubt below 1e-8) are dropped.
 */
export function pairWeights(theta: Float64Array, cov: Float64Array, ranked: readonly number[], focusTop: number | null): RankingState['pairs'] {
  const n = theta.length;
  const out: { i: number; j: number; w: number }[] = [];
  for (let a = 0; a < ranked.length; a++)
    for (let b = a + 1; b < ranked.length; b++) {
      if (focusTop !== null && a >= focusTop) continue;
      const i = ranked[a]!;
      const j = ranked[b]!;
      const v = cov[i * n + i]! + cov[j * n + j]! - 2 * cov[i * n + j]!;
      const d = theta[i]! - theta[j]!;
      const doubt = Math.exp((-d * d) / (2 * v));
      if (doubt > 1e-8) out.push({ i: Math.min(i, j), j: Math.max(i, j), w: doubt });
    }
  return out;
}

/**
 * The score of one deal among `members` (entrant indices), played in `rotations` games: the sum
 * over `state.pairs` of w · ½ ln(v / v'), v' the pair's variance after the deal's expected
 * information (see the file comment).
 *
 * @example dealScore(state, [0, 3, 4, 7], 4) > dealScore(state, [0, 3, 4, 7], 1)
 */
export function dealScore(state: RankingState, members: readonly number[], rotations: number): number {
  const { theta, cov, pairs } = state;
  const n = theta.length;
  const k = members.length;
  const j = gameInformation(members.map((m) => theta[m]!));
  for (let x = 0; x < j.length; x++) j[x]! *= rotations;
  // M = (I + J Σ_TT)⁻¹ J, so that Σ' = Σ − B M Bᵀ with B = Σ_{·T}.
  const a = new Float64Array(k * k);
  for (let r = 0; r < k; r++)
    for (let c = 0; c < k; c++) {
      let s = r === c ? 1 : 0;
      for (let t = 0; t < k; t++) s += j[r * k + t]! * cov[members[t]! * n + members[c]!]!;
      a[r * k + c] = s;
    }
  const m = solveInPlace(a, j, k);
  // Σ − Σ' = B M Bᵀ with B = Σ_{·T}: G = B M once, then each pair's drop is q_ii + q_jj − 2 q_ij, q_xy = G_x · B_y.
  const g = new Float64Array(n * k);
  const q = new Float64Array(n);
  for (let x = 0; x < n; x++) {
    let qq = 0;
    for (let c = 0; c < k; c++) {
      let s = 0;
      for (let r = 0; r < k; r++) s += cov[x * n + members[r]!]! * m[r * k + c]!;
      g[x * k + c] = s;
      qq += s * cov[x * n + members[c]!]!;
    }
    q[x] = qq;
  }
  let score = 0;
  for (const p of pairs) {
    const v = cov[p.i * n + p.i]! + cov[p.j * n + p.j]! - 2 * cov[p.i * n + p.j]!;
    let cross = 0;
    for (let c = 0; c < k; c++) cross += g[p.i * k + c]! * cov[p.j * n + members[c]!]!;
    const drop = q[p.i]! + q[p.j]! - 2 * cross;
    // The prior keeps v' > 0; the floor only guards rounding.
    const after = Math.max(v - drop, v * 1e-12);
    score += p.w * 0.5 * Math.log(v / after);
  }
  return score;
}
