type Bucket = { tokens: number; at: number };

/**
 * Token buckets by key: each holds up to `capacity` tokens and gains `perMinute` a minute; a
 * request takes one. Full buckets are forgotten by `sweep`, so keys that went quiet cost nothing.
 *
 * @example const joins = new RateLimiter(30, 120, Date.now); joins.take('10.0.0.1') // 0: allowed
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly capacity: number,
    readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  /** Takes a token: 0 if there was one, else how many ms until there is. */
  take(key: string): number {
    const b = this.fill(key);
    if (b.tokens >= 1) {
      b.tokens--;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) * 60_000) / this.perMinute);
  }

  forget(key: string): void {
    this.buckets.delete(key);
  }

  /** Forgets every bucket that has refilled. */
  sweep(): void {
    for (const key of [...this.buckets.keys()]) if (this.fill(key).tokens >= this.capacity) this.buckets.delete(key);
  }

  private fill(key: string): Bucket {
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    b.tokens = Math.min(this.capacity, b.tokens + ((now - b.at) * this.perMinute) / 60_000);
    b.at = now;
    this.buckets.set(key, b);
    return b;
  }
}
