/**
 * A Plackett–Luce fit of full finishing orders, maximum a posteriori under a Gaussian prior.
 *
 * Model (Plackett 1975; Luce 1959): a game's finishing order is built from the top — the winner is
 * drawn from all seats with probability e^θᵢ / Σ e^θⱼ, the runner-up from the rest, and so on.
 * Ties share a placement and are handled the way Breslow (1974) handles tied event times: a group
 * of d seats tied at one placement contributes Πᵢ e^θᵢ / (Σ_R e^θⱼ)^d, R being every seat at that
 * placement or worse. A tie therefore pulls its members together, and a last-place tie is evidence
 * that they are level. With two seats and no ties this is the Bradley–Terry model.
 *
 * The log posterior is strictly concave (the log-likelihood is concave and the prior is a strict
 * Gaussian), so it has one maximum whatever order the games come in, and Newton's method (with
 * step halving, which concavity makes safe) reaches it in a few steps. Hunter (2004) fits the same
 * likelihood by MM; Newton is used here because the prior and ties fit it directly and because the
 * curvature it computes anyway gives σ.
 *
 * Pure and deterministic: the caller fixes the order of `games` (sums in floating point depend on
 * it); `fitStandings` sorts results canonically first, so permuting them changes no bit.
 */

export type FitGame = {
  /** Entrant index per seat. */
  seats: readonly number[];
  /** Placement per seat (1 = won; ties share a placement). */
  placements: readonly number[];
  /** How many times this game counts (a bootstrap resample draws some games more than once). */
  weight?: number;
};

export type FitOptions = {
  /** The prior's standard deviation on θ (natural-log worth); null fits by maximum likelihood (tests). */
  priorSd: number | null;
  /** Where Newton starts (default 0 for everyone): a bootstrap refit starts from the full fit. */
  start?: Float64Array;
  maxIterations?: number;
};

export type Fit = {
  /** θ per entrant (log worth; 0 = the prior's centre). */
  theta: Float64Array;
  /** Posterior standard deviation of each θ from the curvature at the maximum (Laplace). */
  sd: Float64Array;
  iterations: number;
};

/**
 * Games compiled once for many fits (a bootstrap refits the same games under other weights): per
 * game, its seats' entrant indices sorted best placement first, and where each tied group starts.
 * Stage k of a game is the group sorted[start_k .. start_{k+1}) with the risk set sorted[start_k ..).
 */
export type CompiledGames = { n: number; seats: Int32Array; seatStart: Int32Array; stages: Int32Array; stageStart: Int32Array };

/** Compiles `games` for {@link fitCompiled}. */
export function compileGames(n: number, games: readonly FitGame[]): CompiledGames {
  const seats: number[] = [];
  const seatStart = [0];
  const stages: number[] = [];
  const stageStart = [0];
  for (const g of games) {
    const order = g.seats.map((_, i) => i).sort((a, b) => g.placements[a]! - g.placements[b]! || a - b);
    const base = seats.length;
    order.forEach((i, k) => {
      if (k === 0 || g.placements[i] !== g.placements[order[k - 1]!]) stages.push(base + k);
      seats.push(g.seats[i]!);
    });
    seatStart.push(seats.length);
    stageStart.push(stages.length);
  }
  return { n, seats: Int32Array.from(seats), seatStart: Int32Array.from(seatStart), stages: Int32Array.from(stages), stageStart: Int32Array.from(stageStart) };
}

/**
 * The MAP θ of `n` entrants given `games`.
 *
 * @example fitPlackettLuce(2, [{ seats: [0, 1], placements: [1, 2] }], { priorSd: Math.SQRT2 }).theta[0] > 0
 */
export function fitPlackettLuce(n: number, games: readonly FitGame[], options: FitOptions): Fit {
  return fitCompiled(compileGames(n, games), Float64Array.from(games, (g) => g.weight ?? 1), options);
}

/**
 * Plain Newton steps from `start`, with no line search: the k-step bootstrap's refit, where the
 * start (the full fit) is already near the resample's maximum. Falls back to the guarded fit if a
 * step ever leaves the finite numbers.
 */
export function newtonSteps(c: CompiledGames, weights: Float64Array, options: FitOptions & { start: Float64Array; steps: number }): Float64Array {
  const theta = Float64Array.from(options.start);
  for (let k = 0; k < options.steps; k++) {
    const { g, h } = evaluate(c, weights, precisionOf(options), theta, true);
    const step = solve(cholesky(h, c.n), g, c.n);
    for (let i = 0; i < c.n; i++) theta[i]! += step[i]!;
  }
  return theta.every(Number.isFinite) ? theta : fitCompiled(c, weights, { ...options, sd: false }).theta;
}

/**
 * The prior's precision. Without a prior, adding a constant to every θ changes nothing; a
 * vanishing precision pins the mean at 0 (the data's gradient always sums to 0) without moving the fit.
 */
const precisionOf = (options: FitOptions): number => (options.priorSd === null ? 1e-10 : 1 / (options.priorSd * options.priorSd));

/**
 * The log posterior at θ and, with `derivatives`, its gradient g and negative Hessian H. One pass
 * over the games: each game's stages run from the last, where the risk set grows by each group, so
 * its sum of e^θ is a running suffix sum.
 */
function evaluate(c: CompiledGames, weights: Float64Array, precision: number, t: Float64Array, derivatives: boolean) {
  const { n, seats, seatStart, stages, stageStart } = c;
  const e = new Float64Array(n);
  const grad = new Float64Array(derivatives ? n : 0);
  const h = new Float64Array(derivatives ? n * n : 0);
  let lp = 0;
  for (let i = 0; i < n; i++) {
    lp -= 0.5 * precision * t[i]! * t[i]!;
    e[i] = Math.exp(t[i]!);
    if (!derivatives) continue;
    grad[i] = -precision * t[i]!;
    h[i * n + i] = precision;
  }
  for (let g = 0; g < weights.length; g++) {
    const w = weights[g]!;
    if (w === 0) continue;
    const end = seatStart[g + 1]!;
    let risk = 0;
    let groupEnd = end;
    for (let k = stageStart[g + 1]! - 1; k >= stageStart[g]!; k--) {
      const from = stages[k]!;
      let gain = 0;
      for (let s = from; s < groupEnd; s++) {
        risk += e[seats[s]!]!;
        gain += t[seats[s]!]!;
      }
      const d = w * (groupEnd - from);
      lp += w * gain - d * Math.log(risk);
      if (derivatives)
        for (let s = from; s < end; s++) {
          const a = seats[s]!;
          const pa = e[a]! / risk;
          if (s < groupEnd) grad[a]! += w;
          grad[a]! -= d * pa;
          h[a * n + a]! += d * pa;
          for (let u = from; u < end; u++) h[a * n + seats[u]!]! -= d * pa * (e[seats[u]!]! / risk);
        }
      groupEnd = from;
    }
  }
  return { lp, g: grad, h };
}

/** The MAP fit of compiled games, game i counted `weights[i]` times (0 leaves it out). */
export function fitCompiled(c: CompiledGames, weights: Float64Array, options: FitOptions & { sd?: boolean }): Fit {
  const { n } = c;
  const precision = precisionOf(options);
  const theta = options.start ? Float64Array.from(options.start) : new Float64Array(n);
  const maxIterations = options.maxIterations ?? 100;
  const logPosterior = (t: Float64Array) => evaluate(c, weights, precision, t, false).lp;
  const derivatives = (t: Float64Array) => evaluate(c, weights, precision, t, true);

  let iterations = 0;
  let current = logPosterior(theta);
  const next = new Float64Array(n);
  for (; iterations < maxIterations; iterations++) {
    const { g, h } = derivatives(theta);
    const step = solve(cholesky(h, n), g, n);
    let scale = 1;
    for (let i = 0; i < n; i++) next[i] = theta[i]! + step[i]!;
    let value = logPosterior(next);
    // Concavity makes the full Newton step good near the top; far from it, halve until it climbs.
    while (!(value >= current) && scale > 1e-6) {
      scale /= 2;
      for (let i = 0; i < n; i++) next[i] = theta[i]! + scale * step[i]!;
      value = logPosterior(next);
    }
    if (!(value >= current)) break;
    // Without a prior the likelihood is flat along θ + c·1; keep the mean at 0 so rounding cannot drift along it.
    if (options.priorSd === null) {
      const mean = next.reduce((a, x) => a + x, 0) / n;
      for (let i = 0; i < n; i++) next[i]! -= mean;
    }
    theta.set(next);
    current = value;
    let largest = 0;
    for (let i = 0; i < n; i++) largest = Math.max(largest, Math.abs(scale * step[i]!));
    if (largest < 1e-10) {
      iterations++;
      break;
    }
  }

  const sd = new Float64Array(n);
  if (options.sd !== false) {
    const cov = covarianceAt(c, weights, theta, options);
    for (let i = 0; i < n; i++) sd[i] = Math.sqrt(Math.max(0, cov[i * n + i]!));
  }
  return { theta, sd, iterations };
}

/**
 * The posterior covariance at θ (Laplace: the inverse of the negative Hessian of the log
 * posterior), row-major n×n. At the MAP its diagonal is sd²; the off-diagonal terms say how two
 * θs move together, which a difference θᵢ − θⱼ needs (the ladder's matchmaker reads it).
 */
export function covarianceAt(c: CompiledGames, weights: Float64Array, theta: Float64Array, options: FitOptions): Float64Array {
  const { n } = c;
  const l = cholesky(evaluate(c, weights, precisionOf(options), theta, true).h, n);
  const cov = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const unit = new Float64Array(n);
    unit[i] = 1;
    cov.set(solve(l, unit, n), i * n);
  }
  return cov;
}

/** The Cholesky factor L (H = L Lᵀ, row-major lower triangle) of a symmetric positive definite H. */
function cholesky(h: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = h[i * n + j]!;
      for (let k = 0; k < j; k++) s -= l[i * n + k]! * l[j * n + k]!;
      // The prior keeps every pivot ≥ its precision; the floor only guards against rounding.
      l[i * n + j] = i === j ? Math.sqrt(Math.max(s, 1e-300)) : s / l[j * n + j]!;
    }
  return l;
}

/** Solves L Lᵀ x = b by forward and back substitution. */
function solve(l: Float64Array, b: Float64Array, n: number): Float64Array {
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * n + k]! * y[k]!;
    y[i] = s / l[i * n + i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < n; k++) s -= l[k * n + i]! * x[k]!;
    x[i] = s / l[i * n + i]!;
  }
  return x;
}
