import type { CardType, GameEvent, ManipulationOutcome } from '../protocol/index.js';
import { CARD_TYPES, MANIPULATION_OUTCOMES } from '../protocol/index.js';
import { cardDef } from '../game/index.js';

/** Fear at or above this is "high", below LOW_FEAR "low" (emotion coupling). */
export const HIGH_FEAR = 0.5;
export const LOW_FEAR = 0.2;

/** A share rounded to 4 decimals; null when nothing was counted. */
export const ratio = (n: number, d: number): number | null => (d === 0 ? null : Math.round((n / d) * 1e4) / 1e4);

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
};

export type FinishedGame = {
  events: readonly GameEvent[];
  decisions: number;
  /** Agent name by seat index. */
  agents: readonly string[];
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
  private readonly plays = zeroes(CARD_TYPES);
  private readonly outcomes = zeroes(MANIPULATION_OUTCOMES);
  private resolved = 0;
  private slips = 0;
  private readonly rejections: Record<string, number> = {};
  private readonly agents = new Map<string, AgentTally>();
  private readonly coupling = { high: { plays: 0, guarded: 0 }, low: { plays: 0, guarded: 0 } };

  add(game: FinishedGame): void {
    this.games++;
    this.events += game.events.length;
    this.decisions += game.decisions;
    // Per game: seat of each player, its agent, its current fear (tracked through emotion_updated).
    const seat = new Map<string, number>();
    const fear = new Map<string, number>();
    let cards: Record<string, string> = {};
    // Per (turn, player): whether any of its submitted actions that round was not a pass.
    const acted = new Map<string, { player: string; active: boolean }>();
    const tally = (player: string): AgentTally => {
      const name = game.agents[seat.get(player) ?? -1] ?? '?';
      let a = this.agents.get(name);
      if (!a) this.agents.set(name, (a = newTally()));
      return a;
    };
    const play = (actor: string, type: CardType) => {
      this.plays[type]++;
      if (game.agents[seat.get(actor) ?? -1] === 'random') return;
      const f = fear.get(actor) ?? 0;
      const bucket = f >= HIGH_FEAR ? this.coupling.high : f < LOW_FEAR ? this.coupling.low : null;
      if (!bucket) return;
      bucket.plays++;
      if (type === 'guard' || type === 'mask') bucket.guarded++;
    };
    for (const e of game.events) {
      switch (e.type) {
        case 'game_started':
          cards = e.payload.cards ?? {};
          for (const p of e.payload.players) {
            seat.set(p.player_id, p.seat);
            // Projected logs (a researcher during the game) may lack baselines: fear then starts unknown (0).
            fear.set(p.player_id, p.baseline?.fear ?? 0);
          }
          break;
        case 'emotion_updated':
          if (e.payload.emotions) fear.set(e.payload.player_id, e.payload.emotions.fear);
          break;
        case 'action_submitted': {
          // Face-down plays carry no card ref; the full event's action still names the card. A
          // projected log (a researcher's, mid-game) has neither for them: they go uncounted.
          const id = e.payload.action?.payload.card_id;
          const name = id ? cards[id] : undefined;
          const type = e.payload.card?.type ?? (name ? cardDef(name).type : null);
          if (e.payload.kind === 'play_card' && type) play(e.payload.player_id, type);
          const key = `${e.turn}|${e.payload.player_id}`;
          acted.set(key, { player: e.payload.player_id, active: (acted.get(key)?.active ?? false) || e.payload.kind !== 'pass' });
          if (e.payload.forced) tally(e.payload.player_id).forcedPasses++;
          if (e.payload.attack_plan) tally(e.payload.player_id).attacks++;
          break;
        }
        case 'speech_posted':
          tally(e.payload.player_id).statements++;
          break;
        case 'reaction_submitted':
          if (e.payload.card) play(e.payload.player_id, e.payload.card.type);
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

  figures(): SimFigures {
    const plays = CARD_TYPES.reduce((n, t) => n + this.plays[t], 0);
    const manipulations = MANIPULATION_OUTCOMES.reduce((n, o) => n + this.outcomes[o], 0);
    const rejected = Object.values(this.rejections).reduce((n, c) => n + c, 0);
    const { high, low } = this.coupling;
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
      cardTypeShare: Object.fromEntries(CARD_TYPES.map((t) => [t, ratio(this.plays[t], plays)])) as Record<CardType, number | null>,
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
    };
  }
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
