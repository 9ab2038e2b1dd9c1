import type { GameEvent } from '../protocol/index.js';
import { compress, SEGMENT_EVENTS, segmentJson, segmentSeal } from './cold-codec.js';
import { ACTION_COLUMNS } from './compact.js';
import { toRow } from './event-rows.js';
import { byOrder } from './cold-actions.js';
import { jsonbText } from './jsonb-text.js';
import { checkedAction } from './row-lines.js';
import type { ActionRecord } from './types.js';
import { actionsSeal } from './verify-cold.js';

/**
 * A whole ended game in the cold form compaction would give it (compact.ts), made from the events
 * and decisions in memory: the same segments byte for byte (the rows' json is the text the engine's
 * JSON.stringify wrote, as the hot rows hold it) and the same actions tuples (raw and validated as
 * jsonb prints them: jsonbText). So a game stored whole never takes the hot detour of ~1,000 rows
 * written, read back, re-hashed, compressed and deleted. Plain strings and numbers: it may be made on
 * a worker thread.
 */
export type ColdGame = {
  /** JSON of [{first_seq, last_seq, last_turn, seal, last_hash, data (base64)}]. */
  segments: string;
  actions_count: number;
  actions_seal: string | null;
  /** base64 of the compressed actions tuples, or null for none. */
  actions_data: string | null;
};

/** The decisions as the actions table would hold them: validated, the first of a (seq_before, player, attempt) kept (ON CONFLICT DO NOTHING), in order. */
function actionTuples(records: readonly ActionRecord[]): unknown[][] {
  const seen = new Set<string>();
  const rows: Array<ReturnType<typeof checkedAction>['a']> = [];
  for (const input of records) {
    const { a } = checkedAction(input);
    const key = `${a.seq_before}\t${a.player_id}\t${a.attempt}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push(a);
  }
  return rows.sort(byOrder).map((a) => {
    const row: Record<(typeof ACTION_COLUMNS)[number], unknown> = {
      seq_before: a.seq_before,
      player_id: a.player_id,
      attempt: a.attempt,
      turn: a.turn,
      phase: a.phase,
      window: a.window,
      raw: a.raw === undefined ? null : jsonbText(a.raw),
      validated: a.validated == null ? null : jsonbText(a.validated),
      accepted: a.accepted,
      rejection_code: a.rejection_code ?? null,
      ts: new Date(a.ts).toISOString(),
    };
    return ACTION_COLUMNS.map((k) => row[k]);
  });
}

/**
 * The cold form of an ended game's whole log (`hashes[i]`: event i's chain hash from genesis) and
 * its decisions, sealed as compactGame seals them.
 */
export function coldGame(gameId: string, events: readonly GameEvent[], hashes: readonly string[], actions: readonly ActionRecord[]): ColdGame {
  const segments = [];
  for (let i = 0; i < events.length; i += SEGMENT_EVENTS) {
    const part = events.slice(i, i + SEGMENT_EVENTS);
    const data = compress(segmentJson(gameId, part.map((e) => toRow(e, '', ''))));
    const last = part[part.length - 1]!;
    const lastHash = hashes[i + part.length - 1]!;
    segments.push({ first_seq: part[0]!.seq, last_seq: last.seq, last_turn: last.turn, seal: segmentSeal(lastHash, data), last_hash: lastHash, data: data.toString('base64') });
  }
  const tuples = actionTuples(actions);
  const head = hashes[hashes.length - 1]!;
  const data = tuples.length ? compress(JSON.stringify(tuples)) : null;
  return {
    segments: JSON.stringify(segments),
    actions_count: tuples.length,
    actions_seal: data ? actionsSeal(head, data) : null,
    actions_data: data ? data.toString('base64') : null,
  };
}
