/**
 * Simulated deals for the bench and the tests: placements drawn from the Plackett–Luce model the
 * fit assumes, so a schedule can be measured against known strengths without playing games.
 */
import { dealRotations } from './matchmaker.js';
import type { LadderDeal } from './types.js';

/**
 * One game's placements (per seat, 1 = won, no ties) for seats of log-worth `theta`: the winner is
 * drawn with probability ∝ e^θ, the runner-up from the rest, and so on.
 *
 * @example drawPlacements([5, -5], Math.random) // almost always [1, 2]
 */
export function drawPlacements(theta: readonly number[], next: () => number): number[] {
  const left = theta.map((_, i) => i);
  const placements = new Array<number>(theta.length);
  for (let place = 1; left.length > 0; place++) {
    const worth = left.map((i) => Math.exp(theta[i]!));
    let u = next() * worth.reduce((a, w) => a + w, 0);
    let pick = left.length - 1;
    for (let k = 0; k < left.length; k++) {
      u -= worth[k]!;
      if (u < 0) {
        pick = k;
        break;
      }
    }
    placements[left[pick]!] = place;
    left.splice(pick, 1);
  }
  return placements;
}

/**
 * A deal of `lineup` in every seat rotation, each game's placements drawn independently from the
 * entrants' strengths (the model has no seat or card luck, so the rotations only repeat the draw).
 */
export function simulateDeal(lineup: readonly string[], strength: (id: string) => number, next: () => number): LadderDeal {
  const games = dealRotations(lineup).map((seats) => ({ seats, placements: drawPlacements(seats.map(strength), next) }));
  return { lineup: [...lineup], games };
}
