import type { CardType, EmotionalIntent, GameEvent, ManipulationPlan } from '../protocol/index.js';
import { CARD_TYPES, EMOTIONAL_INTENTS, MANIPULATION_PLANS } from '../protocol/index.js';
import { playedCardType } from './played-card.js';

/** Tilt at or above this counts as "tilted" (the rules brief's anti-tilt resilience threshold). */
export const TILTED = 0.5;
/** Rounds after a successful manipulation in which the target's slips count as forced errors. */
export const PRESSURE_ROUNDS = 2;

/** One LLM call's usage (a provider_calls row, as far as the report reads it). */
export type ProviderUsage = {
  player_id: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  latency_ms: number;
  /** ok | malformed | refused | timeout | … | reported */
  status: string;
};

export type Outcomes = { attempts: number; success: number; partial: number };
const outcomes = (): Outcomes => ({ attempts: 0, success: 0, partial: 0 });
const byKeys = <K extends string, V>(keys: readonly K[], make: () => V) => Object.fromEntries(keys.map((k) => [k, make()])) as Record<K, V>;

/** Raw counts per agent; see SimStats.research() for the figures made of them. */
export type AgentResearchTally = {
  given: Outcomes;
  received: Outcomes;
  byPlan: Record<ManipulationPlan, Outcomes>;
  byIntent: Record<EmotionalIntent, Outcomes>;
  /** Its actions that resolved, and how many slipped. */
  actions: number;
  slips: number;
  /** Of those, the ones resolved within PRESSURE_ROUNDS rounds after a successful manipulation against it. */
  pressuredActions: number;
  pressuredSlips: number;
  predictions: number;
  correctPredictions: number;
  /** Settled commitments it made: kind → outcome → count (promise/kept, threat/credible, …). */
  ledger: Record<string, Record<string, number>>;
  cards: Record<CardType, number>;
  coupling: { high: { plays: number; guarded: number }; low: { plays: number; guarded: number } };
  /** Placements split by whether a successful manipulation landed on it in that game, and by whether it reached tilt ≥ 0.5. */
  manipulatedGames: number;
  manipulatedPlacements: number;
  otherGames: number;
  otherPlacements: number;
  tiltedGames: number;
  tiltedPlacements: number;
  /**
   * The same placements by bootstrap cluster (duplicate group, or game), for the resilience delta's
   * interval: per cluster, the summed placements and games on each side.
   */
  resilienceClusters: Map<string, { manipulated: number; manipulatedGames: number; other: number; otherGames: number }>;
  usage: { calls: number; failed: number; input_tokens: number; output_tokens: number; cost_usd: number; latency_ms: number };
};

/** Raw counts per ordered pair (a acting on b). */
export type PairResearchTally = Outcomes & {
  /** b's slips within PRESSURE_ROUNDS rounds after a's successful manipulation of b. */
  forcedErrors: number;
  predictions: number;
  correctPredictions: number;
  promisesKept: number;
  promisesBroken: number;
};

const newAgent = (): AgentResearchTally => ({
  given: outcomes(),
  received: outcomes(),
  byPlan: byKeys(MANIPULATION_PLANS, outcomes),
  byIntent: byKeys(EMOTIONAL_INTENTS, outcomes),
  actions: 0,
  slips: 0,
  pressuredActions: 0,
  pressuredSlips: 0,
  predictions: 0,
  correctPredictions: 0,
  ledger: {},
  cards: byKeys(CARD_TYPES, () => 0),
  coupling: { high: { plays: 0, guarded: 0 }, low: { plays: 0, guarded: 0 } },
  manipulatedGames: 0,
  manipulatedPlacements: 0,
  otherGames: 0,
  otherPlacements: 0,
  tiltedGames: 0,
  tiltedPlacements: 0,
  resilienceClusters: new Map(),
  usage: { calls: 0, failed: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, latency_ms: 0 },
});
const newPair = (): PairResearchTally => ({ ...outcomes(), forcedErrors: 0, predictions: 0, correctPredictions: 0, promisesKept: 0, promisesBroken: 0 });

const count = (o: Outcomes, outcome: string) => {
  o.attempts++;
  if (outcome === 'success') o.success++;
  if (outcome === 'partial') o.partial++;
};

/**
 * What the fold needs of a finished game (a FinishedGame satisfies it). `cluster`: its duplicate
 * group, whose games the intervals resample together; without one the game is its own.
 */
export type ResearchGame = { events: readonly GameEvent[]; agents: readonly string[]; providerCalls?: readonly ProviderUsage[]; cluster?: string };

/**
 * The per-agent and per-pair research counts of finished games, folded from full (admin) event
 * logs and, for LLM seats, their provider calls. SimStats owns one and reads it in research().
 */
export class ResearchTally {
  readonly agents = new Map<string, AgentResearchTally>();
  readonly pairs = new Map<string, PairResearchTally>();
  private games = 0;

  /** The tally of one agent (created on first use). */
  agent(name: string): AgentResearchTally {
    let a = this.agents.get(name);
    if (!a) this.agents.set(name, (a = newAgent()));
    return a;
  }

  /** The tally of an ordered pair (created on first use); keys join the names with a NUL. */
  pair(a: string, b: string): PairResearchTally {
    const key = `${a}\u0000${b}`;
    let p = this.pairs.get(key);
    if (!p) this.pairs.set(key, (p = newPair()));
    return p;
  }

  /** Folds one game; card plays at fear ≥ `highFear` and < `lowFear` feed the emotion coupling. */
  add(game: ResearchGame, highFear: number, lowFear: number): void {
    // A name no duplicate group's key can take.
    const cluster = game.cluster ?? `\u0000game ${this.games}`;
    this.games++;
    const seat = new Map<string, number>();
    const nameOf = (player: string) => game.agents[seat.get(player) ?? -1] ?? '?';
    const fear = new Map<string, number>();
    const tilted = new Set<string>();
    const manipulated = new Set<string>();
    // Target → the latest successful manipulation of it still in force: who, and until which round.
    const pressure = new Map<string, { by: string; until: number }>();
    let cards: Record<string, string> = {};
    for (const e of game.events) {
      switch (e.type) {
        case 'game_started':
          cards = e.payload.cards ?? {};
          for (const p of e.payload.players) {
            seat.set(p.player_id, p.seat);
            // Projected logs (a researcher during the game) may lack baselines: fear then starts unknown (0).
            fear.set(p.player_id, p.baseline?.fear ?? 0);
            if ((p.baseline?.tilt ?? 0) >= TILTED) tilted.add(p.player_id);
          }
          break;
        case 'emotion_updated':
          if (!e.payload.emotions) break;
          fear.set(e.payload.player_id, e.payload.emotions.fear);
          if (e.payload.emotions.tilt >= TILTED) tilted.add(e.payload.player_id);
          break;
        case 'action_submitted':
        case 'reaction_submitted': {
          const type = playedCardType(e, cards);
          if (!type) break;
          const a = this.agent(nameOf(e.payload.player_id));
          a.cards[type]++;
          const f = fear.get(e.payload.player_id) ?? 0;
          const bucket = f >= highFear ? a.coupling.high : f < lowFear ? a.coupling.low : null;
          if (bucket) {
            bucket.plays++;
            if (type === 'guard' || type === 'mask') bucket.guarded++;
          }
          break;
        }
        case 'action_resolved': {
          const p = e.payload;
          const actor = this.agent(nameOf(p.actor_player_id));
          actor.actions++;
          if (p.slipped) actor.slips++;
          const held = pressure.get(p.actor_player_id);
          if (held && e.turn <= held.until) {
            actor.pressuredActions++;
            if (p.slipped) {
              actor.pressuredSlips++;
              this.pair(nameOf(held.by), nameOf(p.actor_player_id)).forcedErrors++;
            }
          }
          const outcome = p.manipulation_outcome;
          // Minimal logs (tests, old rows) may lack the target list; the plan's target comes first anyway.
          const target = p.attack_plan?.target_player_id ?? p.target_player_ids?.[0];
          if (!outcome || !target) break;
          count(actor.given, outcome);
          count(this.agent(nameOf(target)).received, outcome);
          count(this.pair(nameOf(p.actor_player_id), nameOf(target)), outcome);
          if (p.attack_plan) {
            count(actor.byPlan[p.attack_plan.manipulation_plan], outcome);
            count(actor.byIntent[p.attack_plan.emotional_intent], outcome);
          }
          if (outcome === 'success') {
            manipulated.add(target);
            pressure.set(target, { by: p.actor_player_id, until: e.turn + PRESSURE_ROUNDS });
          }
          break;
        }
        case 'prediction_scored': {
          const { predictor_player_id: by, target_player_id: of, correct } = e.payload;
          const a = this.agent(nameOf(by));
          const pr = this.pair(nameOf(by), nameOf(of));
          a.predictions++;
          pr.predictions++;
          if (correct) {
            a.correctPredictions++;
            pr.correctPredictions++;
          }
          break;
        }
        case 'ledger_settled':
          for (const s of e.payload.settlements ?? []) {
            const ledger = this.agent(nameOf(s.speaker_player_id)).ledger;
            const kind = (ledger[s.kind] ??= {});
            kind[s.outcome] = (kind[s.outcome] ?? 0) + 1;
            // The ledger treats a concession like a promise: attacking its target breaks it.
            if ((s.kind === 'promise' || s.kind === 'concession') && s.target_player_id && (s.outcome === 'kept' || s.outcome === 'broken')) {
              const pr = this.pair(nameOf(s.speaker_player_id), nameOf(s.target_player_id));
              if (s.outcome === 'kept') pr.promisesKept++;
              else pr.promisesBroken++;
            }
          }
          break;
        case 'game_ended':
          for (const p of e.payload.placements) {
            const a = this.agent(nameOf(p.player_id));
            let c = a.resilienceClusters.get(cluster);
            if (!c) a.resilienceClusters.set(cluster, (c = { manipulated: 0, manipulatedGames: 0, other: 0, otherGames: 0 }));
            if (manipulated.has(p.player_id)) {
              a.manipulatedGames++;
              a.manipulatedPlacements += p.placement;
              c.manipulatedGames++;
              c.manipulated += p.placement;
            } else {
              a.otherGames++;
              a.otherPlacements += p.placement;
              c.otherGames++;
              c.other += p.placement;
            }
            if (tilted.has(p.player_id)) {
              a.tiltedGames++;
              a.tiltedPlacements += p.placement;
            }
          }
          break;
      }
    }
    for (const c of game.providerCalls ?? []) {
      if (c.player_id === null) continue;
      const u = this.agent(nameOf(c.player_id)).usage;
      u.calls++;
      if (c.status !== 'ok' && c.status !== 'reported') u.failed++;
      u.input_tokens += c.input_tokens;
      u.output_tokens += c.output_tokens;
      u.cost_usd += c.cost_usd;
      u.latency_ms += c.latency_ms;
    }
  }
}
