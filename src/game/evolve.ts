import type { EventType, GameEvent, GameEventOf } from '../protocol/index.js';
import { applyAffective, applyTactical } from './apply-effects.js';

import { clamp } from './math.js';
import { player } from './players.js';
import { parseRules } from './rules.js';
import type { GameState, PlayerState, RoundRecord } from './state.js';
import { finishSeat, reactionWindow, windowFor } from './windows/state.js';
import { moveCard, tickFaceDown } from './zones.js';

type Handler<T extends EventType> = (state: GameState, event: GameEventOf<T>) => void;
type Handlers = { [T in EventType]: Handler<T> };

/** How many memory notes a seat keeps from its reflections. */
export const MEMORY_NOTES_KEPT = 20;

const emptyRound = (turn: number): RoundRecord => ({
  turn,
  attacks: {},
  plays: {},
  slips: {},
  speeches: {},
  reactions: {},
  actions: {},
  reckless: {},
  kinetic: {},
  outcomes: {},
});

const bump = (m: Record<string, number>, id: string, by = 1): void => {
  m[id] = (m[id] ?? 0) + by;
};

export const currentRound = (state: GameState): RoundRecord => {
  const r = state.rounds[state.rounds.length - 1];
  if (!r) throw new Error('no round record');
  return r;
};

function discardHand(state: GameState, p: PlayerState): void {
  state.discard.push(...p.hand);
  p.hand = [];
}

/**
 * How each event changes the state. Handlers only copy what the event says (or derive bookkeeping
 * deterministically from it); none draws randomness, so folding a log reproduces every state.
 */
const handlers: Handlers = {
  game_started(s, e) {
    const p = e.payload;
    if (!p.cards || !p.deck)
      throw new Error('game_started without its secret parts cannot be folded');
    s.rules = parseRules(p.rules);
    s.status = 'running';
    s.cards = { ...p.cards };
    s.deck = p.deck.slice();
    s.base_order = p.base_order.slice();
    s.initiative_order = p.base_order.slice();
    s.players = p.players.map((seat) => ({
      player_id: seat.player_id,
      display_name: seat.display_name,
      seat: seat.seat,
      alive: true,
      lives: s.rules.lives,
      resolve: s.rules.resolve_baseline,
      tempo: 0,
      exposure: 0,
      hand: [],
      secret_plan: null,
      emotions: { ...seat.baseline },
      baseline: { ...seat.baseline },
      trust: Object.fromEntries(
        p.players
          .filter((o) => o.player_id !== seat.player_id)
          .map((o) => [o.player_id, s.rules.start_trust]),
      ),
      grievance: Object.fromEntries(
        p.players.filter((o) => o.player_id !== seat.player_id).map((o) => [o.player_id, 0]),
      ),
      impacts: {},
      social: {},
      next_lockout: false,
      next_forced_line: null,
      locked_out: false,
      forced_line: null,
      false_tell_charge: false,
      eliminated_turn: null,
      notes: [],
      reads_scored: 0,
      reads_correct: 0,
    }));
    s.rounds = [emptyRound(0)];
  },
  phase_changed(s, e) {
    s.phase = e.payload.phase;
    s.turn = e.payload.turn;
    if (s.phase === 'upkeep') {
      s.rounds.push(emptyRound(s.turn));
      if (s.rounds.length > 3) s.rounds.shift();
      s.speech = [];
      for (const p of s.players) p.secret_plan = null;
    }
    s.window = windowFor(s, s.phase);
    s.suspended = null;
  },
  upkeep_applied(s, e) {
    const p = e.payload;
    s.initiative_order = p.initiative_order.slice();
    applyTactical(s, {
      resolve_delta: p.resolve_delta,
      tempo_delta: p.tempo_delta,
      exposure_delta: {},
      card_moves: [],
      triggered_effects: [],
      status_changes: [],
    });
    for (const pl of s.players) {
      pl.locked_out = p.locked_out.includes(pl.player_id);
      pl.forced_line = p.forced_lines[pl.player_id] ?? null;
      pl.next_lockout = false;
      pl.next_forced_line = null;
    }
    tickFaceDown(s);
    for (const t of p.arena_ticks) {
      const a = s.arena.find((x) => x.card_id === t.card_id);
      if (!a) throw new Error(`arena tick for missing card ${t.card_id}`);
      a.rounds_left = t.rounds_left;
      a.countdown = t.countdown;
    }
    for (const m of p.card_moves) moveCard(s, m);
    for (const pl of s.players) {
      if (
        pl.false_tell_charge &&
        !s.arena.some((a) => a.owner === pl.player_id && s.cards[a.card_id] === 'False Tell')
      ) {
        pl.false_tell_charge = false;
      }
    }
  },
  ritual_fired(s, e) {
    applyTactical(s, e.payload.tactical_effect);
    if (e.payload.affective_effect) applyAffective(s, e.payload.affective_effect);
  },
  cards_drawn(s, e) {
    const p = player(s, e.payload.player_id);
    const drawn = s.deck.splice(0, e.payload.count);
    if (drawn.length !== e.payload.count) throw new Error('drew more cards than the deck holds');
    if (e.payload.cards && e.payload.cards.join() !== drawn.join())
      throw new Error('drawn cards disagree with the deck');
    p.hand.push(...drawn);
  },
  hidden_reseeded(s, e) {
    const order = e.payload.order;
    if (!order) throw new Error('hidden_reseeded without its order cannot be folded');
    if (order.length !== s.deck.length || [...order].sort().join() !== [...s.deck].sort().join()) throw new Error('hidden_reseeded reorders cards that are not the deck');
    s.deck = order.slice();
  },
  deck_reshuffled(s, e) {
    if (!e.payload.order) throw new Error('deck_reshuffled without its order cannot be folded');
    s.deck.push(...e.payload.order);
    s.discard = s.discard.filter((c) => !e.payload.order!.includes(c));
  },
  cards_discarded(s, e) {
    const p = player(s, e.payload.player_id);
    for (const c of e.payload.cards)
      moveCard(s, {
        card_id: c.card_id,
        from: `hand:${p.player_id}`,
        to: 'discard',
        reason: e.payload.reason,
      });
  },
  secret_plan_committed(s, e) {
    if (!e.payload.plan) throw new Error('secret plan missing from the full log');
    player(s, e.payload.player_id).secret_plan = e.payload.plan;
    if (s.window?.window === 'intent') finishSeat(s.window, e.payload.player_id);
  },
  speech_posted(s, e) {
    const p = e.payload;
    if (p.text === undefined || p.speech_act === undefined)
      throw new Error('speech missing from the full log');
    s.speech.push({
      player_id: p.player_id,
      channel: p.channel,
      target_player_id: p.target_player_id,
      text: p.text,
      speech_act: p.speech_act,
    });
    bump(currentRound(s).speeches, p.player_id);
    if (p.commitment_id) {
      s.ledger.push({
        commitment_id: p.commitment_id,
        kind: p.speech_act,
        speaker: p.player_id,
        target: p.target_player_id,
        turn: s.turn,
        public: p.channel === 'public',
      });
      s.next_commitment += 1;
    }
  },
  talk_finished(s, e) {
    if (s.window) finishSeat(s.window, e.payload.player_id);
  },
  action_submitted(s, e) {
    const p = e.payload;
    const w = s.window;
    if (!w) throw new Error('action outside a window');
    const seat = player(s, p.player_id);
    if (p.kind === 'pass') {
      finishSeat(w, p.player_id);
      return;
    }
    if (!p.action) throw new Error('action missing from the full log');
    const cardId = p.action.payload.card_id!;
    if (p.kind === 'play_card') {
      const i = seat.hand.indexOf(cardId);
      if (i < 0) throw new Error(`submitted card ${cardId} not in hand`);
      seat.hand.splice(i, 1);
    }
    seat.tempo -= p.tempo_paid;
    w.taken += 1;
    s.stack.push({
      action_id: p.action_id,
      player_id: p.player_id,
      kind: p.kind,
      card_id: cardId,
      payload: p.action.payload,
      attack_plan: p.attack_plan ?? null,
      index: w.taken,
      reaction_card_id: null,
    });
    s.next_action += 1;
    const round = currentRound(s);
    bump(round.actions, p.player_id);
    const name = s.cards[cardId] ?? '';
    (round.plays[p.player_id] ??= []).push(p.kind === 'activate' ? `activate:${name}` : name);
    if (name === 'Overreach' || (w.taken === 2 && seat.exposure >= s.rules.tell_dominant_at))
      bump(round.reckless, p.player_id);
    w.rejections = 0;
    w.last_rejection = null;
    const max = seat.locked_out ? 1 : s.rules.actions_per_round;
    if (w.taken >= max) finishSeat(w, p.player_id);
  },
  action_rejected(s, e) {
    if (!s.window) throw new Error('rejection outside a window');
    s.window.rejections += 1;
    const code = e.payload.code ?? 'rejected';
    s.window.last_rejection = e.payload.reprompt
      ? { code, message: e.payload.message ?? code }
      : null;
  },
  reaction_requested(s, e) {
    s.suspended = s.window;
    s.window = reactionWindow(e.payload.player_id, e.payload.action_id);
  },
  reaction_submitted(s, e) {
    const p = e.payload;
    if (p.card) {
      const seat = player(s, p.player_id);
      const i = seat.hand.indexOf(p.card.card_id);
      if (i < 0) throw new Error(`reaction card ${p.card.card_id} not in hand`);
      seat.hand.splice(i, 1);
      seat.tempo -= p.tempo_paid;
      const entry = s.stack.find((x) => x.action_id === p.action_id);
      if (!entry) throw new Error(`reaction to unknown action ${p.action_id}`);
      entry.reaction_card_id = p.card.card_id;
      bump(currentRound(s).reactions, p.player_id);
    }
    if (s.window?.window === 'reaction') {
      s.window = s.suspended;
      s.suspended = null;
    }
  },
  plans_revealed(s, e) {
    s.revealed_plans = { ...e.payload.plans };
  },
  action_resolved(s, e) {
    const p = e.payload;
    applyTactical(s, p.tactical_effect);
    for (const m of p.private_moves ?? []) moveCard(s, m);
    if (p.affective_effect) applyAffective(s, p.affective_effect);
    const i = s.stack.findIndex((x) => x.action_id === p.action_id);
    if (i < 0) throw new Error(`resolved unknown action ${p.action_id}`);
    const [entry] = s.stack.splice(i, 1);
    const round = currentRound(s);
    const actor = p.actor_player_id;
    if (p.attack_plan && !p.fizzled) {
      (round.attacks[actor] ??= []).push(p.attack_plan.target_player_id);
      (round.kinetic[actor] ??= []).push(p.attack_plan.kinetic_intent);
      const target = player(s, p.attack_plan.target_player_id);
      target.false_tell_charge = false;
      if (p.manipulation_outcome) (round.outcomes[actor] ??= []).push(p.manipulation_outcome);
    }
    if (p.slipped) {
      bump(round.slips, actor);
      bump(round.reckless, actor);
    }
    // False Tell lies face down, so the event's public `card` is null: read the card off the stack entry.
    if (entry!.kind === 'play_card' && s.cards[entry!.card_id] === 'False Tell' && !p.fizzled)
      player(s, actor).false_tell_charge = true;
    if (p.prediction && p.attack_plan) {
      s.predictions.push({
        predictor: actor,
        target: p.attack_plan.target_player_id,
        predicted: p.prediction.predicted,
        from_turn: p.prediction.from_turn,
        to_turn: p.prediction.to_turn,
      });
    }
  },
  ledger_settled(s, e) {
    const settled = e.payload.settlements;
    if (!settled) throw new Error('settlements missing from the full log');
    applyTactical(s, e.payload.tactical_effect);
    if (e.payload.affective_effect) applyAffective(s, e.payload.affective_effect);
    const ids = new Set(settled.map((x) => x.commitment_id));
    s.ledger = s.ledger.filter((c) => !ids.has(c.commitment_id));
  },
  prediction_scored(s, e) {
    const p = e.payload;
    const i = s.predictions.findIndex(
      (x) =>
        x.predictor === p.predictor_player_id &&
        x.target === p.target_player_id &&
        x.predicted === p.predicted,
    );
    if (i < 0) throw new Error('scored an unknown prediction');
    s.predictions.splice(i, 1);
    const predictor = player(s, p.predictor_player_id);
    predictor.reads_scored += 1;
    if (p.correct) predictor.reads_correct += 1;
    predictor.tempo = clamp(predictor.tempo + p.tempo_delta, 0, s.rules.tempo_cap);
  },
  emotion_updated(s, e) {
    const p = e.payload;
    if (!p.emotions || !p.trust || !p.grievance)
      throw new Error('emotions missing from the full log');
    const seat = player(s, p.player_id);
    seat.emotions = { ...p.emotions };
    seat.trust = { ...p.trust };
    seat.grievance = { ...p.grievance };
    if (p.reason === 'reflect') {
      seat.impacts = {};
      seat.social = {};
    }
  },
  exposure_updated(s, e) {
    for (const [id, d] of Object.entries(e.payload.exposure_delta)) {
      const seat = player(s, id);
      seat.exposure = clamp(seat.exposure + d, 0, s.rules.exposure_cap);
    }
  },
  reflection_recorded(s, e) {
    const seat = player(s, e.payload.player_id);
    if (e.payload.record) seat.notes = [...seat.notes, ...e.payload.record.memory_updates].slice(-MEMORY_NOTES_KEPT);
    if (s.window?.window === 'reflect') finishSeat(s.window, seat.player_id);
  },
  life_lost(s, e) {
    const seat = player(s, e.payload.player_id);
    seat.lives = e.payload.lives_left;
    seat.resolve = e.payload.resolve_after;
    discardHand(s, seat);
  },
  player_eliminated(s, e) {
    const seat = player(s, e.payload.player_id);
    seat.alive = false;
    seat.eliminated_turn = s.turn;
    discardHand(s, seat);
    for (const a of s.arena.filter((x) => x.owner === seat.player_id)) s.discard.push(a.card_id);
    s.arena = s.arena.filter((x) => x.owner !== seat.player_id);
    s.ledger = s.ledger.filter((c) => c.speaker !== seat.player_id && c.target !== seat.player_id);
    s.predictions = s.predictions.filter(
      (x) => x.predictor !== seat.player_id && x.target !== seat.player_id,
    );
  },
  game_ended(s, e) {
    s.status = 'done';
    s.placements = e.payload.placements.map((p) => ({ ...p }));
    s.window = null;
    s.suspended = null;
  },
};

/** Applies an event to a state in place (the engine's hot path; callers own the state). */
export function applyEvent(state: GameState, event: GameEvent): void {
  if (event.game_id !== state.game_id)
    throw new Error(`event for ${event.game_id} applied to ${state.game_id}`);
  if (event.seq !== state.seq + 1) throw new Error(`event seq ${event.seq} after ${state.seq}`);
  (handlers[event.type] as Handler<EventType>)(state, event);
  state.seq = event.seq;
  state.ts = event.ts;
  state.turn = event.turn;
  if (event.rng) state.rng = { ...event.rng };
}
