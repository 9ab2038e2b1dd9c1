import { z } from 'zod';

/** Opaque ids keep the seed's prefixes so a stray id is recognisable in any log line. */
const idPattern = (prefix: string) => new RegExp(`^${prefix}_[A-Za-z0-9_.:-]{1,64}$`);
const prefixed = (prefix: string) => z.string().regex(idPattern(prefix), `expected an id like ${prefix}_…`);

/** PlayerId's pattern, for a hot path that checks a string without a zod parse (the engine's input). */
export const PLAYER_ID_PATTERN = idPattern('plr');

export const GameId = prefixed('game');
export const EventId = prefixed('evt');
export const PlayerId = prefixed('plr');
export const ActionId = prefixed('act');
export const CardId = prefixed('card');
export const CommitmentId = prefixed('cmt');

export type GameId = z.infer<typeof GameId>;
export type EventId = z.infer<typeof EventId>;
export type PlayerId = z.infer<typeof PlayerId>;
export type ActionId = z.infer<typeof ActionId>;
export type CardId = z.infer<typeof CardId>;
export type CommitmentId = z.infer<typeof CommitmentId>;

/** Unit interval and signed unit interval, the two ranges seed 003 §2 fixes. */
export const Probability = z.number().min(0).max(1);
export const Signed = z.number().min(-1).max(1);
export const IsoTimestamp = z.iso.datetime({ offset: true });
/** IsoTimestamp's own pattern (its only check), for the same hot path. */
export const ISO_TIMESTAMP_PATTERN: RegExp = IsoTimestamp._zod.def.pattern ?? z.core.regexes.datetime({ offset: true });
