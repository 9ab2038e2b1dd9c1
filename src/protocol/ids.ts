import { z } from 'zod';

/** Opaque ids keep the seed's prefixes so a stray id is recognisable in any log line. */
const prefixed = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[A-Za-z0-9_.:-]{1,64}$`), `expected an id like ${prefix}_…`);

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
