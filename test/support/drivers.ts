/**
 * Decision drivers for property tests: a seeded stream of random legal answers (built from the
 * seat's own TurnPlanRequest, like an agent), illegal answers aimed at each validation rule, and raw
 * junk. Secret texts carry canaries (PLAN~, ATK~, PRIV~) so leak checks can search projections.
 */
import type { AttackPlan, LegalAction, TurnPlanRequest, Window } from '../../src/protocol/index.js';
import { BEHAVIOR_SHIFTS, EMOTIONAL_INTENTS, EMOTIONS, MANIPULATION_PLANS, SPEECH_ACTS, TACTICAL_INTENTS, WINDOWS } from '../../src/protocol/index.js';
import { awaiting, cardDef, requestFor, stepInPlace, type GameState, type StepResult } from '../../src/game/index.js';

/** A small seeded PRNG (mulberry32) for the drivers; the engine's own PRNG is never touched. */
export type Rand = { next(): number; int(n: number): number; pick<T>(xs: readonly T[]): T; chance(p: number): boolean };

export function rand(seed: number): Rand {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (xs) => xs[int(xs.length)]!, chance: (p) => next() < p };
}

export const canary = {
  plan: (seat: string, turn: number) => `PLAN~${seat}~${turn}~`,
  attack: (seat: string, turn: number) => `ATK~${seat}~${turn}~`,
  priv: (speaker: string, target: string, turn: number) => `PRIV~${speaker}~${target}~${turn}~`,
};

const others = (req: TurnPlanRequest) => req.public_world_view.players.filter((p) => p.alive && p.player_id !== req.player_id).map((p) => p.player_id);

function secretPlan(req: TurnPlanRequest, r: Rand) {
  const targets = others(req);
  return {
    tactical_intent: r.pick(TACTICAL_INTENTS),
    emotional_intent: targets.length && r.chance(0.7) ? { emotion: r.pick(EMOTIONAL_INTENTS), target_player_id: r.pick(targets) } : null,
    deception_frame: `${canary.plan(req.player_id, req.turn)} calm`,
  };
}

function speech(req: TurnPlanRequest, r: Rand) {
  const targets = others(req);
  const out: unknown[] = [];
  for (let i = r.int(3); i > 0; i--) {
    out.push({ channel: 'public', target_player_id: targets.length && r.chance(0.6) ? r.pick(targets) : null, text: `public ${i}`, speech_act: r.pick(SPEECH_ACTS) });
  }
  if (targets.length && r.chance(0.5)) {
    const t = r.pick(targets);
    const third = targets.filter((x) => x !== t);
    const naming = third.length && r.chance(0.5) ? ` about ${r.pick(third)}` : '';
    out.push({ channel: 'private', target_player_id: t, text: `${canary.priv(req.player_id, t, req.turn)}${naming}`, speech_act: r.pick(SPEECH_ACTS) });
  }
  return out;
}

type Playable = Extract<LegalAction, { kind: 'play_card' | 'activate' }>;

/** A legal action choice (selected_action + attack_plan) for one legal option. */
function choice(req: TurnPlanRequest, r: Rand, legal: Playable | { kind: 'pass' }) {
  if (legal.kind === 'pass') return { selected_action: { kind: 'pass' }, attack_plan: null };
  const payload: Record<string, unknown> = { card_id: legal.card_id };
  let attack_plan: AttackPlan | null = null;
  if (legal.attack) {
    const target = r.pick(legal.targets);
    payload.target_player_id = target;
    if (legal.kind === 'play_card' && legal.needs_named_player) payload.named_player_id = r.pick(others(req).filter((o) => o !== target));
    attack_plan = {
      kinetic_intent: r.pick(legal.kinetic_intents),
      emotional_intent: r.pick(EMOTIONAL_INTENTS),
      manipulation_plan: r.pick(MANIPULATION_PLANS),
      delivery_channel: r.pick(legal.channels),
      target_player_id: target,
      expected_behavior_shift: `${r.pick(BEHAVIOR_SHIFTS)} ${canary.attack(req.player_id, req.turn)}`,
      confidence: r.int(101) / 100,
    };
  }
  if (legal.kind === 'play_card' && legal.needs_chosen_emotion) payload.chosen_emotion = r.pick(EMOTIONS);
  return { selected_action: { kind: legal.kind, payload }, attack_plan };
}

/** A random legal answer to the seat's request, as an agent would build it from its own view. */
export function legalDecision(req: TurnPlanRequest, r: Rand): unknown {
  switch (req.window) {
    case 'intent':
      return secretPlan(req, r);
    case 'talk':
      return { speech_actions: speech(req, r) };
    case 'reaction': {
      const legal = r.pick(req.legal_actions);
      return { card_id: legal.kind === 'reaction' ? legal.card_id : null };
    }
    case 'reflect':
      return { memory_updates: r.chance(0.3) ? [`note ${req.turn}`] : [] };
    case 'action': {
      const options = req.legal_actions.filter((a): a is Playable | { kind: 'pass' } => a.kind === 'play_card' || a.kind === 'activate' || a.kind === 'pass');
      const main = choice(req, r, r.pick(options));
      if (!req.constraints.compact) return main;
      const rest = options.filter((o) => o.kind === 'pass' || o.card_id !== (main.selected_action as { payload?: { card_id?: string } }).payload?.card_id);
      return {
        ...main,
        speech_actions: speech(req, r),
        follow_up: r.chance(0.5) ? choice(req, r, r.pick(rest)) : null,
        secret_plan: r.chance(0.3) ? secretPlan(req, r) : null,
      };
    }
  }
}

const WRONG_TYPES: readonly unknown[] = [42, 'pass', [], true, null, { selected_action: 'pass' }, { tactical_intent: 5 }, { speech_actions: 'hi' }, { card_id: 7 }, { memory_updates: [1] }];

/** An answer that breaks one action rule on purpose (a card not in hand, no plan, a bad target, …). */
function illegalAction(state: GameState, seat: string, r: Rand): unknown {
  const me = state.players.find((p) => p.player_id === seat)!;
  const foreign = state.players.filter((p) => p.player_id !== seat).flatMap((p) => p.hand);
  const attackCard = me.hand.find((c) => cardDef(state.cards[c] ?? '').attack) ?? me.hand[0] ?? 'card_999';
  const opponent = state.players.find((p) => p.player_id !== seat && p.alive)?.player_id ?? 'plr_9';
  const dead = state.players.find((p) => !p.alive)?.player_id ?? 'plr_9';
  const plan = (target: string, over: Partial<AttackPlan> = {}): AttackPlan => ({
    kinetic_intent: 'tempo_swing', emotional_intent: 'fear', manipulation_plan: 'bait', delivery_channel: 'public',
    target_player_id: target, expected_behavior_shift: 'reckless', confidence: 0.5, ...over,
  });
  const play = (card: string, target: string | undefined, p: AttackPlan | null) => ({
    selected_action: { kind: 'play_card', payload: { card_id: card, ...(target ? { target_player_id: target } : {}) } },
    attack_plan: p,
  });
  switch (r.int(8)) {
    case 0: return play(r.chance(0.5) && foreign.length ? r.pick(foreign) : 'card_999', opponent, plan(opponent));
    case 1: return play(attackCard, opponent, null);
    case 2: return play(attackCard, r.pick([seat, dead, 'plr_9']), plan(seat));
    case 3: return play(attackCard, opponent, plan(opponent, { kinetic_intent: 'combo_break', delivery_channel: 'private' }));
    case 4: return play(attackCard, opponent, plan(seat));
    case 5: return { selected_action: { kind: 'activate', payload: { card_id: r.pick([...me.hand, 'card_999']) } }, attack_plan: null };
    case 6: return { selected_action: { kind: 'pass', player_id: opponent } };
    default: return { selected_action: { kind: r.pick(['speak', 'reaction', 'dance']) } };
  }
}

/** A whole engine input that is wrong for the open window: another seat, another window, bad types, junk. */
export function illegalInput(state: GameState, r: Rand, junk: readonly unknown[]): unknown {
  const next = awaiting(state)!;
  const seat = next.seats[0]!;
  const decisionOf = (decision: unknown) => ({ type: 'decision', player_id: seat, window: next.window, decision });
  const notAwaited = state.players.map((p) => p.player_id).filter((id) => !next.seats.includes(id));
  switch (r.int(7)) {
    case 0: return { ...decisionOf({}), player_id: r.pick([...notAwaited, 'plr_9']) };
    case 1: return { ...decisionOf(DEFAULTS[next.window]), window: r.pick(WINDOWS.filter((w) => w !== next.window)) };
    case 2: return decisionOf(r.pick(WRONG_TYPES));
    case 3: return junk.length ? decisionOf(r.pick(junk)) : decisionOf(undefined);
    case 4: return junk.length ? r.pick(junk) : { type: 'start' };
    default:
      if (next.window === 'action') return decisionOf(illegalAction(state, seat, r));
      if (next.window === 'talk') return decisionOf({ speech_actions: [{ channel: 'private', target_player_id: null, text: 'x', speech_act: 'neutral' }] });
      if (next.window === 'intent') return decisionOf({ tactical_intent: 'build', emotional_intent: { emotion: 'fear', target_player_id: seat } });
      if (next.window === 'reaction') return decisionOf({ card_id: r.pick([...(state.players.find((p) => p.player_id === seat)?.hand ?? []), 'card_999']) });
      return decisionOf({ memory_updates: 'not a list' });
  }
}

const DEFAULTS: Record<Window, unknown> = {
  intent: { tactical_intent: 'defend', emotional_intent: null },
  talk: { speech_actions: [] },
  action: { selected_action: { kind: 'pass' } },
  reaction: { card_id: null },
  reflect: { memory_updates: [] },
};

export type DriveOptions = {
  r: Rand;
  /** Share of steps that are illegal or junk (the rest are legal answers). */
  illegal?: number;
  junk?: readonly unknown[];
  /** Timestamps for inputs (the log's `ts`), else none. */
  clock?: () => string;
  onStep?: (input: unknown, result: StepResult) => void;
};

/** Drives a started game to its end; returns every input it sent, in order (refused ones included). */
export function drive(state: GameState, o: DriveOptions): unknown[] {
  const inputs: unknown[] = [];
  let refusedInARow = 0;
  for (let step = 0; step < 5000; step++) {
    const next = awaiting(state);
    if (!next) return inputs;
    const wild = refusedInARow < 10 && o.r.chance(o.illegal ?? 0);
    let input: unknown;
    if (wild) input = illegalInput(state, o.r, o.junk ?? []);
    else {
      const seat = next.seats[o.r.int(next.seats.length)]!;
      input = { type: 'decision', player_id: seat, window: next.window, decision: legalDecision(requestFor(state, seat), o.r) };
    }
    if (o.clock && typeof input === 'object' && input !== null && !Array.isArray(input)) input = { ...input, ts: o.clock() };
    inputs.push(input);
    const result = stepInPlace(state, input);
    refusedInARow = result.ok ? 0 : refusedInARow + 1;
    o.onStep?.(input, result);
  }
  throw new Error('the game did not end in 5000 steps');
}
