import { z } from 'zod';
import type { GameEvent, Window } from '../protocol/index.js';
import { IsoTimestamp, isIsoTimestamp, PLAYER_ID_PATTERN, PlayerId, WINDOWS, Window as WindowSchema, formatIssues } from '../protocol/index.js';
import { StepContext } from './context.js';
import { applyEvent } from './evolve.js';
import { advance } from './flow.js';
import { startGame } from './setup.js';
import { runUpkeep } from './upkeep.js';
import type { GameState } from './state.js';
import { awaitedSeats } from './windows/state.js';
import { onAction, onCompact, onIntent, onReaction, onReflect, onTalk } from './windows/handlers.js';
import { clonePlain } from './clone.js';

/** What drives the engine: the start of the game, or one seat's answer to its window. */
export const EngineInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), ts: IsoTimestamp.optional() }),
  z.object({
    type: z.literal('decision'),
    player_id: PlayerId,
    window: WindowSchema,
    /** The agent's raw answer (validated here); null or undefined when the agent gave none. */
    decision: z.unknown(),
    ts: IsoTimestamp.optional(),
  }),
]);
export type EngineInput = z.infer<typeof EngineInput>;

const WINDOW_NAMES: ReadonlySet<unknown> = new Set(WINDOWS);

/**
 * The common input, a seat's answer, recognised without zod building its copy of the envelope (a
 * few per cent of a random game): every field the engine reads is checked as EngineInput checks
 * it, and the answer itself is validated by its window's handler either way. Anything else, well
 * formed or not, goes through EngineInput, so refusals read the same.
 */
export function wellFormedDecision(input: unknown): Extract<EngineInput, { type: 'decision' }> | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  const i = input as Record<string, unknown>;
  if (i['type'] !== 'decision' || !WINDOW_NAMES.has(i['window'])) return null;
  if (typeof i['player_id'] !== 'string' || !PLAYER_ID_PATTERN.test(i['player_id'])) return null;
  const ts = i['ts'];
  if (ts !== undefined && !(typeof ts === 'string' && isIsoTimestamp(ts))) return null;
  return input as Extract<EngineInput, { type: 'decision' }>;
}

/** An input the engine refuses outright: nothing changes, nothing is logged. */
export type Rejection = { code: string; message: string };
export type StepResult = { ok: true; events: GameEvent[] } | { ok: false; rejection: Rejection };

const refuse = (code: string, message: string): StepResult => ({ ok: false, rejection: { code, message } });

/**
 * The engine's hot path: validates the input, then emits events and applies each to `state` in
 * place until the engine awaits a decision again. A refused input leaves `state` untouched. Only the
 * owner of a state should call this; `decide` is the pure version.
 */
export function stepInPlace(state: GameState, input: unknown): StepResult {
  let i: EngineInput | null = wellFormedDecision(input);
  if (!i) {
    const parsed = EngineInput.safeParse(input);
    if (!parsed.success) return refuse('input/malformed', formatIssues(parsed.error.issues));
    i = parsed.data;
  }
  if (state.status === 'done') return refuse('game/over', 'the game is over');
  const ctx = new StepContext(state, i.ts ?? state.ts);
  if (i.type === 'start') {
    if (state.status !== 'setup') return refuse('game/already_started', 'the game has already started');
    startGame(ctx);
    ctx.emit('phase_changed', { phase: 'upkeep', turn: 1 });
    runUpkeep(ctx);
    advance(ctx);
    return { ok: true, events: ctx.events };
  }
  if (state.status === 'setup') return refuse('game/not_started', 'start the game first');
  return answerWindow(ctx, i.player_id, i.window, i.decision);
}

/**
 * `stepInPlace` for one seat's answer from a caller that built the envelope itself (a search's
 * rollouts, millions of steps): the same checks and the same events, without re-parsing the
 * envelope's ids and timestamp. The answer itself is still validated by its window's handler.
 */
export function answerInPlace(state: GameState, playerId: string, window: Window, decision: unknown): StepResult {
  if (state.status !== 'running') return refuse(state.status === 'done' ? 'game/over' : 'game/not_started', state.status === 'done' ? 'the game is over' : 'start the game first');
  return answerWindow(new StepContext(state, state.ts), playerId, window, decision);
}

function answerWindow(ctx: StepContext, playerId: string, window: Window, decision: unknown): StepResult {
  const state = ctx.state;
  const w = state.window;
  if (!w || !awaitedSeats(state).includes(playerId)) return refuse('turn/not_awaited', `${playerId} is not awaited now`);
  if (w.window !== window) return refuse('turn/wrong_window', `the open window is ${w.window}, not ${window}`);
  const handler = state.rules.windows === 'compact' && w.window === 'action' ? onCompact : HANDLERS[w.window];
  handler(ctx, playerId, decision);
  advance(ctx);
  return { ok: true, events: ctx.events };
}

const HANDLERS: Record<Window, typeof onIntent> = {
  intent: onIntent,
  talk: onTalk,
  action: onAction,
  reaction: onReaction,
  reflect: onReflect,
};

/** Pure decide: the events an input produces from a state, or a rejection. */
export function decide(state: GameState, input: unknown): StepResult {
  return stepInPlace(clonePlain(state), input);
}

/** Pure evolve: the state after one event. */
export function evolve(state: GameState, event: GameEvent): GameState {
  const next = clonePlain(state);
  applyEvent(next, event);
  return next;
}

/** Folds a log onto a state (a copy; the argument is untouched). */
export function fold(state: GameState, events: readonly GameEvent[]): GameState {
  const next = clonePlain(state);
  for (const e of events) applyEvent(next, e);
  return next;
}

/** Which window is open and which seats it waits on; null when nothing is awaited. */
export function awaiting(state: GameState): { window: Window; seats: string[] } | null {
  const seats = awaitedSeats(state);
  return seats.length && state.window ? { window: state.window.window, seats } : null;
}
