import { words } from './narrate-words.js';

/** The fields of an event a jump label reads (a wire event or a GameEvent). */
type EventLike = { turn: number; type: string; payload: unknown };

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const cardName = (v: unknown): string | null =>
  v && typeof v === 'object' ? str((v as { name?: unknown }).name) : null;

/**
 * What happened at an event, in a few words, for a button that goes there: "Ada's Strip hits Bo",
 * "Bo is eliminated", "the ledger settles". Only what the view's own event carries (a face-down
 * card stays "card"); seats by `seat`, never by id. Also what a win-probability swing names as its cause.
 */
export function happened(e: EventLike, seat: (id: string) => string): string {
  const p = (e.payload ?? {}) as Record<string, unknown>;
  const who = (k: string): string | null => {
    const id = str(p[k]);
    return id ? seat(id) : null;
  };
  switch (e.type) {
    case 'action_resolved': {
      const targets = Array.isArray(p['target_player_ids'])
        ? p['target_player_ids'].filter((x): x is string => typeof x === 'string').map(seat)
        : [];
      const play = `${who('actor_player_id') ?? 'a seat'}'s ${cardName(p['card']) ?? 'card'}`;
      return targets.length ? `${play} hits ${targets.join(' and ')}` : `${play} resolves`;
    }
    case 'action_submitted':
      return `${who('player_id') ?? 'a seat'} plays ${cardName(p['card']) ?? 'a card'}${who('target_player_id') ? ` on ${who('target_player_id')!}` : ''}`;
    case 'ritual_fired': {
      const card = cardName(p['card']);
      return `${who('owner_player_id') ?? 'a seat'}'s ritual ${card ? `${card} ` : ''}fires`;
    }
    case 'ledger_settled':
      return 'the ledger settles';
    case 'emotion_updated':
      return `${who('player_id') ?? 'a seat'}'s feelings move`;
    case 'player_eliminated':
      return `${who('player_id') ?? 'a seat'} is eliminated`;
    case 'life_lost':
      return `${who('player_id') ?? 'a seat'} loses a life`;
    case 'speech_posted':
      return `${who('player_id') ?? 'a seat'} speaks`;
    default: {
      const actor = who('actor_player_id') ?? who('player_id') ?? who('owner_player_id');
      return actor ? `${actor}: ${words(e.type)}` : words(e.type);
    }
  }
}

/**
 * The text of a button that jumps to an event: where it goes in words, never a bare seq.
 *
 * @example jumpLabel(event, (id) => names.get(id) ?? 'a seat') // "round 4: Ada's Strip hits Bo"
 */
export function jumpLabel(e: EventLike | undefined, seat: (id: string) => string): string {
  if (!e) return 'an event this view does not hold';
  return `${e.turn > 0 ? `round ${e.turn}` : 'setup'}: ${happened(e, seat)}`;
}
