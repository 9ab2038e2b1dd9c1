import seedrandom from 'seedrandom';
import type { RngState } from '../protocol/index.js';

/**
 * The game's PRNG lives in the state as alea's four numbers; a draw restores it, draws, and hands
 * back the new state for the event that consumed it. evolve() only ever copies that state.
 */
export function seedRng(seed: string | number): RngState {
  return seedrandom.alea(String(seed), { state: true }).state();
}

/** A live generator over a state; `state()` reads where it got to. */
export class Rng {
  private readonly prng: seedrandom.StatefulPRNG<seedrandom.State.Alea>;
  private used = false;

  constructor(state: RngState) {
    this.prng = seedrandom.alea('', { state: { ...state } });
  }

  /** A float in [0, 1). */
  next(): number {
    this.used = true;
    return this.prng();
  }

  /** A float in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Fisher–Yates over a copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  get consumed(): boolean {
    return this.used;
  }

  state(): RngState {
    return this.prng.state();
  }
}
