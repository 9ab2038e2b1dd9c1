import { fold, type GameState } from '../game/index.js';
import type { GameEvent } from '../protocol/index.js';
import type { Head, StoreContext } from './context.js';
import { checkBatch } from './event-rows.js';
import {
  ConcurrencyConflictError,
  EventIdConflictError,
  InvalidInputError,
  StoreError,
} from './errors.js';
import { canonicalJson } from './canonical-json.js';
import { chainHashes } from './hash.js';
import { readHead, rememberHead } from './heads.js';
import { readByEventIds } from './reads.js';
import { actionLines, eventLines, snapshotLine } from './row-lines.js';
import { crossesBoundary, stateAt } from './snapshots.js';
import type { AppendOptions, AppendResult } from './types.js';

/** games.status/placements/ended_at as the batch's events move them. */
export function lifecycle(events: readonly GameEvent[]): {
  status: string | null;
  placements: string | null;
} {
  let status: string | null = null;
  let placements: string | null = null;
  for (const e of events) {
    if (e.type === 'game_started') status = 'running';
    if (e.type === 'game_ended') {
      status = 'ended';
      placements = JSON.stringify(e.payload.placements);
    }
  }
  return { status, placements };
}

/**
 * The whole append as one statement, hence one transaction and one round trip: the
 * tiltyard_append_v2 function (prisma/migrations/…_append_lines) moves the head of `games`
 * from (expectedSeq, its hash) to the new head — the guard a stale writer fails — and only then
 * inserts the events (one set-based INSERT from row lines: row-lines.ts), the snapshot and the
 * actions.
 */
const APPEND_SQL = `SELECT tiltyard_append_v2($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10) AS moved`;

async function tryAppend(
  ctx: StoreContext,
  gameId: string,
  expectedSeq: number,
  prev: string,
  events: readonly GameEvent[],
  snapshot: string | null,
  actions: string | null,
): Promise<{ moved: boolean; head: Head }> {
  const hashes = chainHashes(prev, events);
  const head: Head = { seq: expectedSeq + events.length, hash: hashes[hashes.length - 1]! };
  const life = lifecycle(events);
  const params = [
    gameId,
    expectedSeq,
    prev,
    head.seq,
    head.hash,
    eventLines(events, prev, hashes),
    life.status,
    life.placements,
    snapshot,
    actions,
  ];
  const [out] = await ctx.sql.rows<{ moved: boolean }>(APPEND_SQL, params);
  return { moved: out?.moved === true, head };
}

/** A DriverAdapterError for a unique violation (the adapters map SQLSTATE 23505 to this kind). */
const isUniqueViolation = (e: unknown): boolean =>
  (e as { cause?: { kind?: string } })?.cause?.kind === 'UniqueConstraintViolation';

/** The state after `events` when the caller did not pass it: the engine folds them on. */
async function foldOn(
  ctx: StoreContext,
  gameId: string,
  expectedSeq: number,
  events: readonly GameEvent[],
): Promise<GameState> {
  const before = await stateAt(ctx, gameId, expectedSeq);
  try {
    return fold(before, events);
  } catch (e) {
    throw new InvalidInputError(
      `game ${gameId}: the engine cannot fold these events onto seq ${expectedSeq}: ${(e as Error).message}`,
      { cause: e },
    );
  }
}

/**
 * Why the guarded statement did not move the head:
 * - every event of the batch is already stored as is: a retry — success, nothing written;
 * - the log is past expectedSeq: a stale writer (even if its event_ids collide with what the
 *   winner stored: the engine derives ids from seqs, so racing writers always collide);
 * - the log is at expectedSeq but an event_id names an earlier, different event;
 * - otherwise the remembered prev hash was not the stored one: returns the stored head to retry.
 */
async function explainMiss(
  ctx: StoreContext,
  gameId: string,
  expectedSeq: number,
  events: readonly GameEvent[],
): Promise<AppendResult | Head> {
  const head = await readHead(ctx, gameId);
  const stored = await readByEventIds(
    ctx,
    gameId,
    events.map((e) => e.event_id),
  );
  const same = (e: GameEvent) => {
    const s = stored.get(e.event_id);
    return s !== undefined && canonicalJson(s) === canonicalJson(e);
  };
  if (events.every(same))
    return { last_seq: head.seq, last_hash: head.hash, appended: 0, snapshot_seq: null };
  if (head.seq !== expectedSeq) throw new ConcurrencyConflictError(gameId, expectedSeq, head.seq);
  const clash = events.find((e) => stored.has(e.event_id));
  if (clash) throw new EventIdConflictError(gameId, clash.event_id);
  return head;
}

/**
 * Appends one engine step's events to a game's log, atomically: all of them with their hash
 * links, the head move, a snapshot if the batch crosses a multiple of snapshotEvery, and the
 * step's actions — or nothing.
 * - Stale writer (the log is not at expectedSeq): ConcurrencyConflictError.
 * - The same events again (a retry after a lost reply): success with appended = 0.
 * - A different event under a stored event_id: EventIdConflictError.
 * - Events not continuing the log at expectedSeq (seq gaps, wrong game): InvalidInputError.
 *
 * @example const { last_seq } = await append(ctx, id, state.seq - res.events.length, res.events, { state })
 */
export async function append(
  ctx: StoreContext,
  gameId: string,
  expectedSeq: number,
  events: readonly GameEvent[],
  options: AppendOptions = {},
): Promise<AppendResult> {
  checkBatch(gameId, expectedSeq, events);
  if (events.length === 0) {
    const head = await readHead(ctx, gameId);
    if (head.seq !== expectedSeq) throw new ConcurrencyConflictError(gameId, expectedSeq, head.seq);
    return { last_seq: head.seq, last_hash: head.hash, appended: 0, snapshot_seq: null };
  }
  const toSeq = expectedSeq + events.length;
  const snapSeq = crossesBoundary(ctx.snapshotEvery, expectedSeq, toSeq) ? toSeq : null;
  const actions = actionLines(options.actions);
  let snapshot: string | null | undefined;

  let prev = ctx.heads.get(gameId);
  if (!prev || prev.seq !== expectedSeq) prev = await readHead(ctx, gameId);
  // Two tries at most: the second only when the remembered hash was not the stored one.
  for (let attempt = 0; attempt < 2; attempt++) {
    let moved = false;
    let head: Head | undefined;
    if (prev.seq === expectedSeq) {
      snapshot ??=
        snapSeq === null
          ? null
          : snapshotLine(
              gameId,
              snapSeq,
              options.state ?? (await foldOn(ctx, gameId, expectedSeq, events)),
            );
      try {
        ({ moved, head } = await tryAppend(
          ctx,
          gameId,
          expectedSeq,
          prev.hash,
          events,
          snapshot,
          actions,
        ));
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
      }
    }
    if (moved && head) {
      if (events[events.length - 1]!.type === 'game_ended') ctx.heads.delete(gameId);
      else rememberHead(ctx, gameId, head);
      return {
        last_seq: head.seq,
        last_hash: head.hash,
        appended: events.length,
        snapshot_seq: snapSeq,
      };
    }
    const outcome = await explainMiss(ctx, gameId, expectedSeq, events);
    if ('appended' in outcome) return outcome;
    if (outcome.hash === prev.hash) break;
    prev = outcome;
  }
  throw new StoreError(
    `game ${gameId}: append at seq ${expectedSeq} failed though the log is there (a unique violation without a conflicting event)`,
  );
}
