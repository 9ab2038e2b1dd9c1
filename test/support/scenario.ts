/**
 * A small harness for engine unit tests, so they read given / when / then:
 *
 * ```ts
 * const g = atAction(3);                                   // given: round 1's action window, seats in seat order,
 * const feint = giveCard(g, 'plr_1', 'Feint');             //        empty hands, calm emotions; a rigged hand…
 * setSeat(g, 'plr_2', { exposure: 5 });                    //        …and a rigged target
 * const r = act(g, 'plr_1', attack(feint, 'plr_2'));       // when:  one decision
 * const res = resolutionOf(finishActions(g), submittedId(r)); // then: the events it caused…
 * expect(res.payload.tactical_effect.resolve_delta).toEqual({ plr_2: -3 }); // …and the state after
 * ```
 *
 * Starting:  newGame (initialState + start) · atAction (straight to round 1's action window, with
 *            optional intents and talk going through their real windows).
 * Driving:   act (one answer) · submit (act, then decline any reaction it opened) · answerNext ·
 *            driveTo (window[, seat]) · finishActions (through resolve) · nextRound · playOut.
 *            Seats not told otherwise give DEFAULT_ANSWER (defend, silence, pass, no guard, no notes).
 * Rigging:   giveCard · setHand · placeArena · setSeat (counters, statuses, emotions, trust) · neutral ·
 *            setOrder (initiative and the open window's queue).
 * Deciding:  plan · attack · play · activate · PASS · say.
 * Reading:   eventsOf · onlyEvent · okEvents · submittedId · resolutionOf · seat.
 *
 * Rigging writes the state directly (the log no longer explains it), which is what unit tests want:
 * one rule, one arranged situation. Property tests never rig; they only feed decisions.
 */
import type { AttackPlan, EmotionName, EmotionVector, EventType, GameEvent, GameEventOf, TurnPlanResponse, Window } from '../../src/protocol/index.js';
import { cardDef, initialState, stepInPlace, awaiting, type GameState, type RulesInput, type StepResult } from '../../src/game/index.js';
import type { PlayerState } from '../../src/game/state.js';

export type Decision = unknown;
/** Answers a window for a seat; return undefined to fall back to the default answer. */
export type Answers = (seat: string, window: Window, state: GameState) => Decision;

/** The fixed, always-legal answer of each window: defend, stay silent, pass, don't react, no notes. */
export const DEFAULT_ANSWER: Readonly<Record<Window, Decision>> = {
  intent: { tactical_intent: 'defend', emotional_intent: null },
  talk: { speech_actions: [] },
  action: { selected_action: { kind: 'pass' } },
  reaction: { card_id: null },
  reflect: { memory_updates: [] },
};

export type NewGame = { seats?: number; seed?: number; rules?: RulesInput; game_id?: string };

/**
 * The rules brief's own numbers where the shipped defaults were tuned away from them (docs/rules.md,
 * "Balance and tuning"): unit tests check the brief's formulas, and the tuned defaults are tested
 * on their own (setup.unit.spec.ts). Rules 1.0.0 is the brief's rule set; what 2.0.0 adds
 * (engagement) is tested on its own (engagement.unit.spec.ts).
 */
export const BRIEF_RULES = {
  rules_version: '1.0.0',
  contest: { base_resistance: 0.2 },
  attrition: { from_round: 1000 },
} as const satisfies RulesInput;

const withBrief = (rules: RulesInput = {}): RulesInput => ({
  ...BRIEF_RULES,
  ...rules,
  contest: { ...BRIEF_RULES.contest, ...rules.contest },
  attrition: { ...BRIEF_RULES.attrition, ...rules.attrition },
});

/** `initialState(config, seed)` + `{type: 'start'}`: round 1, the first window open. */
export function newGame(opts: NewGame = {}): GameState {
  const state = initialState({ seats: opts.seats ?? 3, rules: withBrief(opts.rules), ...(opts.game_id ? { game_id: opts.game_id } : {}) }, opts.seed ?? 1);
  expectOk(stepInPlace(state, { type: 'start' }));
  return state;
}

/** One seat's answer to the open window (the window is taken from the state unless given). */
export function act(state: GameState, seat: string, decision: Decision, window?: Window): StepResult {
  return stepInPlace(state, { type: 'decision', player_id: seat, window: window ?? state.window?.window ?? 'action', decision });
}

/**
 * `act`, then every reaction window the answer opened is answered with the default (no guard):
 * for tests where the same or the next seat goes on acting. Returns the step with all events.
 */
export function submit(state: GameState, seat: string, decision: Decision): StepResult {
  const r = act(state, seat, decision);
  if (!r.ok) return r;
  const events = [...r.events];
  while (awaiting(state)?.window === 'reaction') events.push(...answerNext(state)!);
  return { ok: true, events };
}

/** Answers the first awaited seat (with `answers` or the default); the events, or null when nothing is awaited. */
export function answerNext(state: GameState, answers?: Answers): GameEvent[] | null {
  const next = awaiting(state);
  if (!next) return null;
  const seat = next.seats[0]!;
  const decision = answers?.(seat, next.window, state) ?? DEFAULT_ANSWER[next.window];
  return expectOk(act(state, seat, decision, next.window));
}

/**
 * Answers until `window` is open (and awaits `seat`, when given) or the game is over.
 * Returns every event emitted on the way. Throws after too many steps (the target never came).
 */
export function driveTo(state: GameState, window: Window, seat?: string, answers?: Answers): GameEvent[] {
  const out: GameEvent[] = [];
  for (let i = 0; i < 500; i++) {
    const next = awaiting(state);
    if (!next) return out;
    if (next.window === window && (seat === undefined || next.seats.includes(seat))) return out;
    out.push(...answerNext(state, answers)!);
  }
  throw new Error(`driveTo(${window}, ${seat ?? '*'}) did not arrive`);
}

/** Answers until the turn changes (the next round's first window) or the game ends. */
export function nextRound(state: GameState, answers?: Answers): GameEvent[] {
  const turn = state.turn;
  const out: GameEvent[] = [];
  for (let i = 0; i < 500 && state.turn === turn && awaiting(state); i++) out.push(...answerNext(state, answers)!);
  return out;
}

/** Lets every remaining seat pass (or answer via `answers`) until the action phase is over: resolve has run. */
export function finishActions(state: GameState, answers?: Answers): GameEvent[] {
  const out: GameEvent[] = [];
  for (let i = 0; i < 500; i++) {
    const next = awaiting(state);
    if (!next || (next.window !== 'action' && next.window !== 'reaction')) return out;
    out.push(...answerNext(state, answers)!);
  }
  throw new Error('the action phase did not finish');
}

/** Plays the game out with default answers (or `answers`) until it is over. */
export function playOut(state: GameState, answers?: Answers): GameEvent[] {
  const out: GameEvent[] = [];
  for (let i = 0; i < 20_000 && awaiting(state); i++) out.push(...answerNext(state, answers)!);
  return out;
}

export function expectOk(r: StepResult): GameEvent[] {
  if (!r.ok) throw new Error(`engine refused: ${r.rejection.code} ${r.rejection.message}`);
  return r.events;
}

// ---------------------------------------------------------------- rigging

/** A seat's full state (throws on an unknown id). */
export function seat(state: GameState, id: string): PlayerState {
  const p = state.players.find((x) => x.player_id === id);
  if (!p) throw new Error(`no seat ${id}`);
  return p;
}

/** Removes a card id from wherever it lies (deck, discard, a hand, an arena). */
function take(state: GameState, cardId: string): void {
  const drop = (xs: string[]) => {
    const i = xs.indexOf(cardId);
    if (i >= 0) xs.splice(i, 1);
  };
  drop(state.deck);
  drop(state.discard);
  for (const p of state.players) drop(p.hand);
  state.arena = state.arena.filter((a) => a.card_id !== cardId);
}

/** A card of that catalog name that is free to move: from the deck, else the discard, else another hand. */
export function findCard(state: GameState, name: string, except: string[] = []): string {
  cardDef(name); // unknown names fail loudly
  const named = (c: string) => state.cards[c] === name && !except.includes(c);
  const found = state.deck.find(named) ?? state.discard.find(named) ?? state.players.flatMap((p) => p.hand).find(named);
  if (!found) throw new Error(`no free ${name} left`);
  return found;
}

/** Moves a card of that name into the seat's hand (newest position) and returns its id. */
export function giveCard(state: GameState, id: string, name: string): string {
  const cardId = findCard(state, name);
  take(state, cardId);
  seat(state, id).hand.push(cardId);
  return cardId;
}

/** Replaces the seat's hand with cards of these names (the old hand goes to the discard). */
export function setHand(state: GameState, id: string, names: string[]): string[] {
  const p = seat(state, id);
  state.discard.push(...p.hand);
  p.hand = [];
  return names.map((n) => giveCard(state, id, n));
}

export type ArenaOpts = { rounds_left?: number | null; countdown?: number | null; face_down?: boolean; chosen_emotion?: EmotionName | null };

/** Puts a card of that name into the owner's arena with its catalog clocks (or the given ones). */
export function placeArena(state: GameState, owner: string, name: string, opts: ArenaOpts = {}): string {
  const def = cardDef(name);
  const cardId = findCard(state, name);
  take(state, cardId);
  state.arena.push({
    card_id: cardId,
    owner,
    face_down: opts.face_down ?? def.faceDown,
    rounds_left: opts.rounds_left !== undefined ? opts.rounds_left : def.rounds,
    countdown: opts.countdown !== undefined ? opts.countdown : def.countdown,
    chosen_emotion: opts.chosen_emotion ?? null,
  });
  return cardId;
}

export type SeatPatch = Partial<Pick<PlayerState, 'alive' | 'tempo' | 'exposure' | 'resolve' | 'lives' | 'locked_out' | 'forced_line' | 'next_lockout' | 'next_forced_line'>> & {
  emotions?: Partial<EmotionVector>;
  baseline?: Partial<EmotionVector>;
  trust?: Record<string, number>;
  grievance?: Record<string, number>;
};

/** Overwrites counters, statuses, emotions (merged), trust and grievance (merged) of a seat. */
export function setSeat(state: GameState, id: string, patch: SeatPatch): PlayerState {
  const p = seat(state, id);
  const { emotions, baseline, trust, grievance, ...counters } = patch;
  Object.assign(p, counters);
  if (emotions) p.emotions = { ...p.emotions, ...emotions };
  if (baseline) p.baseline = { ...p.baseline, ...baseline };
  if (trust) p.trust = { ...p.trust, ...trust };
  if (grievance) p.grievance = { ...p.grievance, ...grievance };
  return p;
}

/** Every emotion at 0 except these: no slips, no dominance/confidence resistance. */
export function neutral(extra: Partial<EmotionVector> = {}): EmotionVector {
  return { valence: 0, arousal: 0, dominance: 0, fear: 0, anger: 0, shame: 0, confidence: 0, greed: 0, tilt: 0, ...extra };
}

/** Reorders this round's initiative and the open window's queue (seats not in the queue stay out). */
export function setOrder(state: GameState, order: string[]): void {
  state.initiative_order = order.slice();
  const w = state.window;
  if (w) w.queue = order.filter((id) => w.queue.includes(id));
}

export type AtAction = Omit<NewGame, 'seats'> & {
  /** Secret plans committed in the intent window, by seat (others default). */
  intents?: Record<string, unknown>;
  /** Speech posted in the talk window, by seat (others stay silent). */
  talk?: Record<string, unknown[]>;
  keepEmotions?: boolean;
};

/**
 * Given for card and rule tests: round 1's action window with seats acting in seat order, every hand
 * empty (so no seat can react unless a test gives it a guard) and, unless `keepEmotions`, every
 * emotion at 0 — so no action slips and contest numbers are easy to compute by hand. Intents and
 * talk, when given, go through their real windows first.
 */
export function atAction(seats = 3, opts: AtAction = {}): GameState {
  const state = newGame({ ...opts, seats });
  const order = state.players.map((p) => p.player_id);
  setOrder(state, order);
  driveTo(state, 'action', undefined, (id, window) =>
    window === 'intent' ? opts.intents?.[id] : window === 'talk' ? { speech_actions: opts.talk?.[id] ?? [] } : undefined,
  );
  for (const p of state.players) {
    setHand(state, p.player_id, []);
    if (!opts.keepEmotions) p.emotions = neutral();
  }
  return state;
}

// ---------------------------------------------------------------- decisions

/** A well-formed AttackPlan against `target` (override any field). */
export function plan(target: string, over: Partial<AttackPlan> = {}): AttackPlan {
  return {
    kinetic_intent: 'tempo_swing',
    emotional_intent: 'fear',
    manipulation_plan: 'threat_framing',
    delivery_channel: 'public',
    target_player_id: target,
    expected_behavior_shift: 'none',
    confidence: 0.5,
    ...over,
  };
}

/** An attack decision: play `cardId` at `target` with a plan (null for none). */
export function attack(cardId: string, target: string, over: Partial<AttackPlan> | null = {}, payload: Record<string, unknown> = {}): Partial<TurnPlanResponse> {
  return {
    selected_action: { kind: 'play_card', payload: { card_id: cardId, target_player_id: target, ...payload } },
    attack_plan: over === null ? null : plan(target, over),
  };
}

/** A non-attack play (guards in the arena, traps, masks, rituals). */
export function play(cardId: string, payload: Record<string, unknown> = {}): Partial<TurnPlanResponse> {
  return { selected_action: { kind: 'play_card', payload: { card_id: cardId, ...payload } }, attack_plan: null };
}

/** Activating an own arena card: a trap springs at `target` with a plan; a ritual hastens. */
export function activate(cardId: string, target?: string, over: Partial<AttackPlan> = {}): Partial<TurnPlanResponse> {
  return {
    selected_action: { kind: 'activate', payload: { card_id: cardId, ...(target ? { target_player_id: target } : {}) } },
    attack_plan: target ? plan(target, over) : null,
  };
}

export const PASS: Partial<TurnPlanResponse> = { selected_action: { kind: 'pass' } as TurnPlanResponse['selected_action'] };

/** One speech act (public unless a private target is given). */
export function say(speech_act: string, target: string | null, text = 'mark my words', channel: 'public' | 'private' = 'public') {
  return { channel, target_player_id: target, text, speech_act };
}

// ---------------------------------------------------------------- reading events

export function eventsOf<T extends EventType>(events: readonly GameEvent[], type: T): GameEventOf<T>[] {
  return events.filter((e): e is GameEvent & GameEventOf<T> => e.type === type);
}

/** The single event of that type (throws when there is none or several). */
export function onlyEvent<T extends EventType>(events: readonly GameEvent[], type: T): GameEventOf<T> {
  const found = eventsOf(events, type);
  if (found.length !== 1) throw new Error(`expected one ${type}, got ${found.length}`);
  return found[0]!;
}

/** The events of an accepted step (throws on a refusal). */
export function okEvents(r: StepResult): GameEvent[] {
  return expectOk(r);
}

/** The action id a step submitted (its action_submitted event). */
export function submittedId(r: StepResult): string {
  return onlyEvent(expectOk(r).filter((e) => e.type === 'action_submitted'), 'action_submitted').payload.action_id;
}

/** The action_resolved event of an action among `events`. */
export function resolutionOf(events: readonly GameEvent[], actionId: string): GameEventOf<'action_resolved'> {
  const e = eventsOf(events, 'action_resolved').find((x) => x.payload.action_id === actionId);
  if (!e) throw new Error(`action ${actionId} did not resolve`);
  return e;
}
