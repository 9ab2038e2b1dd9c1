import type { EmotionalIntent, GameEvent } from '../protocol/index.js';
import { EMOTIONAL_INTENTS } from '../protocol/index.js';
import { roundChoices, roundKey } from '../runner/round-choices.js';
import type { Interval } from './bootstrap.js';
import { clusterBootstrapMeans, clusterCount } from './cluster-bootstrap.js';

/**
 * Samples a shift needs before its interval is given: a percentile bootstrap of fewer points
 * only reshuffles them (with 1 the interval is the point itself).
 */
export const MIN_SHIFT_SAMPLES = 5;

/**
 * Clusters (duplicate groups, or games) a shift needs before its interval is given: the interval
 * resamples whole clusters, and samples from one or two of them only reshuffle the same deals.
 */
export const MIN_SHIFT_CLUSTERS = 3;

/**
 * A cell with an interval is still flagged `few_samples` below these: a percentile bootstrap of
 * fewer than ~20 samples, or of samples from fewer than ~10 clusters, draws intervals narrower than
 * their nominal 95 % (too few distinct resamples to see the tails). Read such a cell as a hint.
 */
export const FEW_SHIFT_SAMPLES = 20;
export const FEW_SHIFT_CLUSTERS = 10;

/**
 * The bootstrap's seed. Fixed, not the tournament's: the report is shown to researchers while a
 * tournament runs and its seed is hidden, and intervals drawn from that seed would let anyone test
 * candidate seeds against them. Each row's label (target and intent) keeps its draws apart.
 */
export const SHIFT_BOOTSTRAP_SEED = 0;

/**
 * How successful manipulations with one emotional intent moved their targets' choices in the
 * round after: the targets' attack (and defensive) share in that round against their own share
 * over every round they acted in. `target` null: every target pooled, each sample measured
 * against its own target's baseline.
 */
export type ChoiceShiftRow = {
  target: string | null;
  emotional_intent: EmotionalIntent;
  /** Successful manipulations with this intent (of this target) after which the target acted the next round. */
  samples: number;
  /** Mean over the samples of the target's attack share among its next-round actions. */
  attack_share_after: number | null;
  /** The target's attack share over all the rounds it acted in (pooled: the mean of the samples' targets'). */
  attack_share_baseline: number | null;
  /** Distinct duplicate groups (or games, for games outside one) the samples come from: the interval resamples these. */
  clusters: number;
  /** after − baseline (negative: the manipulation cut its attacks), with a 95 % bootstrap interval resampling whole clusters. */
  attack_shift: Interval | null;
  defensive_share_after: number | null;
  defensive_share_baseline: number | null;
  defensive_shift: Interval | null;
  /** `not_enough_samples` below MIN_SHIFT_SAMPLES samples or MIN_SHIFT_CLUSTERS clusters: the shares stand, the shifts are null. */
  status: 'ok' | 'not_enough_samples';
  /** Below FEW_SHIFT_SAMPLES samples or FEW_SHIFT_CLUSTERS clusters: any interval is rough (too narrow, if anything). */
  few_samples: boolean;
};

export type ChoiceShiftFigures = {
  /** One row per emotional intent, every target pooled. */
  by_intent: ChoiceShiftRow[];
  /** One row per target agent × emotional intent (agents by name, intents in protocol order). */
  by_target: ChoiceShiftRow[];
};

type Counts = { attacks: number; defensive: number; actions: number };
/** One sample: the target agent, its attack / defensive share in the round after, and its game's cluster. */
type Sample = { target: string; attack: number; defensive: number; cluster: string };

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Folds finished games (full logs, agent by seat index) into ChoiceShiftFigures. The baseline is
 * every round the target acted in, manipulated or not: not a matched control, but the same for
 * every intent, so intents compare with each other. Samples of one game, or of one duplicate
 * group, are not independent (the same deal, the same moods): intervals resample them together.
 *
 * @example const t = new ChoiceShiftTally(); t.add(events, ['balanced', 'random'], 'r0000-t0000-d0000'); t.figures().by_intent[0].attack_shift
 */
export class ChoiceShiftTally {
  private readonly baseline = new Map<string, Counts>();
  private readonly samples = new Map<EmotionalIntent, Sample[]>();
  private games = 0;

  /**
   * Folds one game. `cluster`: its duplicate group (groupKey of its schedule key); without one the
   * game is its own cluster (a name no schedule key can take).
   */
  add(events: readonly GameEvent[], agents: readonly string[], cluster = `\u0000game ${this.games}`): void {
    this.games++;
    const agentOf = new Map<string, string>();
    for (const e of events) if (e.type === 'game_started') for (const p of e.payload.players) agentOf.set(p.player_id, agents[p.seat] ?? '?');
    const { rounds, successes } = roundChoices(events);
    for (const [key, c] of rounds) {
      const name = agentOf.get(key.slice(key.indexOf('|') + 1)) ?? '?';
      const b = this.baseline.get(name) ?? { attacks: 0, defensive: 0, actions: 0 };
      this.baseline.set(name, { attacks: b.attacks + c.attacks, defensive: b.defensive + c.defensive, actions: b.actions + c.actions });
    }
    for (const s of successes) {
      const next = rounds.get(roundKey(s.turn + 1, s.target));
      if (!next || next.actions === 0) continue;
      let list = this.samples.get(s.intent);
      if (!list) this.samples.set(s.intent, (list = []));
      list.push({ target: agentOf.get(s.target) ?? '?', attack: next.attacks / next.actions, defensive: next.defensive / next.actions, cluster });
    }
  }

  /** The rows, with intervals seeded by `seed` (the same games and seed give the same figures). */
  figures(seed = SHIFT_BOOTSTRAP_SEED): ChoiceShiftFigures {
    const targets = [...this.baseline.keys()].sort(byName);
    return {
      by_intent: EMOTIONAL_INTENTS.map((intent) => this.row(null, intent, this.samples.get(intent) ?? [], seed)),
      by_target: targets.flatMap((target) =>
        EMOTIONAL_INTENTS.map((intent) => this.row(target, intent, (this.samples.get(intent) ?? []).filter((s) => s.target === target), seed)),
      ),
    };
  }

  private row(target: string | null, intent: EmotionalIntent, samples: readonly Sample[], seed: number): ChoiceShiftRow {
    const base = (s: Sample) => {
      const b = this.baseline.get(s.target)!;
      return { attack: b.attacks / b.actions, defensive: b.defensive / b.actions };
    };
    const attackDiffs = samples.map((s) => s.attack - base(s).attack);
    const defensiveDiffs = samples.map((s) => s.defensive - base(s).defensive);
    const clusters = samples.map((s) => s.cluster);
    const groups = clusterCount(clusters);
    const enough = samples.length >= MIN_SHIFT_SAMPLES && groups >= MIN_SHIFT_CLUSTERS;
    const [attack, defensive] = enough ? clusterBootstrapMeans([attackDiffs, defensiveDiffs], clusters, seed, `choice-shift|${target ?? '*'}|${intent}`) : [null, null];
    const own = target === null ? null : this.baseline.get(target);
    const share = (xs: readonly number[]) => {
      const m = mean(xs);
      return m === null ? null : round4(m);
    };
    const ownShare = (n: number | undefined) => (own && own.actions > 0 && n !== undefined ? round4(n / own.actions) : null);
    return {
      target,
      emotional_intent: intent,
      samples: samples.length,
      clusters: groups,
      attack_share_after: share(samples.map((s) => s.attack)),
      attack_share_baseline: target === null ? share(samples.map((s) => base(s).attack)) : ownShare(own?.attacks),
      attack_shift: attack ?? null,
      defensive_share_after: share(samples.map((s) => s.defensive)),
      defensive_share_baseline: target === null ? share(samples.map((s) => base(s).defensive)) : ownShare(own?.defensive),
      defensive_shift: defensive ?? null,
      status: enough ? 'ok' : 'not_enough_samples',
      few_samples: samples.length < FEW_SHIFT_SAMPLES || groups < FEW_SHIFT_CLUSTERS,
    };
  }
}
