import type { Budget } from '../protocol/index.js';

export type Spend = { tokens: number; wallMs: number; costUsd: number };
export type BudgetDimension = 'tokens' | 'wall_ms' | 'cost_usd';
export type BudgetAlert = { scope: 'decision' | 'game'; dimension: BudgetDimension; level: 'near' | 'exhausted'; used: number; limit: number };

/** Share of a limit at which a "near" alert is raised. */
export const NEAR = 0.8;

const DIMENSIONS: ReadonlyArray<[BudgetDimension, keyof Spend]> = [
  ['tokens', 'tokens'],
  ['wall_ms', 'wallMs'],
  ['cost_usd', 'costUsd'],
];

/**
 * Spending against a `{tokens, wall_ms, cost_usd}` budget (seed 004), for one decision or one
 * game. Each alert is raised once per level, so a trace says when a limit came near and when it
 * ran out, not at every call.
 */
export class BudgetMeter {
  private spent: Spend = { tokens: 0, wallMs: 0, costUsd: 0 };
  private readonly raised = new Set<string>();

  constructor(
    readonly scope: 'decision' | 'game',
    readonly limits: Budget,
  ) {}

  get used(): Readonly<Spend> {
    return this.spent;
  }

  charge(s: Partial<Spend>): BudgetAlert[] {
    this.spent = { tokens: this.spent.tokens + (s.tokens ?? 0), wallMs: this.spent.wallMs + (s.wallMs ?? 0), costUsd: this.spent.costUsd + (s.costUsd ?? 0) };
    return this.alerts();
  }

  /** The first exhausted dimension, or null while every limit has room. */
  exhausted(): BudgetDimension | null {
    for (const [dim, key] of DIMENSIONS) {
      const limit = this.limits[dim];
      if (limit !== undefined && this.spent[key] >= limit) return dim;
    }
    return null;
  }

  /** What is left of the wall-clock limit (Infinity without one). */
  wallLeftMs(): number {
    const limit = this.limits.wall_ms;
    return limit === undefined ? Infinity : Math.max(0, limit - this.spent.wallMs);
  }

  private alerts(): BudgetAlert[] {
    const out: BudgetAlert[] = [];
    for (const [dim, key] of DIMENSIONS) {
      const limit = this.limits[dim];
      if (limit === undefined) continue;
      const used = this.spent[key];
      const level = used >= limit ? 'exhausted' : used >= NEAR * limit ? 'near' : null;
      if (!level || this.raised.has(`${dim}:${level}`)) continue;
      this.raised.add(`${dim}:${level}`);
      if (level === 'exhausted') this.raised.add(`${dim}:near`);
      out.push({ scope: this.scope, dimension: dim, level, used: Math.round(used * 1e6) / 1e6, limit });
    }
    return out;
  }
}
