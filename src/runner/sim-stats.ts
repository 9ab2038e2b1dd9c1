import type { CardType, GameEvent, ManipulationOutcome } from '../protocol/index.js';
import { CARD_TYPES, MANIPULATION_OUTCOMES } from '../protocol/index.js';
import { ratio } from './ratio.js';
import { researchFigures, type ResearchFigures } from './research-figures.js';
import { ResearchTally, type ProviderUsage } from './research-tally.js';
import { DepthTally, type DepthFigures } from './depth-tally.js';

/** Fear at or above this is "high", below LOW_FEAR "low" (emotion coupling). */
export const HIGH_FEAR = 0.5;
export const LOW_FEAR = 0.2;

export { ratio } from './ratio.js';

export type AgentFigures = {
  games: number;
  wins: number;
  winRate: number | null;
  meanPlacement: number | null;
  /** Share of the rounds in which the agent acted where it did something other than pass. */
  activeRoundRate: number | null;
  /** Attacks it submitted (each carried an AttackPlan). */
  attacks: number;
  /** Statements and private messages it posted. */
  statements: number;
  /** Answers the engine rejected (including defaulted secret plans). */
  rejections: number;
  /** Passes forced on it after rejected answers. */
  forcedPasses: number;
};

type AgentTally = { games: number; wins: number; placements: number; actionRounds: number; activeRounds: number; attacks: number; statements: number; rejections: number; forcedPasses: number };
const newTally = (): AgentTally => ({ games: 0, wins: 0, placements: 0, actionRounds: 0, activeRounds: 0, attacks: 0, statements: 0, rejections: 0, forcedPasses: 0 });

export type EmotionCoupling = {
  /** Share of guard + mask plays among non-random agents' card plays made at fear ≥ 0.5. */
  highFear: number | null;
  /** The same at fear < 0.2. */
  lowFear: number | null;
  highFearSamples: number;
  lowFearSamples: number;
};

/** The game figures of a simulation; see SimStats.add for how each is counted. */
export type SimFigures = {
  games: number;
  events: number;
  decisions: number;
  meanEventsPerGame: number | null;
  meanDecisionsPerGame: number | null;
  /** By seat index: share of games where that seat placed 1st (tied winners all count). */
  seatWinRate: (number | null)[];
  medianRounds: number | null;
  roundCapRate: number | null;
  eliminationsPerGame: number | null;
  cardPlays: number;
  cardTypeShare: Record<CardType, number | null>;
  manipulationSuccessRate: number | null;
  manipulationOutcomes: Record<ManipulationOutcome, number>;
  slipRate: number | null;
  rejectionRate: number | null;
  rejectionsByCode: Record<string, number>;
  /** Keyed by agent name; `games` counts seats taken, so an agent seated twice in a game counts twice. */
  byAgent: Record<string, AgentFigures>;
  emotionCoupling: EmotionCoupling;
  /** Game depth: skill share, win-rate spread, how manipulation moves its targets (depth-tally.ts). */
  depth: DepthFigures;
};

export type FinishedGame = {
  events: readonly GameEvent[];
  decisions: number;
  /** Agent name by seat index. */
  agents: readonly string[];
  /** LLM seats' provider calls (provider_calls rows) for the research figures' usage. */
  providerCalls?: readonly ProviderUsage[];
  /** Its duplicate group, which the research figures' intervals resample whole (default: the game alone). */
  cluster?: string;
};

const zeroes = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/**
 * Folds finished games' full (admin) event logs into the figures simulate reports. Everything is
 * read from the log alone — the same figures come out of a stored game.
 */
export class SimStats {
  private games = 0;
  private events = 0;
  private decisions = 0;
  private readonly rounds: number[] = [];
  private roundCaps = 0;
  private eliminations = 0;
  private readonly seatWins: number[] = [];
  private readonly outcomes = zeroes(MANIPULATION_OUTCOMES);
  private resolved = 0;
  private slips = 0;
  private readonly rejections: Record<string, number> = {};
  private readonly agents = new Map<string, AgentTally>();
  // Card plays and emotion coupling per agent live in the research tally; figures() sums them.
  private readonly tally = new ResearchTally();
  private readonly depth = new DepthTally();

  add(game: FinishedGame): void {
    this.games++;
    this.tally.add(game, HIGH_FEAR, LOW_FEAR);
    this.depth.add(game.events, game.agents);
    this.events += game.events.length;
    this.decisions += game.decisions;
    const seat = new Map<string, number>();
    // Per (turn, player): whether any of its submitted actions that round was not a pass.
    const acted = new Map<string, { player: string; active: boolean }>();
    const tally = (player: string): AgentTally => {
      const name = game.agents[seat.get(player) ?? -1] ?? '?';
      let a = this.agents.get(name);
      if (!a) this.agents.set(name, (a = newTally()));
      return a;
    };
    for (const e of game.events) {
      switch (e.type) {
        case 'game_started':
          for (const p of e.payload.players) seat.set(p.player_id, p.seat);
          break;
        case 'action_submitted': {
          const key = `${e.turn}|${e.payload.player_id}`;
          acted.set(key, { player: e.payload.player_id, active: (acted.get(key)?.active ?? false) || e.payload.kind !== 'pass' });
          if (e.payload.forced) tally(e.payload.player_id).forcedPasses++;
          if (e.payload.attack_plan) tally(e.payload.player_id).attacks++;
          break;
        }
        case 'speech_posted':
          tally(e.payload.player_id).statements++;
          break;
        case 'action_resolved':
          this.resolved++;
          if (e.payload.slipped) this.slips++;
          if (e.payload.manipulation_outcome) this.outcomes[e.payload.manipulation_outcome]++;
          break;
        case 'action_rejected': {
          const code = e.payload.code ?? 'rejected';
          this.rejections[code] = (this.rejections[code] ?? 0) + 1;
          tally(e.payload.player_id).rejections++;
          break;
        }
        case 'secret_plan_committed':
          // Intent rejections live inside the (private) commitment, not in a public action_rejected.
          if (e.payload.rejection) {
            this.rejections[e.payload.rejection.code] = (this.rejections[e.payload.rejection.code] ?? 0) + 1;
            tally(e.payload.player_id).rejections++;
          }
          break;
        case 'player_eliminated':
          this.eliminations++;
          break;
        case 'game_ended':
          this.rounds.push(e.payload.rounds);
          if (e.payload.reason === 'round_cap') this.roundCaps++;
          for (const p of e.payload.placements) this.place(seat.get(p.player_id) ?? -1, game.agents, p.placement);
          break;
      }
    }
    for (const { player, active } of acted.values()) {
      const a = tally(player);
      a.actionRounds++;
      if (active) a.activeRounds++;
    }
  }

  private place(seat: number, agents: readonly string[], placement: number): void {
    const name = agents[seat];
    if (name === undefined) throw new Error(`placement for unknown seat ${seat}`);
    while (this.seatWins.length < agents.length) this.seatWins.push(0);
    if (placement === 1) this.seatWins[seat]!++;
    const a = this.agents.get(name) ?? newTally();
    a.games++;
    a.placements += placement;
    if (placement === 1) a.wins++;
    this.agents.set(name, a);
  }

  /**
   * Per agent and per ordered pair: manipulation given and received (by plan and emotional
   * intent), slips and forced errors, prediction accuracy, promises kept and broken, tilt
   * resilience, card mix, emotion coupling and LLM usage. See AgentResearch for each definition.
   */
  research(): ResearchFigures {
    return researchFigures(this.tally);
  }

  figures(): SimFigures {
    const cards = zeroes(CARD_TYPES);
    const high = { plays: 0, guarded: 0 };
    const low = { plays: 0, guarded: 0 };
    for (const [name, a] of this.tally.agents) {
      for (const t of CARD_TYPES) cards[t] += a.cards[t];
      // Coupling is a property of agents that have emotions to couple: random's choices ignore them.
      if (name === 'random') continue;
      for (const [sum, part] of [[high, a.coupling.high], [low, a.coupling.low]] as const) {
        sum.plays += part.plays;
        sum.guarded += part.guarded;
      }
    }
    const plays = CARD_TYPES.reduce((n, t) => n + cards[t], 0);
    const manipulations = MANIPULATION_OUTCOMES.reduce((n, o) => n + this.outcomes[o], 0);
    const rejected = Object.values(this.rejections).reduce((n, c) => n + c, 0);
    return {
      games: this.games,
      events: this.events,
      decisions: this.decisions,
      meanEventsPerGame: ratio(this.events, this.games),
      meanDecisionsPerGame: ratio(this.decisions, this.games),
      seatWinRate: this.seatWins.map((w) => ratio(w, this.games)),
      medianRounds: median(this.rounds),
      roundCapRate: ratio(this.roundCaps, this.games),
      eliminationsPerGame: ratio(this.eliminations, this.games),
      cardPlays: plays,
      cardTypeShare: Object.fromEntries(CARD_TYPES.map((t) => [t, ratio(cards[t], plays)])) as Record<CardType, number | null>,
      manipulationSuccessRate: ratio(this.outcomes.success, manipulations),
      manipulationOutcomes: { ...this.outcomes },
      slipRate: ratio(this.slips, this.resolved),
      rejectionRate: ratio(rejected, this.decisions),
      rejectionsByCode: { ...this.rejections },
      byAgent: Object.fromEntries(
        [...this.agents].map(([name, a]) => [
          name,
          {
            games: a.games,
            wins: a.wins,
            winRate: ratio(a.wins, a.games),
            meanPlacement: ratio(a.placements, a.games),
            activeRoundRate: ratio(a.activeRounds, a.actionRounds),
            attacks: a.attacks,
            statements: a.statements,
            rejections: a.rejections,
            forcedPasses: a.forcedPasses,
          },
        ]),
      ),
      emotionCoupling: {
        highFear: ratio(high.guarded, high.plays),
        lowFear: ratio(low.guarded, low.plays),
        highFearSamples: high.plays,
        lowFearSamples: low.plays,
      },
      depth: this.depth.figures(),
    };
  }
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
