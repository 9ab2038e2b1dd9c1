import type { EventType, GameEvent, GameEventOf, PlayerPrivateState, StackEntryView } from '../protocol/index.js';
import { applyEvent, MEMORY_NOTES_KEPT } from '../game/evolve.js';
import { clonePlain, cloneState } from '../game/clone.js';
import { RulesConfig } from '../game/rules.js';
import { ruleFlags, viewState, type StateView, type Viewer } from '../game/views.js';
import { addTempo, addExposure, applyTactical, enterArena, moveCard, priv, pub, removeFromHand, type Draft } from './fold-cards.js';

type Handler<T extends EventType> = (d: Draft, e: GameEventOf<T>) => void;

/** Trust and grievance move at resolve; a seat sees its own rows (`own`), an all-seeing view every row. */
function applySocial(d: Draft, e: GameEvent, effect: { trust_delta: Record<string, Record<string, number>>; grievance_delta: Record<string, Record<string, number>> } | undefined): void {
  const rows = effect ?? (e.own ? { trust_delta: { [e.own.player_id]: e.own.trust_delta ?? {} }, grievance_delta: { [e.own.player_id]: e.own.grievance_delta ?? {} } } : null);
  if (!rows) return;
  for (const [id, row] of Object.entries(rows.trust_delta)) {
    const em = priv(d, id)?.emotion_state;
    if (em) for (const [o, x] of Object.entries(row)) em.trust[o] = round4(clamp((em.trust[o] ?? 0) + x, -1, 1));
  }
  for (const [id, row] of Object.entries(rows.grievance_delta)) {
    const em = priv(d, id)?.emotion_state;
    if (em) for (const [o, x] of Object.entries(row)) em.grievance[o] = round4(clamp((em.grievance[o] ?? 0) + x, 0, 1));
  }
}
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

function newPrivate(id: string, emotion_state: PlayerPrivateState['emotion_state']): PlayerPrivateState {
  return {
    player_id: id,
    hand: [],
    secret_plan: null,
    memory_state: { notes: [], agent: {} },
    emotion_state,
    belief_state: { tells: {}, revealed_plans: {}, commitments: [], predictions: [] },
  };
}

/**
 * How each projected event changes a projected state. These follow the engine's evolve handler by
 * handler but only over what a view holds; what a view cannot derive (card names, tells, a seat's
 * own trust moves) the projected event carries.
 */
const handlers: { [T in EventType]: Handler<T> } = {
  game_started(d, e) {
    const p = e.payload;
    const rules = RulesConfig.parse(p.rules);
    d.world.status = 'running';
    d.world.rule_flags = ruleFlags(rules);
    if (d.all && p.seed !== undefined) d.world.seed = p.seed;
    d.world.initiative_order = p.base_order.slice();
    d.world.arena.deck_count = p.deck_count;
    d.world.players = p.players.map((s) => ({
      player_id: s.player_id,
      display_name: s.display_name,
      alive: true,
      lives: rules.lives,
      resolve: rules.resolve_baseline,
      tempo: 0,
      exposure: 0,
      hand_count: 0,
      arena_cards: [],
      tell: { dominant: null, vector: null, masked: false },
      locked_out: false,
      forced_line_toward: null,
    }));
    d.private = p.players
      .filter((s) => d.all || s.player_id === d.seat)
      .map((s) => {
        const others = p.players.filter((o) => o.player_id !== s.player_id);
        return newPrivate(s.player_id, {
          ...s.baseline,
          trust: Object.fromEntries(others.map((o) => [o.player_id, rules.start_trust])),
          grievance: Object.fromEntries(others.map((o) => [o.player_id, 0])),
        });
      });
  },
  phase_changed(d, e) {
    if (e.payload.phase !== 'upkeep') return;
    d.world.round_speech = [];
    for (const p of d.private) p.secret_plan = null;
  },
  upkeep_applied(d, e) {
    const p = e.payload;
    d.world.initiative_order = p.initiative_order.slice();
    applyTactical(d, { resolve_delta: p.resolve_delta, tempo_delta: p.tempo_delta, exposure_delta: {}, card_moves: [], triggered_effects: [], status_changes: [] }, e);
    for (const pl of d.world.players) {
      pl.locked_out = p.locked_out.includes(pl.player_id);
      pl.forced_line_toward = p.forced_lines[pl.player_id] ?? null;
    }
    // Face-down clocks tick unlogged (engine: tickFaceDown); a view holds only those it may see.
    for (const a of d.world.arena.cards) if (a.face_down && a.rounds_left !== null) a.rounds_left -= 1;
    for (const t of p.arena_ticks) {
      const a = d.world.arena.cards.find((x) => x.card.card_id === t.card_id);
      if (!a) throw new Error(`view: arena tick for missing card ${t.card_id}`);
      a.rounds_left = t.rounds_left;
      a.countdown = t.countdown;
    }
    for (const m of p.card_moves) moveCard(d, m, e);
  },
  ritual_fired(d, e) {
    applyTactical(d, e.payload.tactical_effect, e);
    applySocial(d, e, e.payload.affective_effect);
  },
  cards_drawn(d, e) {
    const p = e.payload;
    pub(d, p.player_id).hand_count += p.count;
    d.world.arena.deck_count -= p.count;
    const hand = priv(d, p.player_id)?.hand;
    if (hand) {
      if (!p.card_refs) throw new Error('view: cards_drawn without card_refs for a hand it holds');
      hand.push(...p.card_refs);
    }
  },
  // The deck keeps its cards, only their order (unseen) changes.
  hidden_reseeded() {},
  deck_reshuffled(d, e) {
    d.world.arena.deck_count += e.payload.count;
    d.world.discard = [];
  },
  cards_discarded(d, e) {
    for (const c of e.payload.cards) {
      removeFromHand(d, e.payload.player_id, c.card_id);
      d.world.discard.push(c);
    }
  },
  secret_plan_committed(d, e) {
    const me = priv(d, e.payload.player_id);
    if (me && e.payload.plan) me.secret_plan = e.payload.plan;
  },
  speech_posted(d, e) {
    const p = e.payload;
    d.world.round_speech.push({ player_id: p.player_id, channel: p.channel, target_player_id: p.target_player_id, text: p.text ?? null, speech_act: p.speech_act ?? null });
    const me = priv(d, p.player_id);
    if (me && p.commitment_id && p.speech_act) {
      me.belief_state.commitments.push({ commitment_id: p.commitment_id, kind: p.speech_act, speaker_player_id: p.player_id, target_player_id: p.target_player_id, turn: e.turn, public: p.channel === 'public' });
    }
  },
  talk_finished() {},
  action_submitted(d, e) {
    const p = e.payload;
    if (p.kind === 'pass') return;
    pub(d, p.player_id).tempo -= p.tempo_paid;
    const cardId = p.action?.payload.card_id ?? p.card?.card_id ?? null;
    const fromHand = p.kind === 'play_card' ? removeFromHand(d, p.player_id, cardId) : null;
    const entry: StackEntryView = { action_id: p.action_id, player_id: p.player_id, kind: p.kind, card: p.card ?? fromHand, target_player_id: p.target_player_id, reaction_card: null };
    d.world.stack.push(entry);
  },
  action_rejected() {},
  reaction_requested() {},
  reaction_submitted(d, e) {
    const p = e.payload;
    if (!p.card) return;
    removeFromHand(d, p.player_id, p.card.card_id);
    pub(d, p.player_id).tempo -= p.tempo_paid;
    const entry = d.world.stack.find((x) => x.action_id === p.action_id);
    if (!entry) throw new Error(`view: reaction to unknown action ${p.action_id}`);
    entry.reaction_card = p.card;
  },
  plans_revealed(d, e) {
    for (const me of d.private) {
      const { [me.player_id]: _own, ...others } = e.payload.plans;
      me.belief_state.revealed_plans = others;
    }
  },
  action_resolved(d, e) {
    const p = e.payload;
    applyTactical(d, p.tactical_effect, e);
    const entry = d.world.stack.find((x) => x.action_id === p.action_id);
    if (!entry) throw new Error(`view: resolved unknown action ${p.action_id}`);
    if (p.private_moves) for (const m of p.private_moves) moveCard(d, m, e);
    // A face-down play (its card null to the public) lands face down in the actor's arena.
    else if (p.kind === 'play_card' && p.card === null && !p.fizzled) enterArena(d, p.actor_player_id, entry.card, null);
    applySocial(d, e, p.affective_effect);
    if (p.prediction && p.attack_plan) {
      priv(d, p.actor_player_id)?.belief_state.predictions.push({ target_player_id: p.attack_plan.target_player_id, predicted: p.prediction.predicted, from_turn: p.prediction.from_turn, to_turn: p.prediction.to_turn });
    }
    d.world.stack.splice(d.world.stack.indexOf(entry), 1);
  },
  ledger_settled(d, e) {
    applyTactical(d, e.payload.tactical_effect, e);
    applySocial(d, e, e.payload.affective_effect);
    for (const s of e.payload.settlements ?? e.own?.settlements ?? []) {
      const me = priv(d, s.speaker_player_id);
      if (me) me.belief_state.commitments = me.belief_state.commitments.filter((c) => c.commitment_id !== s.commitment_id);
    }
  },
  prediction_scored(d, e) {
    const p = e.payload;
    const me = priv(d, p.predictor_player_id);
    if (me) {
      const list = me.belief_state.predictions;
      const i = list.findIndex((x) => x.target_player_id === p.target_player_id && x.predicted === p.predicted);
      if (i < 0) throw new Error('view: scored an unknown prediction');
      list.splice(i, 1);
    }
    addTempo(d, p.predictor_player_id, p.tempo_delta);
  },
  emotion_updated(d, e) {
    const p = e.payload;
    const me = priv(d, p.player_id);
    if (me && p.emotions && p.trust && p.grievance) me.emotion_state = { ...p.emotions, trust: { ...p.trust }, grievance: { ...p.grievance } };
  },
  exposure_updated(d, e) {
    for (const [id, x] of Object.entries(e.payload.exposure_delta)) addExposure(d, id, x);
  },
  reflection_recorded(d, e) {
    const me = priv(d, e.payload.player_id);
    if (me && e.payload.record) me.memory_state.notes = [...me.memory_state.notes, ...e.payload.record.memory_updates].slice(-MEMORY_NOTES_KEPT);
  },
  life_lost(d, e) {
    const p = e.payload;
    const pl = pub(d, p.player_id);
    pl.lives = p.lives_left;
    pl.resolve = p.resolve_after;
    pl.hand_count = 0;
    const me = priv(d, p.player_id);
    if (me) me.hand = [];
    d.world.discard.push(...p.discarded);
  },
  player_eliminated(d, e) {
    const id = e.payload.player_id;
    const pl = pub(d, id);
    if (pl.hand_count !== 0) throw new Error(`view: ${id} eliminated holding cards it did not discard`);
    pl.alive = false;
    d.world.discard.push(...e.payload.discarded);
    d.world.arena.cards = d.world.arena.cards.filter((a) => a.owner_player_id !== id);
    for (const me of d.private) {
      const b = me.belief_state;
      b.commitments = b.commitments.filter((c) => c.speaker_player_id !== id && c.target_player_id !== id);
      b.predictions = me.player_id === id ? [] : b.predictions.filter((x) => x.target_player_id !== id);
    }
  },
  game_ended(d) {
    d.world.status = 'done';
  },
};

/**
 * A copy of what the handlers change in place. Card refs, tells, plans, vectors and rule flags are
 * only ever replaced, never changed, so they are shared (a full structuredClone costs ~5× more).
 */
function draftOf(view: StateView): Pick<Draft, 'world' | 'private'> {
  const w = view.world;
  return {
    world: {
      ...w,
      players: w.players.map((p) => ({ ...p })),
      arena: { cards: w.arena.cards.map((a) => ({ ...a })), deck_count: w.arena.deck_count },
      discard: w.discard.slice(),
      round_speech: w.round_speech.slice(),
      stack: w.stack.map((x) => ({ ...x })),
    },
    private: view.private.map((p) => ({
      ...p,
      hand: p.hand.slice(),
      memory_state: { ...p.memory_state },
      emotion_state: { ...p.emotion_state, trust: { ...p.emotion_state.trust }, grievance: { ...p.emotion_state.grievance } },
      belief_state: { ...p.belief_state, commitments: p.belief_state.commitments.slice(), predictions: p.belief_state.predictions.slice() },
    })),
  };
}

const seesAll = (viewer: Viewer, gameOver: boolean) => viewer.role === 'admin' || viewer.role === 'broadcast' || (viewer.role === 'researcher' && gameOver);

/**
 * The one view reducer: folds one projected event (as `viewEvent(event, viewer, gameOver)` made it)
 * into the projected state before it (`viewState(state, viewer, gameOver)` at seq − 1) and returns
 * the projected state after it, so that folding a view's events from any snapshot reproduces the
 * server's `viewState` and `state_hash` at every later seq. Pure: the input view is not changed.
 * An admin view holds the raw state, so the engine's own evolve folds it; other views are folded
 * over what they hold. A researcher's view widens when the game ends (`gameOver`): fetch a
 * snapshot then rather than folding across the change.
 *
 * @example const next = foldView(snapshot.state, message.event, { role: 'spectator' });
 */
export function foldView(view: StateView, event: GameEvent, viewer: Viewer, gameOver = false): StateView {
  if (view.raw) {
    const raw = cloneState(view.raw);
    applyEvent(raw, clonePlain(event));
    return viewState(raw, viewer, gameOver);
  }
  const d: Draft = { ...draftOf(view), all: seesAll(viewer, gameOver), seat: viewer.role === 'seat' ? viewer.player_id : null };
  (handlers[event.type] as Handler<EventType>)(d, event);
  const w = d.world;
  w.turn = event.turn;
  w.phase = event.phase;
  for (const [id, tell] of Object.entries(event.tells ?? {})) pub(d, id).tell = tell;
  for (const pl of w.players) pl.arena_cards = w.arena.cards.filter((a) => a.owner_player_id === pl.player_id).map((a) => a.card);
  for (const me of d.private) {
    me.belief_state.tells = Object.fromEntries(w.players.filter((o) => o.player_id !== me.player_id && o.alive).map((o) => [o.player_id, o.tell]));
  }
  return { world: w, private: d.private };
}


/**
 * foldView over a list of events, in order. An admin view's engine state is copied once and
 * evolved in place through the list (copying it per event is what makes admin folds slow).
 */
export function foldEvents(view: StateView, events: readonly GameEvent[], viewer: Viewer, gameOver = false): StateView {
  if (view.raw && events.length > 0) {
    const raw = cloneState(view.raw);
    for (const e of events) applyEvent(raw, clonePlain(e));
    return viewState(raw, viewer, gameOver);
  }
  let v = view;
  for (const e of events) v = foldView(v, e, viewer, gameOver);
  return v;
}
