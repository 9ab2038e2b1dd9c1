import type { EmotionVector, GameEvent } from '../protocol/index.js';
import { KeyMomentFinder, type KeyMoment } from './key-moments.js';
import { fallback, handlers, type LineKind, type Memory, type Said } from './narrate-events.js';
import { Names } from './narrate-words.js';
import { reasonsOf, type LineReasoning } from './stated-reasoning.js';

export type { LineKind } from './narrate-events.js';
export type { KeyMoment, KeyMomentKind } from './key-moments.js';
export type { LineReasoning } from './stated-reasoning.js';

/** One narrated sentence about one event, placed in the game. */
export type NarrationLine = {
  seq: number;
  round: number;
  phase: string;
  kind: LineKind;
  text: string;
  /** The seats the line is about (player ids, for colouring and filtering; the text names them). */
  seats: string[];
  /** Secondary sentences: an attack plan, engine notes, baselines (the CLI prints them indented, the web muted). */
  details: string[];
  key_moment?: KeyMoment;
  /** Set when this view's event lacked fields the full sentence needs: the line is a plainer stand-in. */
  partial?: true;
  /** What the LLM seat said of why it chose what made this event (the broadcast view, once released): on the event's first line. */
  reasoning?: LineReasoning[];
};

/** Consecutive lines of one round and phase. */
export type NarrationGroup = { round: number; phase: string; lines: NarrationLine[] };

export type Narration = { lines: NarrationLine[]; groups: NarrationGroup[]; moments: NarrationLine[] };

export type NarrateOptions = {
  /** Display names by player id, for views whose events start after game_started (a seat's view). */
  names?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
  /**
   * Player ids of the seats a person plays (agent `human`): where the view shows a rejection of
   * theirs (its own seat; all seats for admins), a missing answer reads "Ada took too long; the
   * default was taken". Views that do not see the rejection's reason tell it as before.
   */
  humans?: Iterable<string>;
};

/**
 * The narrator as a fold: feed it a viewer's projected events in seq order and it returns each
 * event's lines, remembering names, feelings and plans as the game goes. A line depends only on
 * the events before it, so narrating a prefix of a log gives a prefix of the lines.
 *
 * @example
 * const narrator = new Narrator({ names: { plr_1: 'random' } });
 * for (const e of events) print(narrator.push(e));
 */
export class Narrator {
  private readonly memory: Memory;
  private readonly moments: KeyMomentFinder;

  constructor(options: NarrateOptions = {}) {
    const n = new Names(options.names);
    this.memory = { n, emotions: new Map<string, EmotionVector>(), tells: new Map(), actionCards: new Map(), plansTold: new Map(), humans: new Set(options.humans ?? []) };
    this.moments = new KeyMomentFinder(n);
  }

  /** The lines for one event (none for bookkeeping: draws, reaction requests, phase changes…). Never throws. */
  push(e: GameEvent): NarrationLine[] {
    let said: Said[];
    let partial = false;
    try {
      const handler = handlers[e.type] as ((p: unknown, e: GameEvent, m: Memory) => Said[]) | undefined;
      said = handler ? handler(e.payload, e, this.memory) : [];
    } catch {
      // A field this view's projection dropped (or an event from a newer engine): say less, not nothing.
      said = fallback(e, this.memory.n);
      partial = true;
    }
    let moment: KeyMoment | null = null;
    try {
      moment = this.moments.push(e);
    } catch {
      moment = null;
    }
    const round = Number.isInteger(e.turn) ? e.turn : 0;
    const phase = typeof e.phase === 'string' ? e.phase : 'upkeep';
    const lines: NarrationLine[] = said.map((s) => ({ seq: e.seq, round, phase, ...s, ...(partial ? { partial: true as const } : {}) }));
    // A moment with nothing else to say (a sprung Tell seen only in a ledger total) still gets its line.
    if (moment && lines.length === 0) lines.push({ seq: e.seq, round, phase, kind: 'action', text: `${moment.title}.`, seats: [], details: [] });
    if (moment) lines[0]!.key_moment = moment;
    const reasons = reasonsOf(e, this.memory.n);
    if (reasons.length > 0) {
      // An event the story tells nothing of still gets a line, so the reasoning opens from somewhere.
      if (lines.length === 0) lines.push({ seq: e.seq, round, phase, kind: 'plan', text: `${reasons.map((r) => r.name).join(' and ')} decided.`, seats: reasons.map((r) => r.player_id), details: [] });
      lines[0]!.reasoning = reasons;
    }
    return lines;
  }
}

/**
 * A viewer's whole event list as narration: every line, the lines grouped by round and phase, and
 * the key moments in order. Pure and deterministic: the same events give the same lines.
 *
 * @example narrate(events).moments.map((l) => `${l.seq} ${l.key_moment!.title}`)
 */
export function narrate(events: readonly GameEvent[], options: NarrateOptions = {}): Narration {
  const narrator = new Narrator(options);
  const lines = events.flatMap((e) => narrator.push(e));
  return { lines, groups: groupLines(lines), moments: lines.filter((l) => l.key_moment) };
}

/** Consecutive lines of the same round and phase, together. */
export function groupLines(lines: readonly NarrationLine[]): NarrationGroup[] {
  const groups: NarrationGroup[] = [];
  for (const l of lines) {
    const g = groups.at(-1);
    if (g && g.round === l.round && g.phase === l.phase) g.lines.push(l);
    else groups.push({ round: l.round, phase: l.phase, lines: [l] });
  }
  return groups;
}

/** The index of the last line at or before `seq` (the line a scrubber at `seq` shows as current), −1 if none. */
export function lineAt(lines: readonly { seq: number }[], seq: number): number {
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lines[mid]!.seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The next key moment after `seq` (dir 1) or the last one before it (dir −1); null when there is none. */
export function stepMoment(moments: readonly { seq: number }[], seq: number, dir: 1 | -1): number | null {
  if (dir === 1) return moments.find((m) => m.seq > seq)?.seq ?? null;
  for (let i = moments.length - 1; i >= 0; i--) if (moments[i]!.seq < seq) return moments[i]!.seq;
  return null;
}
