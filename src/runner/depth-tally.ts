import type { GameEvent } from '../protocol/index.js';
import { EMOTIONAL_INTENTS } from '../protocol/index.js';
import { ratio } from './ratio.js';
import { roundChoices, roundKey } from './round-choices.js';

export type ChoiceShift = {
  /** Successful manipulations with this emotional intent whose target played the next round. */
  samples: number;
  /** The target's share of next-round actions that were attacks / defensive plays… */
  attackShareAfter: number | null;
  defensiveShareAfter: number | null;
  /** …against the same shares over every seat-round of the same games (the baseline). */
  attackShareBaseline: number | null;
  defensiveShareBaseline: number | null;
};

export type DepthFigures = {
  /**
   * Skill share: the share of the variance in placement explained by which agent sat in the seat
   * (eta², between-agent sum of squares over the total). 0: placement is all deal and table;
   * 1: the agent decides it alone. With duplicate seeds every deal is seen by every agent, so the
   * remainder is the deal's (and the table's) share. Null below MIN_DEPTH_GAMES games.
   */
  skillShare: number | null;
  /** Highest minus lowest win rate over the agents (percentage points / 100); null below MIN_DEPTH_GAMES games. */
  winRateSpread: number | null;
  /** How a successful manipulation changes its target's next-round choices, by emotional intent. */
  manipulationShift: Record<string, ChoiceShift>;
};

/**
 * Games the between-agent figures (skill share, win-rate spread) need. Over one game each agent has
 * one placement, so the skill share is 1 and the spread 1 whenever the agents differ: an artefact
 * of the sample, not depth. Below this they are null.
 */
export const MIN_DEPTH_GAMES = 2;

type Shares = { n: number; attacks: number; defensive: number; actions: number };
const zero = (): Shares => ({ n: 0, attacks: 0, defensive: 0, actions: 0 });

/** Folds finished games into the depth figures (placements per agent, choices after manipulation). */
export class DepthTally {
  private readonly placements = new Map<string, number[]>();
  private readonly after = new Map<string, Shares>();
  private baseline = zero();
  private games = 0;

  add(events: readonly GameEvent[], agents: readonly string[]): void {
    const seat = new Map<string, number>();
    const { rounds, successes } = roundChoices(events);
    this.games++;
    for (const e of events) {
      if (e.type === 'game_started') for (const p of e.payload.players) seat.set(p.player_id, p.seat);
      else if (e.type === 'game_ended') {
        for (const p of e.payload.placements) {
          const name = agents[seat.get(p.player_id) ?? -1] ?? '?';
          let xs = this.placements.get(name);
          if (!xs) this.placements.set(name, (xs = []));
          xs.push(p.placement);
        }
      }
    }
    for (const c of rounds.values()) {
      this.baseline.n++;
      this.baseline.attacks += c.attacks;
      this.baseline.defensive += c.defensive;
      this.baseline.actions += c.actions;
    }
    for (const s of successes) {
      const next = rounds.get(roundKey(s.turn + 1, s.target));
      if (!next) continue;
      let a = this.after.get(s.intent);
      if (!a) this.after.set(s.intent, (a = zero()));
      a.n++;
      a.attacks += next.attacks;
      a.defensive += next.defensive;
      a.actions += next.actions;
    }
  }

  figures(): DepthFigures {
    const all = [...this.placements.values()].flat();
    const mean = all.reduce((a, b) => a + b, 0) / Math.max(1, all.length);
    let total = 0;
    for (const x of all) total += (x - mean) ** 2;
    let between = 0;
    const rates: number[] = [];
    for (const xs of this.placements.values()) {
      const m = xs.reduce((a, b) => a + b, 0) / xs.length;
      between += xs.length * (m - mean) ** 2;
      rates.push(xs.filter((x) => x === 1).length / xs.length);
    }
    const b = this.baseline;
    const shift: Record<string, ChoiceShift> = {};
    for (const intent of EMOTIONAL_INTENTS) {
      const a = this.after.get(intent) ?? zero();
      shift[intent] = {
        samples: a.n,
        attackShareAfter: ratio(a.attacks, a.actions),
        defensiveShareAfter: ratio(a.defensive, a.actions),
        attackShareBaseline: ratio(b.attacks, b.actions),
        defensiveShareBaseline: ratio(b.defensive, b.actions),
      };
    }
    const enough = this.games >= MIN_DEPTH_GAMES;
    return {
      skillShare: enough && all.length > 1 && total > 0 ? Math.round((between / total) * 1e4) / 1e4 : null,
      winRateSpread: enough && rates.length ? Math.round((Math.max(...rates) - Math.min(...rates)) * 1e4) / 1e4 : null,
      manipulationShift: shift,
    };
  }
}
