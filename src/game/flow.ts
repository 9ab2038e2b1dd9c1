import type { Phase } from '../protocol/index.js';
import type { StepContext } from './context.js';
import { runDraw } from './draw-phase.js';
import { runEnd } from './end.js';
import { runReflect } from './reflect.js';
import { runResolve } from './resolve.js';
import type { GameState } from './state.js';
import { runUpkeep } from './upkeep.js';

/** A phase: what it does on entry (its window opens with it), and what follows it. */
type PhaseSpec = {
  readonly run?: (ctx: StepContext) => void;
  readonly next: (state: GameState) => Phase;
};

const compact = (s: GameState) => s.rules.windows === 'compact';

/** The round as data (rules brief, "A round: the eight phases"). */
export const PHASES: Readonly<Record<Phase, PhaseSpec>> = {
  upkeep: { run: runUpkeep, next: () => 'draw' },
  draw: { run: runDraw, next: (s) => (compact(s) ? 'action' : 'intent') },
  intent: { next: () => 'talk' },
  talk: { next: () => 'action' },
  action: { next: () => 'resolve' },
  resolve: { run: runResolve, next: () => 'reflect' },
  reflect: { run: runReflect, next: () => 'end' },
  end: { run: runEnd, next: () => 'upkeep' },
};

/** A round emits a few hundred events at most; far more means a phase that never closes. */
const MAX_TRANSITIONS = 64;

/**
 * Runs phases until the engine needs a decision or the game is over. Each transition is a
 * `phase_changed` event (which opens the phase's window), then the phase's own work.
 */
export function advance(ctx: StepContext): void {
  const s = ctx.state;
  for (let i = 0; i < MAX_TRANSITIONS; i++) {
    if (s.status !== 'running') return;
    if (s.window && s.window.queue.length > 0) return;
    const next = PHASES[s.phase].next(s);
    const turn = next === 'upkeep' ? s.turn + 1 : s.turn;
    ctx.emit('phase_changed', { phase: next, turn });
    PHASES[next].run?.(ctx);
  }
  throw new Error(`phase flow did not settle after ${MAX_TRANSITIONS} transitions (phase ${s.phase}, turn ${s.turn})`);
}
