import type { z } from 'zod';
import type { GameState } from '../game/index.js';
import type { GameEvent } from '../protocol/index.js';
import { annotationsOf, subjectOf } from './event-rows.js';
import { InvalidInputError } from './errors.js';
import { stateHash } from './hash.js';
import { holdsNul } from './jsonb-text.js';
import { ActionRecord } from './types.js';

/*
 * Rows as lines of tab-separated fields, the form appends send them in (tiltyard_append_v2 and
 * tiltyard_insert_actions_v1 split them with string_to_table and string_to_array). PostgreSQL
 * reads a JSON array of row objects three times over (the json parameter's own check,
 * json_to_recordset, then each json column's input function); lines are split once and each field
 * cast once. That took ~3.5 of ~17.5 ms of PostgreSQL CPU off every game stored whole.
 *
 * JSON.stringify never writes a raw tab or newline (it escapes control characters), so JSON fields
 * go as they are. Text fields are checked instead: a tab or a newline in one would shift every
 * field after it, so it is refused. An empty field is SQL NULL, hence a nullable text field may
 * not be empty either; JSON text is never empty (`null` is JSON null, not SQL NULL).
 */

/** A text field as it goes into a line; `what` names it in the error. */
function text(value: string, what: string): string {
  if (value === '' || value.includes('\t') || value.includes('\n'))
    throw new InvalidInputError(`${what} ${JSON.stringify(value)} cannot be stored: it is empty or holds a tab or a newline`);
  return value;
}

const nullableText = (value: string | null | undefined, what: string): string => (value == null ? '' : text(value, what));

/** JSON text of a value that may be absent (SQL NULL): JSON.stringify(undefined) writes nothing. */
const nullableJson = (value: unknown): string => (value == null ? '' : JSON.stringify(value));

/**
 * One events row: seq, event_id, schema_version, turn, phase, type, player_id, ts, payload,
 * visibility, rng, annotations, prev_hash, hash. The caller has checked the batch (checkBatch:
 * game, seqs, ids, timestamps).
 */
export function eventLine(event: GameEvent, prevHash: string, hash: string): string {
  const where = `event ${event.seq}:`;
  const annotations = annotationsOf(event);
  return (
    event.seq + '\t' +
    text(event.event_id, `${where} event_id`) + '\t' +
    text(event.schema_version, `${where} schema_version`) + '\t' +
    event.turn + '\t' +
    text(event.phase, `${where} phase`) + '\t' +
    text(event.type, `${where} type`) + '\t' +
    nullableText(subjectOf(event), `${where} player_id`) + '\t' +
    event.ts + '\t' +
    JSON.stringify(event.payload) + '\t' +
    JSON.stringify(event.visibility) + '\t' +
    nullableJson(event.rng) + '\t' +
    (annotations ? JSON.stringify(annotations) : '') + '\t' +
    prevHash + '\t' +
    hash
  );
}

/**
 * An action record as the actions table takes it: validated (ActionRecord), with raw and validated
 * as JSON text (null for SQL NULL: raw when the agent sent nothing, validated when absent or null),
 * neither holding U+0000. Throws InvalidInputError otherwise.
 */
export function checkedAction(input: ActionRecord): { a: z.output<typeof ActionRecord>; raw: string | null; validated: string | null } {
  const parsed = ActionRecord.safeParse(input);
  if (!parsed.success)
    throw new InvalidInputError(`invalid action record: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const a = parsed.data;
  const raw = a.raw === undefined ? null : (JSON.stringify(a.raw) ?? null);
  const validated = a.validated == null ? null : JSON.stringify(a.validated);
  // The runners scrub answers before the engine sees them (asDecision); anyone else gets told.
  if (holdsNul(raw ?? '') || holdsNul(validated ?? ''))
    throw new InvalidInputError(`action ${a.player_id}@${a.seq_before}: raw and validated cannot hold U+0000 (jsonb cannot): pass the answer through asDecision`);
  return { a, raw, validated };
}

/**
 * One actions row, validated (checkedAction): seq_before, player_id, attempt, turn, phase, window,
 * raw, validated, accepted, rejection_code, ts. raw is SQL NULL only when the agent sent nothing
 * (JSON null when it sent `null`); validated is SQL NULL when absent or null.
 */
export function actionLine(input: ActionRecord): string {
  const { a, raw, validated } = checkedAction(input);
  const where = `action ${a.player_id}@${a.seq_before}:`;
  return (
    a.seq_before + '\t' +
    text(a.player_id, `${where} player_id`) + '\t' +
    a.attempt + '\t' +
    a.turn + '\t' +
    text(a.phase, `${where} phase`) + '\t' +
    text(a.window, `${where} window`) + '\t' +
    (raw ?? '') + '\t' +
    (validated ?? '') + '\t' +
    (a.accepted ? 't' : 'f') + '\t' +
    nullableText(a.rejection_code, `${where} rejection_code`) + '\t' +
    a.ts
  );
}

/** One snapshots row, the state after `seq`: seq, state, state_hash, rng. */
export function snapshotLine(gameId: string, seq: number, state: GameState): string {
  if (state.game_id !== gameId || state.seq !== seq)
    throw new InvalidInputError(`the state for a snapshot of ${gameId} at seq ${seq} is ${state.game_id} at seq ${state.seq}`);
  return seq + '\t' + JSON.stringify(state) + '\t' + stateHash(state) + '\t' + JSON.stringify(state.rng);
}

/** The lines of a batch of events chained from `prevHash` (`hashes[i]` is event i's own). */
export function eventLines(events: readonly GameEvent[], prevHash: string, hashes: readonly string[]): string {
  return events.map((e, i) => eventLine(e, i === 0 ? prevHash : hashes[i - 1]!, hashes[i]!)).join('\n');
}

/** The lines of some decisions, or null for none. */
export const actionLines = (records: readonly ActionRecord[] | undefined): string | null =>
  records?.length ? records.map(actionLine).join('\n') : null;
