import { z } from 'zod';
import { CardType, EmotionName } from './enums.js';
import { CardId, PlayerId } from './ids.js';

/** Seed 003 §3.5. A face-down card shows `card_id: "card_hidden"` to everyone but its owner. */
export const CardRef = z.object({
  card_id: CardId,
  name: z.string(),
  type: CardType,
  tags: z.array(z.string()),
});
export type CardRef = z.infer<typeof CardRef>;

/** Where a card can be: the four public or private piles, a seat's hand or arena, or the resolve stack. */
export const Zone = z.union([
  z.literal('deck'),
  z.literal('discard'),
  z.literal('stack'),
  z.templateLiteral(['hand:', PlayerId]),
  z.templateLiteral(['arena:', PlayerId]),
]);
export type Zone = z.infer<typeof Zone>;

/** One card changing zone (undefined by the seed). Moves into an arena carry the card's clocks. */
export const CardMove = z.object({
  card_id: CardId,
  from: Zone,
  to: Zone,
  reason: z.string(),
  arena: z
    .object({
      face_down: z.boolean(),
      rounds_left: z.number().int().nullable(),
      countdown: z.number().int().nullable(),
      chosen_emotion: EmotionName.nullable(),
    })
    .optional(),
});
export type CardMove = z.infer<typeof CardMove>;

/** A card lying in a seat's arena with its clocks. */
export const ArenaCard = z.object({
  card: CardRef,
  owner_player_id: PlayerId,
  face_down: z.boolean(),
  rounds_left: z.number().int().nullable(),
  countdown: z.number().int().nullable(),
  chosen_emotion: EmotionName.nullable(),
});
export type ArenaCard = z.infer<typeof ArenaCard>;

/** Undefined by the seed: everything on the table that is not in a hand, the deck or the discard. */
export const ArenaState = z.object({
  cards: z.array(ArenaCard),
  deck_count: z.number().int().min(0),
});
export type ArenaState = z.infer<typeof ArenaState>;
