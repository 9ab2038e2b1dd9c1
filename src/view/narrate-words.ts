import type { CardRef } from '../protocol/index.js';

/**
 * The narrator's vocabulary: seat and card names, and the sentence builder that refuses to print
 * a missing value. Nothing here knows an event type.
 */

/** A value a sentence needed was not in this view's event (a redacted or unknown field). */
export class MissingValue extends Error {
  constructor(what: string) {
    super(`missing value in a narrated sentence: ${what}`);
    this.name = 'MissingValue';
  }
}

/**
 * A template tag that only accepts strings and finite numbers: a redacted field reaching a
 * sentence throws MissingValue (the narrator then falls back to a plainer line) instead of
 * printing "undefined", "NaN" or "[object Object]".
 *
 * @example say`${name} loses ${n} resolve` // "random loses 2 resolve"
 */
export function say(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + (strings[i + 1] ?? '');
  return out;
}

function piece(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new MissingValue(v === undefined ? 'undefined' : v === null ? 'null' : typeof v);
}

/** "a", "a and b", "a, b and c"; `none` for an empty list. */
export function list(xs: readonly string[], none = 'nobody'): string {
  if (xs.length === 0) return none;
  if (xs.length === 1) return xs[0]!;
  return `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)!}`;
}

/** A signed number with a real minus sign: +2, −1, +0.25. */
export const signed = (n: number, digits = 0): string => `${n < 0 ? '−' : '+'}${Math.abs(n).toFixed(digits)}`;

/** A level with a real minus sign: 0.47, −0.13. */
export const level = (n: number): string => `${n < 0 ? '−' : ''}${Math.abs(n).toFixed(2)}`;

/** snake_case vocabulary as words: "tempo_swing" → "tempo swing". */
export const words = (key: string): string => key.replace(/_/g, ' ');

const SEAT_ID = /^plr_(\d+)$/;

/**
 * An agent's text as people read it outside the story (the talk feed, speech bubbles): seat ids
 * as the names given ("seat N" for one not given), snake_case keys as words.
 *
 * @example plainSpeech('plr_3, mark my words.', new Map([['plr_3', 'Ada']])) // "Ada, mark my words."
 */
export const plainSpeech = (text: string, names: ReadonlyMap<string, string>): string => new Names(names).quote(text);

/**
 * Names seats and cards as the view has learnt them: seats by display name (game_started, or the
 * names the caller passes for views that start after the deal), cards by the names any event
 * showed for their ids (faces, plays, discards, the admin's card map).
 */
export class Names {
  private readonly seats = new Map<string, string>();
  private readonly cards = new Map<string, string>();

  constructor(seats?: ReadonlyMap<string, string> | Readonly<Record<string, string>>) {
    const entries: [string, unknown][] = seats instanceof Map ? [...(seats as ReadonlyMap<string, string>).entries()] : Object.entries(seats ?? {});
    for (const [id, name] of entries) if (typeof name === 'string' && name.trim()) this.seats.set(id, name);
  }

  /** A seat's name; a seat this view never heard named is "seat N" (never its id). */
  seat = (id: unknown): string => {
    if (typeof id !== 'string') return 'a seat';
    const known = this.seats.get(id);
    if (known) return known;
    const m = SEAT_ID.exec(id);
    return m ? `seat ${m[1]!}` : 'a seat';
  };

  /** Whether this id has a display name (not a "seat N" stand-in). */
  named(id: string): boolean {
    return this.seats.has(id);
  }

  nameSeat(id: string, name: string): void {
    if (name.trim()) this.seats.set(id, name);
  }

  /** A card's name where this view has seen it; face-down and unknown cards say so in words. */
  card = (id: unknown): string => {
    if (id === 'card_hidden') return 'a face-down card';
    return (typeof id === 'string' && this.cards.get(id)) || 'a card';
  };

  learnCards(refs: readonly (CardRef | null | undefined)[] | undefined): void {
    for (const r of refs ?? []) if (r && typeof r.card_id === 'string' && typeof r.name === 'string' && r.card_id !== 'card_hidden') this.cards.set(r.card_id, r.name);
  }

  learnCardMap(map: Readonly<Record<string, string>> | undefined): void {
    for (const [id, name] of Object.entries(map ?? {})) if (typeof name === 'string') this.cards.set(id, name);
  }

  /**
   * An engine note in words: seat ids become names, card ids card names, snake_case keys words
   * ("plr_3 deals 1 to plr_1; discard_pressure" → "aggressor deals 1 to random; discard pressure").
   */
  note = (text: string): string =>
    text.replace(/\b(plr_[A-Za-z0-9]+)\b|\b(card_[A-Za-z0-9]+)\b|\b([a-z]+(?:_[a-z]+)+)\b/g, (_, plr?: string, card?: string, key?: string) =>
      plr ? this.seat(plr) : card ? this.card(card) : words(key ?? ''),
    );

  /**
   * An agent's own words as the story quotes them: agents address seats by id ("plr_3, mark my
   * words.") and write engine keys ("lash_out: …"), which people read as names and words
   * ("aggressor, mark my words."). Only what the view already knows is named (a seat it never
   * heard named stays "seat N"); the raw text is still in the event.
   */
  quote = (text: string): string => this.note(text);
}
