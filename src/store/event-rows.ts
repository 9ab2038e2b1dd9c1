import type { GameEvent } from '../protocol/index.js';
import { InvalidInputError } from './errors.js';

/** Payload keys naming the seat an event is about, in the order they win. */
const SUBJECT_KEYS = [
  'player_id',
  'actor_player_id',
  'predictor_player_id',
  'speaker_player_id',
  'owner_player_id',
] as const;

/** The acting or subject seat of an event, for the (game_id, player_id, turn) index. */
export function subjectOf(event: GameEvent): string | null {
  const p = event.payload as Record<string, unknown>;
  for (const k of SUBJECT_KEYS) {
    const v = p[k];
    if (typeof v === 'string') return v;
  }
  return null;
}

/**
 * The envelope keys the engine adds after `rng` for views (StepContext.emit), in its order. Stored
 * together in one column and put back in this order, so a read's JSON equals what was appended.
 */
const ANNOTATIONS = ['faces', 'slots', 'tells'] as const;

/** The annotations column of an event (ANNOTATIONS, in order), or null when it has none. */
export function annotationsOf(event: GameEvent): Record<string, unknown> | null {
  // Written out rather than filtered over ANNOTATIONS: it runs for every event of every stored game.
  const { faces, slots, tells } = event as Record<string, unknown>;
  if (faces === undefined && slots === undefined && tells === undefined) return null;
  const out: Record<string, unknown> = {};
  if (faces !== undefined) out.faces = faces;
  if (slots !== undefined) out.slots = slots;
  if (tells !== undefined) out.tells = tells;
  return out;
}

/** An events row as reads get it from the adapter: json columns still text. */
export type StoredRow = {
  seq: number;
  event_id: string;
  schema_version: string;
  turn: number;
  phase: string;
  type: string;
  ts: string;
  payload: string;
  visibility: string;
  rng: string | null;
  annotations: string | null;
  prev_hash: string;
  hash: string;
};

/**
 * The event a row stores, with the envelope's keys in the engine's order (StepContext.emit), so
 * the JSON of a read equals the JSON that was appended (payload keys keep their order: the
 * columns are `json`, stored as sent).
 */
export function fromRow(gameId: string, r: StoredRow): GameEvent {
  const e: Record<string, unknown> = {
    schema_version: r.schema_version,
    event_id: r.event_id,
    game_id: gameId,
    seq: r.seq,
    turn: r.turn,
    phase: r.phase,
    type: r.type,
    ts: r.ts,
    payload: JSON.parse(r.payload),
    visibility: JSON.parse(r.visibility),
  };
  if (r.rng !== null) e.rng = JSON.parse(r.rng);
  if (r.annotations !== null) {
    const a = JSON.parse(r.annotations) as Record<string, unknown>;
    for (const k of ANNOTATIONS) if (a[k] !== undefined) e[k] = a[k];
  }
  return e as GameEvent;
}

/**
 * The row an event is stored as (fromRow's inverse): json columns as the text JSON.stringify
 * writes, which is what the append stores and reads give back.
 */
export function toRow(e: GameEvent, prevHash: string, hash: string): StoredRow {
  const annotations = annotationsOf(e);
  return {
    seq: e.seq,
    event_id: e.event_id,
    schema_version: e.schema_version,
    turn: e.turn,
    phase: e.phase,
    type: e.type,
    ts: e.ts,
    payload: JSON.stringify(e.payload),
    visibility: JSON.stringify(e.visibility),
    rng: e.rng == null ? null : JSON.stringify(e.rng),
    annotations: annotations ? JSON.stringify(annotations) : null,
    prev_hash: prevHash,
    hash,
  };
}

/**
 * Checks that `events` continue the log at `expectedSeq` for `gameId`. The log stores full events
 * only: a projection (with `redacted`) cannot be replayed, and timestamps must be the UTC
 * millisecond form (seed 003 §2) so that they read back exactly.
 */
export function checkBatch(
  gameId: string,
  expectedSeq: number,
  events: readonly GameEvent[],
): void {
  if (!Number.isInteger(expectedSeq) || expectedSeq < 0)
    throw new InvalidInputError(`expectedSeq must be an integer ≥ 0, got ${expectedSeq}`);
  const ids = new Set<string>();
  // The events of one step share a ts: check each distinct one once.
  let checkedTs: string | null = null;
  events.forEach((e, i) => {
    const where = `event ${i} (${e.event_id})`;
    if (e.game_id !== gameId)
      throw new InvalidInputError(`${where} belongs to ${e.game_id}, not ${gameId}`);
    if (e.seq !== expectedSeq + i + 1)
      throw new InvalidInputError(`${where} has seq ${e.seq}, expected ${expectedSeq + i + 1}`);
    if (ids.has(e.event_id))
      throw new InvalidInputError(`${where}: event_id repeated within the batch`);
    ids.add(e.event_id);
    if ('redacted' in e && e.redacted !== undefined)
      throw new InvalidInputError(`${where} is a redacted projection; the log stores full events`);
    if (e.ts === checkedTs) return;
    const t = new Date(e.ts);
    if (Number.isNaN(t.getTime()) || t.toISOString() !== e.ts) {
      throw new InvalidInputError(
        `${where}: ts must be UTC ISO-8601 with milliseconds (Date#toISOString), got ${e.ts}`,
      );
    }
    checkedTs = e.ts;
  });
}
