/**
 * A game loop like runGame that also records, for every decision, what the deciding seat could see
 * of itself (its fear) and what it chose — the material for the agents' behavioural tests.
 */
import type { CardType, GameEvent, TurnPlanRequest } from '../../src/protocol/index.js';
import { awaiting, initialState, requestFor, stepInPlace, type GameConfigInput } from '../../src/game/index.js';
import { createAgent, type AgentName } from '../../src/agents/builtin/index.js';
import { seatConfigs } from '../../src/runner/lineup.js';

/** One card a seat put into play (action window or reaction), with the fear it felt when choosing. */
export type Play = { agent: AgentName; type: CardType; name: string; fear: number; kind: 'play_card' | 'activate' | 'reaction' };

export type Played = { events: GameEvent[]; decisions: unknown[]; plays: Play[]; agents: AgentName[] };

const cardOf = (r: TurnPlanRequest, id: unknown) => r.legal_actions.find((l) => 'card_id' in l && l.card_id === id);

function record(r: TurnPlanRequest, agent: AgentName, d: unknown, plays: Play[]): void {
  const fear = r.player_private_view.emotion_state.fear;
  const add = (id: unknown, kind: Play['kind']) => {
    const l = cardOf(r, id);
    if (l && 'type' in l) plays.push({ agent, type: l.type, name: l.name, fear, kind });
    else if (l && l.kind === 'reaction') plays.push({ agent, type: 'guard', name: l.name, fear, kind });
  };
  const x = d as { selected_action?: { kind: string; payload?: { card_id?: string } }; follow_up?: { selected_action: { kind: string; payload?: { card_id?: string } } } | null; card_id?: string | null };
  if (r.window === 'reaction' && x.card_id) add(x.card_id, 'reaction');
  for (const a of [x.selected_action, x.follow_up?.selected_action]) {
    if (r.window === 'action' && a && (a.kind === 'play_card' || a.kind === 'activate')) add(a.payload?.card_id, a.kind);
  }
}

/** Sees every request a seat was handed with the answer it gave (tests that need the seat's view). */
export type DecisionObserver = (r: TurnPlanRequest, agent: AgentName, decision: unknown) => void;

/** Plays one game; seat i is `agents[i]` with its personality baseline, as the CLI seats it. */
export function play(agents: readonly AgentName[], seed: number, rules: GameConfigInput['rules'] = {}, observe?: DecisionObserver): Played {
  const state = initialState({ seats: seatConfigs(agents), rules }, seed);
  const seats = agents.map((a, i) => createAgent(a, seed, i));
  const events: GameEvent[] = [];
  const decisions: unknown[] = [];
  const plays: Play[] = [];
  const started = stepInPlace(state, { type: 'start' });
  if (!started.ok) throw new Error(started.rejection.message);
  events.push(...started.events);
  for (let next = awaiting(state); next; next = awaiting(state)) {
    const seat = next.seats[0]!;
    const i = Number(seat.slice(4)) - 1;
    const r = requestFor(state, seat);
    const d = seats[i]!.decide(r);
    decisions.push(d);
    record(r, agents[i]!, d, plays);
    observe?.(r, agents[i]!, d);
    const res = stepInPlace(state, { type: 'decision', player_id: seat, window: next.window, decision: d });
    if (!res.ok) throw new Error(`engine refused ${seat}: ${res.rejection.message}`);
    events.push(...res.events);
  }
  return { events, decisions, plays, agents: [...agents] };
}

/** The agent seated as `player_id` in a game. */
export const agentOf = (g: Played, id: string): AgentName => g.agents[Number(id.slice(4)) - 1]!;

/** Seat i of game g gets `pool[(g + i * step) % pool.length]`: mixed line-ups that rotate seats. */
export function lineup(pool: readonly AgentName[], g: number, seats = 4): AgentName[] {
  const step = 1 + (g % 2);
  return Array.from({ length: seats }, (_, i) => pool[(g + i * step) % pool.length]!);
}
