import type { CardType, KineticIntent } from '../protocol/index.js';
import { KINETIC_INTENTS } from '../protocol/index.js';

/** What a card does when it resolves; the resolver reads these fields, never the card's name. */
export type CardDef = {
  readonly name: string;
  readonly type: CardType;
  readonly count: number;
  readonly tempo: number;
  /** Gambits and pressure cards are attacks: they need a target and an AttackPlan. */
  readonly attack: boolean;
  readonly damage: number;
  /** Kinetic intents an AttackPlan may name; `applies` false means the card only declares it. */
  readonly kinetic: readonly KineticIntent[];
  readonly kineticApplies: boolean;
  readonly discardCount: number;
  readonly affect: number;
  readonly ownExposure: number;
  readonly channels: readonly ('public' | 'private' | 'mixed')[];
  readonly needsNamedPlayer: boolean;
  readonly needsChosenEmotion: boolean;
  /** Guards: playable only as a reaction. */
  readonly reactionOnly: boolean;
  readonly prevent: number;
  readonly reactionResistance: number;
  readonly counterDamage: number;
  /** Arena cards: how long they stay, or their countdown (rituals). */
  readonly rounds: number | null;
  readonly countdown: number | null;
  readonly faceDown: boolean;
  readonly audienceTrust: number;
  readonly namedTrust: number;
  readonly tags: readonly string[];
};

const ALL_CHANNELS = ['public', 'private', 'mixed'] as const;

const base = {
  attack: false,
  damage: 0,
  kinetic: [] as readonly KineticIntent[],
  kineticApplies: false,
  discardCount: 1,
  affect: 0,
  ownExposure: 0,
  channels: ALL_CHANNELS,
  needsNamedPlayer: false,
  needsChosenEmotion: false,
  reactionOnly: false,
  prevent: 0,
  reactionResistance: 0,
  counterDamage: 0,
  rounds: null,
  countdown: null,
  faceDown: false,
  audienceTrust: 0,
  namedTrust: 0,
} as const;

const gambit = { ...base, type: 'gambit' as const, attack: true, kineticApplies: true };
const pressure = { ...base, type: 'pressure' as const, attack: true, kinetic: KINETIC_INTENTS };
const guard = { ...base, type: 'guard' as const };
const trap = { ...base, type: 'trap' as const, faceDown: true };
const mask = { ...base, type: 'mask' as const, rounds: 2 };
const ritual = { ...base, type: 'ritual' as const };

/** The 120-card catalog of the rules brief, in table order. */
export const CATALOG: readonly CardDef[] = [
  { ...gambit, name: 'Feint', count: 10, tempo: 0, damage: 2, kinetic: ['tempo_swing', 'forced_line'], affect: 0.2, tags: ['gambit', 'damage'] },
  { ...gambit, name: 'Overreach', count: 8, tempo: 1, damage: 4, kinetic: KINETIC_INTENTS, ownExposure: 2, affect: 0.3, tags: ['gambit', 'damage', 'risky'] },
  { ...gambit, name: 'Sever', count: 6, tempo: 1, damage: 1, kinetic: ['combo_break'], affect: 0.2, tags: ['gambit', 'damage', 'breaker'] },
  { ...gambit, name: 'Strip', count: 6, tempo: 1, damage: 1, kinetic: ['discard_pressure', 'lockout'], discardCount: 2, affect: 0.25, tags: ['gambit', 'damage', 'control'] },
  { ...guard, name: 'Brace', count: 10, tempo: 0, reactionOnly: true, prevent: 3, reactionResistance: 0.15, tags: ['guard', 'reaction'] },
  { ...guard, name: 'Riposte', count: 5, tempo: 1, reactionOnly: true, prevent: 2, counterDamage: 2, tags: ['guard', 'reaction', 'damage'] },
  { ...guard, name: 'Composure', count: 5, tempo: 0, rounds: 2, tags: ['guard', 'arena'] },
  { ...trap, name: 'Snare', count: 8, tempo: 0, tags: ['trap', 'face_down'] },
  { ...trap, name: 'Tell', count: 6, tempo: 0, tags: ['trap', 'face_down'] },
  { ...trap, name: 'Lockjaw', count: 6, tempo: 0, tags: ['trap', 'face_down'] },
  { ...mask, name: 'Poker Face', count: 8, tempo: 0, tags: ['mask', 'arena'] },
  // False Tell lies face down: a visible False Tell would tell everyone the tell is a lie.
  { ...mask, name: 'False Tell', count: 7, tempo: 0, needsChosenEmotion: true, faceDown: true, tags: ['mask', 'arena', 'spoof'] },
  { ...pressure, name: 'Needle', count: 10, tempo: 0, damage: 1, affect: 0.35, tags: ['pressure', 'damage'] },
  { ...pressure, name: 'Humiliate', count: 7, tempo: 1, damage: 1, affect: 0.4, channels: ['public'], audienceTrust: -0.1, tags: ['pressure', 'damage', 'public'] },
  { ...pressure, name: 'Whisper', count: 8, tempo: 0, affect: 0.45, channels: ['private'], needsNamedPlayer: true, namedTrust: -0.2, tags: ['pressure', 'private'] },
  { ...ritual, name: 'Slow Burn', count: 5, tempo: 2, countdown: 3, tags: ['ritual', 'arena'] },
  { ...ritual, name: 'Rebuild', count: 5, tempo: 1, countdown: 2, tags: ['ritual', 'arena'] },
];

export const CATALOG_SIZE = CATALOG.reduce((n, c) => n + c.count, 0);

const byName = new Map(CATALOG.map((c) => [c.name, c]));

/** Looks a card up by catalog name; an unknown name is a broken invariant. */
export function cardDef(name: string): CardDef {
  const def = byName.get(name);
  if (!def) throw new Error(`unknown card name ${name}`);
  return def;
}

/** A game's card map: card id → catalog name, fixed at the deal. */
type CardMap = Readonly<Record<string, string>>;

/**
 * A memo of something derived from one card of a game, per game: keyed by the game's card map,
 * which never changes after the deal, so an entry never goes stale. Lookups come in runs from one
 * game, so the last game's memo is kept at hand.
 *
 * @example const nameOf = perGameCard((cards, id) => cards[id] ?? ''); nameOf(state.cards, 'card_001')
 */
export function perGameCard<T>(make: (cards: CardMap, cardId: string) => T): (cards: CardMap, cardId: string) => T {
  const byGame = new WeakMap<CardMap, Map<string, T>>();
  let lastCards: CardMap | null = null;
  let last: Map<string, T> | null = null;
  return (cards, cardId) => {
    let memo = cards === lastCards ? last : byGame.get(cards);
    if (!memo) {
      memo = new Map();
      byGame.set(cards, memo);
    }
    lastCards = cards;
    last = memo;
    let value = memo.get(cardId);
    if (value === undefined) {
      value = make(cards, cardId);
      memo.set(cardId, value);
    }
    return value;
  };
}

/**
 * The engine looks cards up by id everywhere (tells, legal moves, resolution: dozens of times a
 * decision), and the id → name record holds 120 keys, so V8 keeps it as a hash table: one Map
 * lookup here replaces that lookup and the catalog's.
 */
const defById = perGameCard((cards, cardId) => cardDef(cards[cardId] ?? ''));

/** The definition of a game's card, by id; an id the game doesn't hold is a broken invariant. */
export const defOf = (state: { readonly cards: CardMap }, cardId: string): CardDef => defById(state.cards, cardId);

/** The 120 catalog names in table order, one entry per physical card. */
export function catalogNames(): string[] {
  return CATALOG.flatMap((c) => Array.from({ length: c.count }, () => c.name));
}

/** Arena clean-up order for combo_break: the most valuable card type goes first. */
export const COMBO_BREAK_ORDER: readonly CardType[] = ['ritual', 'trap', 'mask', 'guard'];
