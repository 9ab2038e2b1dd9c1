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

/** The first 19 characters (date and time to the second) of the last `…ss.mmmZ` stamp that passed the pattern. */
let lastSecond = '';
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Whether `ts` passes ISO_TIMESTAMP_PATTERN. A runner stamps every decision, one millisecond apart,
 * and the pattern (it checks calendar dates) costs about 0.6 µs a new string — 4 % of a random
 * seat's decision. A stamp `YYYY-MM-DDThh:mm:ss.mmmZ` whose first 19 characters equal those of one
 * that passed also passes: the date and the time are fixed-width there, and the pattern takes any
 * digits after the point. Checked against the pattern by test/protocol/iso-timestamp.prop.spec.ts.
 */
export function isIsoTimestamp(ts: string): boolean {
  if (
    ts.length === 24 &&
    lastSecond.length === 19 &&
    ts.charCodeAt(19) === 46 &&
    isDigit(ts.charCodeAt(20)) &&
    isDigit(ts.charCodeAt(21)) &&
    isDigit(ts.charCodeAt(22)) &&
    ts.charCodeAt(23) === 90 &&
    ts.startsWith(lastSecond)
  )
    return true;
  if (!ISO_TIMESTAMP_PATTERN.test(ts)) return false;
  if (ts.length === 24 && ts.charCodeAt(19) === 46 && ts.charCodeAt(23) === 90) lastSecond = ts.slice(0, 19);
  return true;
}
