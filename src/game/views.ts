import type {
  BeliefState,
  CardRef,
  EmotionState,
  EmotionVector,
  GameEvent,
  PlayerPrivateState,
  PlayerPublicState,
  SpeechView,
  StackEntryView,
  Tell,
  WorldState,
} from '../protocol/index.js';
import { defOf } from './cards.js';
import { player } from './players.js';
import type { RulesConfig } from './rules.js';
import type { GameState, PlayerId } from './state.js';
import { tellsOf } from './tells.js';
import { broadcastEvent } from './views-broadcast.js';
import { HIDDEN_CARD, cardRefOf, discardRefs } from './views-cards.js';

/**
 * Who is looking. A seat sees what its agent may see; spectators the public table; researchers the
 * public table live and everything once the game is over; admins everything, live. A broadcast
 * audience sees every seat as an admin does, but never the seed, the PRNG, the deck's order or
 * the raw engine state (nothing that tells the future), and only behind the server's hold-back.
 */
export type Viewer =
  | { role: 'seat'; player_id: PlayerId }
  | { role: 'spectator' }
  | { role: 'researcher' }
  | { role: 'broadcast' }
  | { role: 'admin' };

/** Whether a viewer sees every seat's secrets (hands, plans, private speech, emotions). */
const seesAll = (viewer: Viewer, gameOver: boolean) => viewer.role === 'admin' || viewer.role === 'broadcast' || (viewer.role === 'researcher' && gameOver);
/** Whether a viewer sees what tells the future too (the seed): admins, and researchers after the end. */
const seesFuture = (viewer: Viewer, gameOver: boolean) => viewer.role === 'admin' || (viewer.role === 'researcher' && gameOver);
const seatOf = (viewer: Viewer): PlayerId | null => (viewer.role === 'seat' ? viewer.player_id : null);

/**
 * The one projection for log entries: drops every payload key the event marks hidden from this
 * viewer, and the PRNG state, and lists what it dropped under `redacted`.
 */
export function viewEvent(event: GameEvent, viewer: Viewer, gameOver = false): GameEvent {
  if (seesFuture(viewer, gameOver)) return event;
  if (viewer.role === 'broadcast') return broadcastEvent(event);
  const seat = seatOf(viewer);
  const hidden = event.visibility.hidden;
  const drop = hidden.filter((h) => seat === null || !h.to.includes(seat)).map((h) => h.key);
  if (hidden.length === 0 && event.rng === undefined) return event;
  const payload: Record<string, unknown> = { ...event.payload };
  for (const k of drop) delete payload[k];
  const { rng: _rng, ...rest } = event;
  // The audience lists are secrets too (who may see a key says who holds what): a viewer only
  // learns whether it is in each one.
  const visibility = { hidden: hidden.map((h) => ({ key: h.key, to: seat !== null && h.to.includes(seat) ? [seat] : [] })) };
  const own = seat !== null && drop.length ? ownSlice(event, seat, drop) : null;
  return { ...rest, payload, visibility, ...(drop.length ? { redacted: drop } : {}), ...(own ? { own } : {}) } as GameEvent;
}

/**
 * What a seat may know of itself inside keys hidden from it: its own trust and grievance moves
 * (its private view shows the values anyway) and its own commitments that settled (its private
 * view lists its open ones). Without these a seat's view could not be folded from its events.
 */
function ownSlice(event: GameEvent, seat: PlayerId, drop: readonly string[]): GameEvent['own'] | null {
  const p = event.payload as { affective_effect?: { trust_delta: Record<string, Record<string, number>>; grievance_delta: Record<string, Record<string, number>> }; settlements?: { speaker_player_id: string }[] };
  const own: NonNullable<GameEvent['own']> = { player_id: seat };
  const a = drop.includes('affective_effect') ? p.affective_effect : undefined;
  if (a?.trust_delta[seat] && Object.keys(a.trust_delta[seat]).length) own.trust_delta = { ...a.trust_delta[seat] };
  if (a?.grievance_delta[seat] && Object.keys(a.grievance_delta[seat]).length) own.grievance_delta = { ...a.grievance_delta[seat] };
  const mine = drop.includes('settlements') ? p.settlements?.filter((x) => x.speaker_player_id === seat) : undefined;
  if (mine?.length) own.settlements = mine as NonNullable<GameEvent['own']>['settlements'];
  return Object.keys(own).length > 1 ? own : null;
}

function arenaCardsOf(state: GameState, owner: PlayerId, viewerSeat: PlayerId | null, all: boolean): CardRef[] {
  return state.arena
    .filter((a) => a.owner === owner)
    .map((a) => (a.face_down && !all && viewerSeat !== owner ? HIDDEN_CARD : cardRefOf(state, a.card_id)));
}

function speechFor(state: GameState, viewerSeat: PlayerId | null, all: boolean): SpeechView[] {
  return state.speech.map((x) => {
    const mine = all || x.player_id === viewerSeat;
    const heard = mine || x.channel === 'public' || x.target_player_id === viewerSeat;
    return { player_id: x.player_id, channel: x.channel, target_player_id: x.target_player_id, text: heard ? x.text : null, speech_act: mine ? x.speech_act : null };
  });
}

function stackFor(state: GameState, viewerSeat: PlayerId | null, all: boolean): StackEntryView[] {
  return state.stack.map((e) => {
    const def = defOf(state, e.card_id);
    const hidden = e.kind === 'play_card' && def.faceDown && !all && viewerSeat !== e.player_id;
    return {
      action_id: e.action_id,
      player_id: e.player_id,
      kind: e.kind,
      card: hidden ? null : cardRefOf(state, e.card_id),
      target_player_id: e.payload.target_player_id ?? null,
      reaction_card: e.reaction_card_id ? cardRefOf(state, e.reaction_card_id) : null,
    };
  });
}

/** The rules a table shows: the flags agents plan by and the caps a view reducer clamps counters to. */
export const ruleFlags = (r: RulesConfig): Record<string, unknown> => ({
  rules_version: r.rules_version,
  windows: r.windows,
  round_cap: r.round_cap,
  reflect_window: r.reflect_window,
  tempo_cap: r.tempo_cap,
  exposure_cap: r.exposure_cap,
});

/** The public table as a viewer sees it (seed 003 WorldState). */
export function worldView(state: GameState, viewer: Viewer, tells = tellsOf(state), gameOver = state.status === 'done'): WorldState {
  const all = seesAll(viewer, gameOver);
  const seat = seatOf(viewer);
  const players: PlayerPublicState[] = state.players.map((p) => ({
    player_id: p.player_id,
    display_name: p.display_name,
    alive: p.alive,
    lives: p.lives,
    resolve: p.resolve,
    tempo: p.tempo,
    exposure: p.exposure,
    hand_count: p.hand.length,
    arena_cards: arenaCardsOf(state, p.player_id, seat, all),
    tell: tells.get(p.player_id)!,
    locked_out: p.locked_out,
    forced_line_toward: p.forced_line,
  }));
  return {
    schema_version: state.schema_version,
    game_id: state.game_id,
    seed: seesFuture(viewer, gameOver) ? state.seed : null,
    turn: state.turn,
    phase: state.phase,
    status: state.status,
    players,
    arena: {
      cards: state.arena.map((a) => {
        const hidden = a.face_down && !all && seat !== a.owner;
        return {
          card: hidden ? HIDDEN_CARD : cardRefOf(state, a.card_id),
          owner_player_id: a.owner,
          face_down: a.face_down,
          rounds_left: hidden ? null : a.rounds_left,
          countdown: hidden ? null : a.countdown,
          chosen_emotion: hidden ? null : a.chosen_emotion,
        };
      }),
      deck_count: state.deck.length,
    },
    discard: discardRefs(state),
    initiative_order: state.initiative_order.slice(),
    rule_flags: ruleFlags(state.rules),
    round_speech: speechFor(state, seat, all),
    stack: stackFor(state, seat, all),
  };
}

/**
 * A seat's emotion state as its view shows it: a copy, key by key in schema order. Every request
 * builds one; a literal of known keys is several times faster than `Object.assign` (and V8 takes a
 * slow path for keys added after a spread), and its type checks that every emotion is copied.
 */
function emotionState(e: EmotionVector, trust: Record<string, number>, grievance: Record<string, number>): EmotionState {
  return {
    valence: e.valence,
    arousal: e.arousal,
    dominance: e.dominance,
    fear: e.fear,
    anger: e.anger,
    shame: e.shame,
    confidence: e.confidence,
    greed: e.greed,
    tilt: e.tilt,
    trust: { ...trust },
    grievance: { ...grievance },
  };
}

/** What one seat knows of itself and believes of the others (seed 003 PlayerPrivateState). */
export function privateView(state: GameState, id: PlayerId, all = tellsOf(state)): PlayerPrivateState {
  const p = player(state, id);
  const tells: Record<string, Tell> = {};
  for (const o of state.players) if (o.player_id !== id && o.alive) tells[o.player_id] = all.get(o.player_id)!;
  const revealed: BeliefState['revealed_plans'] = {};
  for (const k in state.revealed_plans) if (k !== id) revealed[k] = state.revealed_plans[k]!;
  const commitments: BeliefState['commitments'] = [];
  for (const c of state.ledger) {
    if (c.speaker === id) commitments.push({ commitment_id: c.commitment_id, kind: c.kind, speaker_player_id: c.speaker, target_player_id: c.target, turn: c.turn, public: c.public });
  }
  const predictions: BeliefState['predictions'] = [];
  for (const x of state.predictions) {
    if (x.predictor === id) predictions.push({ target_player_id: x.target, predicted: x.predicted, from_turn: x.from_turn, to_turn: x.to_turn });
  }
  const hand: CardRef[] = new Array<CardRef>(p.hand.length);
  for (let i = 0; i < p.hand.length; i++) hand[i] = cardRefOf(state, p.hand[i]!);
  return {
    player_id: id,
    hand,
    secret_plan: p.secret_plan,
    memory_state: { notes: p.notes.slice(), agent: {} },
    emotion_state: emotionState(p.emotions, p.trust, p.grievance),
    belief_state: { tells, revealed_plans: revealed, commitments, predictions },
  };
}

export type StateView = {
  world: WorldState;
  /** A seat's own private view; every seat's for admins (and researchers after the game). */
  private: PlayerPrivateState[];
  /** Admin only: the raw engine state, PRNG included. */
  raw?: GameState;
};

/**
 * The one projection for states. `gameOver` is whether the game has ended by now — a researcher
 * looking at an earlier point of a finished game sees everything there too. A seat viewing the
 * table before the deal sees it empty, with no private view.
 */
export function viewState(state: GameState, viewer: Viewer, gameOver = state.status === 'done'): StateView {
  const all = seesAll(viewer, gameOver);
  const seat = seatOf(viewer);
  const tells = tellsOf(state);
  // Before the deal (seq 0) no seat is at the table yet: a seat then sees the empty table and holds
  // nothing, which is also where folding its events from game_started begins.
  const seated = seat !== null && state.players.some((p) => p.player_id === seat);
  const priv = all ? state.players.map((p) => privateView(state, p.player_id, tells)) : seated ? [privateView(state, seat, tells)] : [];
  return { world: worldView(state, viewer, tells, gameOver), private: priv, ...(viewer.role === 'admin' ? { raw: state } : {}) };
}
