import type { Prisma } from '../../store/generated/client.js';
import type { GameEvent } from '../../protocol/index.js';
import type { EventStore, GameRecord } from '../../store/index.js';
import { COMMIT_MARGIN_MS } from '../spectate/commit-times.js';
import type { CommitLog } from '../../live/commit-log.js';
import { optionsOf } from '../../live/game-options.js';
import { holdBackOf, releasedRound, type HoldBack } from '../../live/hold-back.js';

/**
 * A game's hold-back (src/live/hold-back.ts) from its stored options. Games stored outside the
 * server, or before the options existed, are public and undelayed.
 */
export const holdBackOfGame = (game: Pick<GameRecord, 'options'>): HoldBack => holdBackOf(optionsOf(game, 0));

/** A game's spectator delay in ms (0: none): how long after its commit the end of a game is news to the public lobby. */
export const spectatorDelayOf = (game: Pick<GameRecord, 'options'>): number => holdBackOfGame(game).delayMs;

/**
 * The last seq a game's delayed audience may see at `now`: the smaller cut of the hold-back's two
 * rules (hold-back.ts), the time rule (timeHead) and the round rule (roundHead). The socket feed
 * cuts its delayed channel by the same two rules (game-feed.ts), so REST pages, snapshots, game
 * records, tournament views and the socket never show a delayed audience different heads' worth.
 *
 * @example await delayedHead(store, game, holdBackOfGame(game), Date.now(), bus.commits) // ≤ game.last_seq
 */
export async function delayedHead(store: EventStore, game: GameRecord, hold: HoldBack, now: number, commits?: CommitLog): Promise<number> {
  const byTime = hold.delayMs > 0 ? await timeHead(store, game, hold.delayMs, now, commits) : game.last_seq;
  return hold.until === 'commit' || byTime === 0 ? byTime : Math.min(byTime, await roundHead(store, game, hold));
}

/**
 * The round rule's cut over the stored log: the event before the first one of a round it still
 * holds back. Ended games hold nothing back by it (`game_ended` commits with the row's status).
 */
async function roundHead(store: EventStore, game: GameRecord, hold: HoldBack): Promise<number> {
  if (game.status === 'ended' || game.last_seq === 0) return game.last_seq;
  const log = await logOf(store, game);
  const released = releasedRound(hold, (await log.last())?.turn ?? 0, false);
  if (released === Infinity) return game.last_seq;
  const late = await log.first({ turn: { gt: released } }, (e) => e.turn > released);
  return late ? late.seq - 1 : game.last_seq;
}

type Found = { seq: number; turn: number } | null;

/**
 * A game's log up to its head, asked the two questions the rules ask: its last event, and the
 * first event matching a condition. SQL over `events` while the game is hot; a compacted game's
 * rows have left that table (its events are in cold_segments), so its log is read and scanned —
 * without this a delayed audience saw a compacted game whole the moment it was compacted.
 */
async function logOf(store: EventStore, game: GameRecord) {
  const where = { gameId: game.game_id, seq: { lte: game.last_seq } };
  const lastRow = await store.prisma.event.findFirst({ where: { gameId: game.game_id, seq: game.last_seq }, select: { seq: true, turn: true } });
  if (lastRow || game.last_seq === 0) {
    return {
      last: (): Promise<Found> => Promise.resolve(lastRow),
      first: (w: Prisma.EventWhereInput): Promise<Found> => store.prisma.event.findFirst({ where: { ...where, ...w }, orderBy: { seq: 'asc' }, select: { seq: true, turn: true } }),
    };
  }
  const events = await store.read(game.game_id, 0, game.last_seq);
  return {
    last: (): Promise<Found> => Promise.resolve(events.at(-1) ?? null),
    first: (_w: Prisma.EventWhereInput, test: (e: GameEvent) => boolean): Promise<Found> => Promise.resolve(events.find(test) ?? null),
  };
}

/**
 * The time rule's cut: the last seq a delayed audience may see at `now`: the event before the first one that may have
 * committed later than `now − delayMs`. Commit times are estimated as the socket feed does
 * (estimatedCommit in spectate/commit-times.ts), so REST never shows a delayed spectator more than
 * the socket does: an event's `ts` plus a margin when that ts lies within the game's lifetime (a
 * wall-clock stamp), else the game row's last append plus the margin. Cut at the first late event
 * rather than filtered, so a spectator always sees a prefix of the log. Steps this process saw
 * commit (`commits`) are held back by their true commit time as well, so a slow append (longer
 * than the margin) cannot release a step before the socket's delayed channel does.
 */
async function timeHead(store: EventStore, game: GameRecord, delayMs: number, now: number, commits?: CommitLog): Promise<number> {
  const estimated = await estimatedHead(store, game, delayMs, now);
  const late = commits?.firstAfter(game.game_id, now - delayMs) ?? null;
  return late === null ? estimated : Math.min(estimated, late - 1);
}

async function estimatedHead(store: EventStore, game: GameRecord, delayMs: number, now: number): Promise<number> {
  const cutoff = now - delayMs;
  const lastAppend = Math.max(Date.parse(game.updated_at), game.ended_at ? Date.parse(game.ended_at) : 0);
  // Every stored step committed by the row's last append: if that is old enough, so is the whole log.
  if (Math.min(lastAppend + COMMIT_MARGIN_MS, now) <= cutoff) return game.last_seq;
  // Otherwise only wall-clock stamps old enough pass: a ts before the game existed or after its
  // last append says nothing about when the step committed, so it counts as late.
  const lateAfter = Math.min(lastAppend, cutoff - COMMIT_MARGIN_MS);
  const earliest = Date.parse(game.created_at) - COMMIT_MARGIN_MS;
  const log = await logOf(store, game);
  const late = await log.first({ OR: [{ ts: { gt: new Date(lateAfter) } }, { ts: { lt: new Date(earliest) } }] }, (e) => {
    const ts = Date.parse(e.ts);
    return ts > lateAfter || ts < earliest;
  });
  return late ? late.seq - 1 : game.last_seq;
}
