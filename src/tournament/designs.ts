/**
 * Which entrants share a table: all k-subsets when there are few enough, else a cyclic balanced
 * design. Tables are lists of entrant indices in ascending order.
 */

/** Above this many k-subsets round-robin (and gauntlet) switch to the cyclic design. */
export const MAX_COMBINATION_TABLES = 210;

/** C(n, k), exact for the sizes a tournament has. */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= Math.min(k, n - k); i++) r = (r * (n - i + 1)) / i;
  return Math.round(r);
}

/** Every k-subset of 0..n−1, in lexicographic order. */
export function combinations(n: number, k: number): number[][] {
  const out: number[][] = [];
  const pick: number[] = [];
  const walk = (from: number) => {
    if (pick.length === k) return void out.push([...pick]);
    for (let i = from; i <= n - (k - pick.length); i++) {
      pick.push(i);
      walk(i + 1);
      pick.pop();
    }
  };
  walk(0);
  return out;
}

const circular = (d: number, n: number) => Math.min(((d % n) + n) % n, ((-d % n) + n) % n);

/**
 * A cyclic design on n entrants with tables of k: base blocks {0, a₁, …} chosen greedily until
 * every circular difference 1..⌊n/2⌋ occurs in some block, each block developed mod n (table
 * i = block + i). Every entrant then sits at exactly k tables per base block (equal play), and two
 * entrants whose difference is d meet at every table of the block covering d (every pair meets).
 * Tables repeated within one development (short orbits) are kept once, which keeps play equal.
 */
export function cyclicDesign(n: number, k: number): number[][] {
  const uncovered = new Set<number>();
  for (let d = 1; d <= n >> 1; d++) uncovered.add(d);
  const blocks: number[][] = [];
  while (uncovered.size > 0) {
    const block = [0];
    while (block.length < k) {
      let best = -1;
      let bestGain = -1;
      for (let c = 1; c < n; c++) {
        if (block.includes(c)) continue;
        const gain = new Set(block.map((b) => circular(c - b, n)).filter((d) => uncovered.has(d))).size;
        if (gain > bestGain) [best, bestGain] = [c, gain];
      }
      // Differences this block already covers no longer count as gains for its next member.
      for (const b of block) uncovered.delete(circular(best - b, n));
      block.push(best);
    }
    blocks.push(block);
  }
  const seen = new Set<string>();
  const tables: number[][] = [];
  for (const block of blocks)
    for (let i = 0; i < n; i++) {
      const t = block.map((b) => (b + i) % n).sort((x, y) => x - y);
      const key = t.join(',');
      if (!seen.has(key)) {
        seen.add(key);
        tables.push(t);
      }
    }
  return tables;
}

/** All k-subsets when C(n, k) ≤ MAX_COMBINATION_TABLES, else the cyclic design. */
export function tablesFor(n: number, k: number): number[][] {
  return binomial(n, k) <= MAX_COMBINATION_TABLES ? combinations(n, k) : cyclicDesign(n, k);
}
