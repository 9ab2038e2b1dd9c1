import { ConfigError } from '../game/index.js';
import { DivergenceError } from '../runner/runner-errors.js';
import { IntegrityError, type EventStore, type GameStatus } from '../store/index.js';
import { exportCsvHeader, exportCsvLine } from './export-csv.js';
import { exportGame } from './export-game.js';
import type { ExportRecord } from './export-record.js';

export type ExportFormat = 'jsonl' | 'csv';

/** Which games to export: one tournament's, or the store's filtered (all of them by default). */
export type ExportSelection = {
  tournament_id?: string;
  status?: GameStatus;
  agent?: string;
  /** At most this many games, the oldest first. */
  limit?: number;
};

/**
 * Where the lines go. `write` resolves once the destination can take more (its buffer drained):
 * awaiting it is the backpressure that keeps memory flat however much is exported.
 */
export type ExportSink = { write(text: string): Promise<void> };

export type ExportSummary = {
  games: number;
  records: number;
  /** Games that could not be exported (a replay that does not reproduce the log), and why. */
  failed: Array<{ game_id: string; reason: string }>;
};

/** Games read ahead while the current one is written: enough to overlap the database with the writing. */
const READ_AHEAD = 2;
const PAGE = 500;

/**
 * The ids of the selected games, oldest first. Only ids are kept (a few dozen bytes a game); each
 * game's rows are read when its turn comes.
 */
export async function selectGames(store: EventStore, selection: ExportSelection): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  const filter = {
    ...(selection.tournament_id !== undefined ? { tournament_id: selection.tournament_id } : {}),
    ...(selection.status !== undefined ? { status: selection.status } : {}),
    ...(selection.agent !== undefined ? { agent: selection.agent } : {}),
  };
  do {
    const page = await store.listGames(filter, { limit: PAGE, ...(cursor ? { cursor } : {}) });
    for (const g of page.games) ids.push(g.game_id);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  ids.reverse();
  return selection.limit !== undefined ? ids.slice(0, selection.limit) : ids;
}

const lineOf = (format: ExportFormat) => (format === 'csv' ? exportCsvLine : (r: ExportRecord) => `${JSON.stringify(r)}\n`);

/**
 * Writes every decision of the given games to `sink`, one line each (JSONL, or CSV after a header
 * line), a game at a time: at most READ_AHEAD games' records are in memory, and each line waits
 * for the sink to take it. A game that cannot be exported is skipped and reported in the summary;
 * anything else (the store failing) throws. `onGame` hears each game done.
 *
 * @example await exportGames(store, await selectGames(store, { tournament_id }), 'jsonl', sink)
 */
export async function exportGames(
  store: EventStore,
  gameIds: readonly string[],
  format: ExportFormat,
  sink: ExportSink,
  onGame?: (done: number, total: number, records: number) => void,
): Promise<ExportSummary> {
  const line = lineOf(format);
  const summary: ExportSummary = { games: 0, records: 0, failed: [] };
  const read = (id: string): Promise<ExportRecord[] | { reason: string }> =>
    store.getGame(id).then((g) => exportGame(store, g)).catch((e: unknown) => {
      // Only a game that does not replay (or whose config this release cannot read, or whose
      // stored log fails its integrity check) is skipped: the store failing is the whole export's failure.
      if (e instanceof DivergenceError || e instanceof ConfigError || e instanceof IntegrityError) return { reason: e.message };
      throw e;
    });
  if (format === 'csv') await sink.write(exportCsvHeader());
  const pending: Array<Promise<ExportRecord[] | { reason: string }>> = [];
  for (let next = 0; next < gameIds.length || pending.length > 0; ) {
    while (pending.length < READ_AHEAD && next < gameIds.length) {
      const p = read(gameIds[next++]!);
      // Awaited in turn below; until then a failure must not count as unhandled.
      p.catch(() => {});
      pending.push(p);
    }
    const records = await pending.shift()!;
    const id = gameIds[summary.games + summary.failed.length]!;
    if (Array.isArray(records)) {
      for (const r of records) await sink.write(line(r));
      summary.games++;
      summary.records += records.length;
    } else summary.failed.push({ game_id: id, reason: records.reason });
    onGame?.(summary.games + summary.failed.length, gameIds.length, summary.records);
  }
  return summary;
}
