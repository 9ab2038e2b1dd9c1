import type { Names } from './narrate-words.js';

/** An LLM seat's stated reasoning on a story line: who said it (named) and what. */
export type LineReasoning = { player_id: string; name: string; text: string };

/** The answer schema caps it at 300 characters; a file or a server that sends more is cut. */
const MAX_TEXT = 300;
const SEAT_ID = /^plr_\d{1,2}$/;

/**
 * The stated reasoning a broadcast event carries (`reasoning`: the LLM seat's own words on why it
 * chose what made this event; src/server/games/stated-reasoning.ts), read defensively: the event
 * comes over the wire or from a file, so anything not shaped as expected is left out, never thrown.
 *
 * @example reasonsOf({ reasoning: [{ player_id: 'plr_1', window: 'action', text: 'Bram bluffs.' }] }, names) // [{ player_id: 'plr_1', name: 'Ada', text: 'Bram bluffs.' }]
 */
export function reasonsOf(event: unknown, names: Names): LineReasoning[] {
  const raw = event !== null && typeof event === 'object' ? (event as { reasoning?: unknown }).reasoning : undefined;
  if (!Array.isArray(raw)) return [];
  const out: LineReasoning[] = [];
  for (const r of raw.slice(0, 8)) {
    if (r === null || typeof r !== 'object') continue;
    const { player_id, text } = r as { player_id?: unknown; text?: unknown };
    if (typeof player_id !== 'string' || !SEAT_ID.test(player_id) || typeof text !== 'string' || text.trim() === '') continue;
    out.push({ player_id, name: names.seat(player_id), text: text.trim().slice(0, MAX_TEXT) });
  }
  return out;
}
