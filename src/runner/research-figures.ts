import type { CardType, EmotionalIntent, ManipulationPlan } from '../protocol/index.js';
import { CARD_TYPES } from '../protocol/index.js';
import { DEFAULT_RESAMPLES, type Interval } from '../tournament/bootstrap.js';
import { clusterDraws } from '../tournament/cluster-bootstrap.js';
import { interval } from '../tournament/group-bootstrap.js';
import { ratio } from './ratio.js';
import type { AgentResearchTally, Outcomes, PairResearchTally, ResearchTally } from './research-tally.js';

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export type OutcomeFigures = { attempts: number; successes: number; partial: number; success_rate: number | null };
const outcomeFigures = (o: Outcomes): OutcomeFigures => ({ attempts: o.attempts, successes: o.success, partial: o.partial, success_rate: ratio(o.success, o.attempts) });
const mapFigures = <K extends string>(m: Record<K, Outcomes>) => Object.fromEntries(Object.entries<Outcomes>(m).map(([k, o]) => [k, outcomeFigures(o)])) as Record<K, OutcomeFigures>;

/**
 * Games each side of the tilt-resilience comparison needs before `placement_delta` is given: with
 * fewer, one lucky or unlucky deal decides the sign. An agent manipulated in every game (usual
 * against aggressive tables) has no "otherwise" side at all.
 */
export const MIN_RESILIENCE_GAMES = 3;

export type TiltResilience = {
  /** Games where a manipulation against it succeeded, and the others: the sample behind each mean. */
  manipulated_games: number;
  other_games: number;
  placement_when_manipulated: number | null;
  placement_otherwise: number | null;
  /** Null unless both sides have MIN_RESILIENCE_GAMES games (`status` says why). */
  placement_delta: number | null;
  /**
   * placement_delta's 95 % cluster-bootstrap interval (whole duplicate groups, or games, resampled;
   * fixed seed RESILIENCE_BOOTSTRAP_SEED); null when the delta is. Above 0 throughout: it clearly
   * places worse once manipulated.
   */
  placement_delta_ci: Interval | null;
  /** `ok`: both sides are large enough; `not_enough_games`: `note` says which side is short. */
  status: 'ok' | 'not_enough_games';
  note: string | null;
  tilted_games: number;
  placement_when_tilted: number | null;
};

/** One agent's research figures (a tournament's, or a simulation's). */
export type AgentResearch = {
  agent: string;
  /** Manipulations it attempted (resolved actions with a contest), and how they went. */
  manipulation_given: OutcomeFigures;
  /** Manipulations attempted against it (it was the attack plan's target). */
  manipulation_received: OutcomeFigures;
  /** Its attempts by the attack plan's manipulation_plan and emotional_intent. */
  by_plan: Record<ManipulationPlan, OutcomeFigures>;
  by_intent: Record<EmotionalIntent, OutcomeFigures>;
  /** Its resolved actions and the share that slipped. */
  actions: number;
  slips: number;
  slip_rate: number | null;
  /**
   * Forced errors: its slip rate on actions resolved within 2 rounds after a successful
   * manipulation against it (`pressured`) against its slip rate on all its other actions; `lift`
   * is the difference (positive: manipulation makes it misplay).
   */
  forced_errors: { pressured_actions: number; pressured_slips: number; pressured_slip_rate: number | null; baseline_slip_rate: number | null; lift: number | null };
  predictions: number;
  correct_predictions: number;
  prediction_accuracy: number | null;
  /** Promises and concessions it made that the ledger settled as kept or broken. */
  promises_kept: number;
  promises_broken: number;
  promise_keep_rate: number | null;
  /** Every settled commitment it made: kind → outcome → count (threat/credible, bluff/called, …). */
  ledger: Record<string, Record<string, number>>;
  /**
   * Tilt resilience: its mean placement in games where a manipulation against it succeeded
   * against its mean placement in the other games; `placement_delta` = the first − the second
   * (0: unshaken; positive: it places worse once manipulated). And its mean placement in games
   * where its tilt reached 0.5 (the rules brief's anti-tilt figure). See TiltResilience.
   */
  tilt_resilience: TiltResilience;
  card_plays: number;
  /** Share of its card plays (reactions included) by card type. */
  card_mix: Record<CardType, number | null>;
  /** Share of guard + mask among its card plays at fear ≥ 0.5 and at fear < 0.2. */
  emotion_coupling: { high_fear: number | null; low_fear: number | null; high_fear_samples: number; low_fear_samples: number };
  /** LLM usage from provider_calls (null when the agent made none). */
  usage: { calls: number; failed_calls: number; input_tokens: number; output_tokens: number; cost_usd: number; mean_latency_ms: number | null } | null;
};

/** One ordered pair: what `agent` did to `target`. */
export type PairResearch = {
  agent: string;
  target: string;
  manipulation: OutcomeFigures;
  /** The target's slips within 2 rounds after one of the agent's successful manipulations of it. */
  forced_errors: number;
  predictions: number;
  correct_predictions: number;
  prediction_accuracy: number | null;
  promises_kept: number;
  promises_broken: number;
};

export type ResearchFigures = { agents: AgentResearch[]; pairs: PairResearch[] };

/** Why a resilience side is too small, in words; null when both sides are large enough. */
function shortSide(manipulated: number, other: number): string | null {
  const sides: string[] = [];
  if (manipulated < MIN_RESILIENCE_GAMES) sides.push(manipulated === 0 ? 'never manipulated' : `manipulated in only ${manipulated} game${manipulated === 1 ? '' : 's'}`);
  if (other < MIN_RESILIENCE_GAMES) sides.push(other === 0 ? 'manipulated in every game' : `only ${other} game${other === 1 ? '' : 's'} without a manipulation`);
  return sides.length ? `not enough games: ${sides.join('; ')} (each side needs ${MIN_RESILIENCE_GAMES})` : null;
}

/**
 * The bootstrap seed of the resilience intervals: fixed, like the report's other intervals, since
 * the report is open while a tournament's seed is still hidden.
 */
export const RESILIENCE_BOOTSTRAP_SEED = 0;

/**
 * The delta's interval: a mean placement is a ratio of sums over games, and an agent's games of one
 * deal (every seat rotation) share its cards, so whole clusters are resampled and each side's mean
 * recomputed on the draw (a draw missing a side is left out).
 */
function deltaInterval(agent: string, a: AgentResearchTally, delta: number): Interval {
  const cells = [...a.resilienceClusters.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, c]) => c);
  const draws = clusterDraws(
    cells.map((_, i) => String(i)),
    RESILIENCE_BOOTSTRAP_SEED,
    `tilt-resilience|${agent}`,
    DEFAULT_RESAMPLES,
    (w) => {
      let [m, mn, o, on] = [0, 0, 0, 0];
      cells.forEach((c, i) => {
        const k = w[i]!;
        m += k * c.manipulated;
        mn += k * c.manipulatedGames;
        o += k * c.other;
        on += k * c.otherGames;
      });
      return mn > 0 && on > 0 ? m / mn - o / on : null;
    },
  );
  const r = interval(delta, draws);
  return { value: round(r.value, 4), low: round(r.low, 4), high: round(r.high, 4) };
}

function tiltResilience(agent: string, a: AgentResearchTally): TiltResilience {
  const whenManipulated = ratio(a.manipulatedPlacements, a.manipulatedGames);
  const otherwise = ratio(a.otherPlacements, a.otherGames);
  const note = shortSide(a.manipulatedGames, a.otherGames);
  const delta = note === null && whenManipulated !== null && otherwise !== null ? round(whenManipulated - otherwise, 4) : null;
  return {
    manipulated_games: a.manipulatedGames,
    other_games: a.otherGames,
    placement_when_manipulated: whenManipulated,
    placement_otherwise: otherwise,
    placement_delta: delta,
    placement_delta_ci: delta === null ? null : deltaInterval(agent, a, whenManipulated! - otherwise!),
    status: note === null ? 'ok' : 'not_enough_games',
    note,
    tilted_games: a.tiltedGames,
    placement_when_tilted: ratio(a.tiltedPlacements, a.tiltedGames),
  };
}

function agentFigures(agent: string, a: AgentResearchTally): AgentResearch {
  const plays = CARD_TYPES.reduce((n, t) => n + a.cards[t], 0);
  const promiseOutcome = (o: string) => (a.ledger['promise']?.[o] ?? 0) + (a.ledger['concession']?.[o] ?? 0);
  const [kept, broken] = [promiseOutcome('kept'), promiseOutcome('broken')];
  const pressured = ratio(a.pressuredSlips, a.pressuredActions);
  const baseline = ratio(a.slips - a.pressuredSlips, a.actions - a.pressuredActions);
  return {
    agent,
    manipulation_given: outcomeFigures(a.given),
    manipulation_received: outcomeFigures(a.received),
    by_plan: mapFigures(a.byPlan),
    by_intent: mapFigures(a.byIntent),
    actions: a.actions,
    slips: a.slips,
    slip_rate: ratio(a.slips, a.actions),
    forced_errors: {
      pressured_actions: a.pressuredActions,
      pressured_slips: a.pressuredSlips,
      pressured_slip_rate: pressured,
      baseline_slip_rate: baseline,
      lift: pressured === null || baseline === null ? null : round(pressured - baseline, 4),
    },
    predictions: a.predictions,
    correct_predictions: a.correctPredictions,
    prediction_accuracy: ratio(a.correctPredictions, a.predictions),
    promises_kept: kept,
    promises_broken: broken,
    promise_keep_rate: ratio(kept, kept + broken),
    ledger: a.ledger,
    tilt_resilience: tiltResilience(agent, a),
    card_plays: plays,
    card_mix: Object.fromEntries(CARD_TYPES.map((t) => [t, ratio(a.cards[t], plays)])) as Record<CardType, number | null>,
    emotion_coupling: {
      high_fear: ratio(a.coupling.high.guarded, a.coupling.high.plays),
      low_fear: ratio(a.coupling.low.guarded, a.coupling.low.plays),
      high_fear_samples: a.coupling.high.plays,
      low_fear_samples: a.coupling.low.plays,
    },
    usage:
      a.usage.calls === 0
        ? null
        : {
            calls: a.usage.calls,
            failed_calls: a.usage.failed,
            input_tokens: a.usage.input_tokens,
            output_tokens: a.usage.output_tokens,
            cost_usd: round(a.usage.cost_usd, 6),
            mean_latency_ms: ratio(a.usage.latency_ms, a.usage.calls),
          },
  };
}

const pairFigures = (agent: string, target: string, p: PairResearchTally): PairResearch => ({
  agent,
  target,
  manipulation: outcomeFigures(p),
  forced_errors: p.forcedErrors,
  predictions: p.predictions,
  correct_predictions: p.correctPredictions,
  prediction_accuracy: ratio(p.correctPredictions, p.predictions),
  promises_kept: p.promisesKept,
  promises_broken: p.promisesBroken,
});

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The figures of a tally, agents and pairs in name order (code units, so every platform agrees). */
export function researchFigures(t: ResearchTally): ResearchFigures {
  return {
    agents: [...t.agents.keys()].sort(byName).map((name) => agentFigures(name, t.agents.get(name)!)),
    pairs: [...t.pairs.keys()]
      .sort(byName)
      .map((key) => {
        const [agent, target] = key.split('\u0000') as [string, string];
        return pairFigures(agent, target, t.pairs.get(key)!);
      }),
  };
}
