/**
 * Win probability added (WPA): how much each decision moved its own seat's chance to win, read off
 * the omniscient curve of a finished game at every event. A seat's chance moves for three kinds of
 * reason, kept apart so a decision is not credited with the cards it drew:
 * - choice: the seat's own decisions (`CHOICE_KINDS`): the acting seat's chance after the event
 *   minus before it. Another seat's choice moves this seat's chance too (`opponents_sum`);
 * - chance: draws, reshuffles, reseeds, contest rolls and slips (`action_resolved`), rituals;
 * - rules: everything else (upkeep, the ledger settling, emotions, lives lost, the end).
 * Per seat, choice + opponents + chance + rules = last − first: nothing is lost or counted twice.
 * Pure: a function of the events (and, when known, the engine's asks), never part of the hash chain.
 */
import type { GameEvent, Placement, Window } from '../protocol/index.js';
import { initialState, viewState, type Viewer } from '../game/index.js';
import { foldView } from '../view/fold-view.js';
import { MODEL, winChances, type Chances } from './model.js';

/** Choice events and the decision window each belongs to; the actor is the payload's player_id. */
export const CHOICE_KINDS = {
  secret_plan_committed: 'intent',
  speech_posted: 'talk',
  talk_finished: 'talk',
  action_submitted: 'action',
  reaction_submitted: 'reaction',
  reflection_recorded: 'reflect',
} as const satisfies Partial<Record<GameEvent['type'], Window>>;

/** Events where the dice (or the deck) decide. */
export const CHANCE_EVENTS: ReadonlySet<string> = new Set(['cards_drawn', 'deck_reshuffled', 'hidden_reseeded', 'action_resolved', 'ritual_fired']);

/** An engine ask: `seq` is the log's seq when it asked (its step's events follow). */
export type Ask = { seq: number; player_id: string; window: Window };

/** One decision: the summed WPA of the choice events it made (`events` of them). */
export type DecisionWpa = { seq: number; player_id: string; window: Window; wpa: number; events: number };
export type ChoiceEventWpa = { seq: number; type: keyof typeof CHOICE_KINDS; player_id: string; wpa: number };
/** A chance event's move of every seat; `actor` is the seat whose action resolved (or whose ritual fired), else null. */
export type ChanceEventWpa = { seq: number; type: string; actor: string | null; delta: Chances };

const chanceActor = (e: GameEvent): string | null =>
  e.type === 'action_resolved' ? e.payload.actor_player_id : e.type === 'ritual_fired' ? e.payload.owner_player_id : null;

/** A seat's account over the game; `choice_mean` is per decision (null with none). */
export type SeatWpa = {
  decisions: number;
  choice_sum: number;
  choice_mean: number | null;
  opponents_sum: number;
  chance_sum: number;
  rules_sum: number;
  first: number;
  last: number;
};

export type GameWpa = { model: string; decisions: DecisionWpa[]; choices: ChoiceEventWpa[]; chances: ChanceEventWpa[]; seats: Record<string, SeatWpa> };

const VIEWER: Viewer = { role: 'researcher' };

const actorOf = (e: GameEvent): string | null => {
  const id = (e.payload as { player_id?: unknown }).player_id;
  return e.type in CHOICE_KINDS && typeof id === 'string' ? id : null;
};

/**
 * The WPA of every decision and chance event of a finished game. `events` is its whole log as an
 * admin (or a researcher, the game over) sees it. `asks` (the stored decisions' seq, seat and
 * window) group choice events into decisions: each counts toward its actor's latest ask before it.
 * Without them, each choice event is a decision of its own window, a speech joining the seat's next
 * choice (the talk it ends, or a compact action).
 *
 * @example gameWpa(log).seats.plr_1.choice_mean // the mean chance plr_1's decisions added
 */
export function gameWpa(events: readonly GameEvent[], asks?: readonly Ask[]): GameWpa {
  const started = events.find((e) => e.type === 'game_started');
  if (started?.type !== 'game_started') throw new Error('a log without game_started has no win probability');
  const base = initialState({ seats: started.payload.players.length, rules: started.payload.rules }, started.payload.seed ?? 0);
  let view = viewState(base, VIEWER, true);
  let p: Chances | null = null;
  let first: Chances | null = null;
  let placements: Placement[] | null = null;
  const ids = started.payload.players.map((s) => s.player_id);
  const seats: Record<string, SeatWpa> = Object.fromEntries(ids.map((id) => [id, { decisions: 0, choice_sum: 0, choice_mean: null, opponents_sum: 0, chance_sum: 0, rules_sum: 0, first: 0, last: 0 }]));
  const choices: ChoiceEventWpa[] = [];
  const chances: ChanceEventWpa[] = [];
  for (const e of events) {
    view = foldView(view, e, VIEWER, true);
    if (e.type === 'game_ended') placements = e.payload.placements;
    if (view.world.players.length === 0) continue;
    const next = winChances(view, 'omniscient', placements);
    if (!p) {
      p = first = next;
      continue;
    }
    const actor = actorOf(e);
    if (actor) choices.push({ seq: e.seq, type: e.type as keyof typeof CHOICE_KINDS, player_id: actor, wpa: (next[actor] ?? 0) - (p[actor] ?? 0) });
    else if (CHANCE_EVENTS.has(e.type)) chances.push({ seq: e.seq, type: e.type, actor: chanceActor(e), delta: Object.fromEntries(ids.map((id) => [id, (next[id] ?? 0) - (p![id] ?? 0)])) });
    for (const id of ids) {
      const d = (next[id] ?? 0) - (p[id] ?? 0);
      const s = seats[id]!;
      if (actor === id) s.choice_sum += d;
      else if (actor) s.opponents_sum += d;
      else if (CHANCE_EVENTS.has(e.type)) s.chance_sum += d;
      else s.rules_sum += d;
    }
    p = next;
  }
  const decisions = asks ? byAsks(choices, asks) : byEvents(choices);
  for (const id of ids) {
    const s = seats[id]!;
    s.first = first?.[id] ?? 0;
    s.last = p?.[id] ?? 0;
    s.decisions = decisions.filter((d) => d.player_id === id).length;
    s.choice_mean = s.decisions ? s.choice_sum / s.decisions : null;
  }
  return { model: MODEL.version, decisions, choices, chances, seats };
}

/** Choice events grouped under the engine's asks; asks with no choice event (a refused answer) drop out. */
function byAsks(choices: readonly ChoiceEventWpa[], asks: readonly Ask[]): DecisionWpa[] {
  const sorted = [...asks].sort((a, b) => a.seq - b.seq);
  const latest = new Map<string, DecisionWpa>();
  const out: DecisionWpa[] = [];
  let i = 0;
  for (const c of choices) {
    for (; i < sorted.length && sorted[i]!.seq < c.seq; i++) {
      const a = sorted[i]!;
      const prev = latest.get(a.player_id);
      // A reprompt asks again at the same seq: one decision.
      if (prev?.seq !== a.seq) latest.set(a.player_id, { seq: a.seq, player_id: a.player_id, window: a.window, wpa: 0, events: 0 });
    }
    const d = latest.get(c.player_id);
    if (!d) continue;
    if (d.events === 0) out.push(d);
    d.wpa += c.wpa;
    d.events++;
  }
  return out;
}

/** Without asks: a decision per choice event, speeches joining their seat's next choice. */
function byEvents(choices: readonly ChoiceEventWpa[]): DecisionWpa[] {
  const out: DecisionWpa[] = [];
  const talk = new Map<string, { seq: number; wpa: number; events: number }>();
  for (const c of choices) {
    const open = talk.get(c.player_id);
    if (c.type === 'speech_posted') {
      talk.set(c.player_id, open ? { ...open, wpa: open.wpa + c.wpa, events: open.events + 1 } : { seq: c.seq - 1, wpa: c.wpa, events: 1 });
      continue;
    }
    talk.delete(c.player_id);
    out.push({ seq: open?.seq ?? c.seq - 1, player_id: c.player_id, window: CHOICE_KINDS[c.type], wpa: c.wpa + (open?.wpa ?? 0), events: 1 + (open?.events ?? 0) });
  }
  return out;
}
