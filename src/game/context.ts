import type { EventPayload, EventType, GameEvent, GameEventOf, RngState, Tell } from '../protocol/index.js';
import { SCHEMA_VERSION } from '../protocol/index.js';
import { applyEvent } from './evolve.js';
import { addMovedCards, changedTells } from './public-moves.js';
import { TELL_NEUTRAL, tellsOf } from './tells.js';
import { Rng } from './rng.js';
import type { GameState, PlayerId } from './state.js';

export type Hidden = { key: string; to: PlayerId[] };

/**
 * One engine step in progress: the state it mutates (a private copy, or the runner's own), the
 * events emitted so far, the input's timestamp, and a lazily restored PRNG. Every event is applied
 * the moment it is emitted, so later rules always read the state the log describes.
 */
export class StepContext {
  readonly events: GameEvent[] = [];
  private rng: Rng | null = null;
  /** Set by reseedRandom: the next event carries the new PRNG state even if nothing drew from it. */
  private rngReplaced = false;
  /** Every seat's tell after the last event emitted here. */
  private tells: Map<PlayerId, Tell> | null = null;

  constructor(
    readonly state: GameState,
    readonly ts: string,
  ) {}

  private eventIdPrefix: string | null = null;

  /** `evt_<game>_`: the ids of a step's events differ only in their seq. */
  private idPrefix(): string {
    return (this.eventIdPrefix ??= `evt_${this.state.game_id.slice(5)}_`);
  }

  /** The game PRNG; any event emitted after a draw carries the PRNG state. */
  random(): Rng {
    this.rng ??= new Rng(this.state.rng);
    return this.rng;
  }

  /** Replaces the game PRNG from here on (a fork's reseed); the next event emitted carries it. */
  reseedRandom(state: RngState): Rng {
    this.rng = new Rng(state);
    this.rngReplaced = true;
    return this.rng;
  }

  emit<T extends EventType>(type: T, payload: EventPayload<T>, hidden: Hidden[] = []): GameEventOf<T> {
    const s = this.state;
    const seq = s.seq + 1;
    const event = {
      schema_version: SCHEMA_VERSION,
      event_id: `${this.idPrefix()}${seq}`,
      game_id: s.game_id,
      seq,
      turn: type === 'phase_changed' ? (payload as EventPayload<'phase_changed'>).turn : s.turn,
      phase: type === 'phase_changed' ? (payload as EventPayload<'phase_changed'>).phase : s.phase,
      type,
      ts: this.ts,
      payload,
      visibility: { hidden },
    } as GameEventOf<T>;
    if (this.rng && (this.rng.consumed || this.rngReplaced)) {
      event.rng = this.rng.state();
      this.rng = null;
      this.rngReplaced = false;
    }
    addMovedCards(s, event as GameEvent);
    // Tells are derived from hidden state (emotions, exposure, masks), so a view cannot recompute
    // them: every event that changes one says so, publicly. Events that cannot change a tell skip
    // the work, and the tells before are taken at the first event that can (the same tells).
    if (TELL_NEUTRAL.has(type)) {
      applyEvent(s, event as GameEvent);
    } else {
      const before = this.tells ?? tellsOf(s);
      applyEvent(s, event as GameEvent);
      const after = tellsOf(s);
      const changed = changedTells(before, after);
      if (changed) event.tells = changed;
      this.tells = after;
    }
    this.events.push(event as GameEvent);
    return event;
  }
}
