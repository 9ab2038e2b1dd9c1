import { csvLine } from '../tournament/report-csv.js';
import { DecisionOutcome, ExportRecord } from './export-record.js';

/** Columns holding a nested part, written as its JSON text (empty when null). */
const JSON_COLUMNS: ReadonlySet<string> = new Set(['request', 'decision', 'trace', 'outcome_events']);

/**
 * The CSV columns, in order: the record's fields as the schema lists them, with `outcome`'s spread
 * out as `outcome_<field>`. Taken from the zod schema so the CSV cannot drift from the JSONL.
 */
export const EXPORT_CSV_COLUMNS: readonly string[] = Object.keys(ExportRecord.shape).flatMap((k) =>
  k === 'outcome' ? Object.keys(DecisionOutcome.shape).map((o) => `outcome_${o}`) : [k],
);

function cell(record: ExportRecord, column: string): string | number | boolean | null {
  const value: unknown = column.startsWith('outcome_')
    ? record.outcome[column.slice('outcome_'.length) as keyof DecisionOutcome]
    : record[column as keyof ExportRecord];
  // An answer of JSON null is still an answer: only "sent nothing" leaves the cell empty.
  if (column === 'decision') return record.answered ? JSON.stringify(value) : null;
  if (JSON_COLUMNS.has(column)) return value === null || value === undefined ? null : JSON.stringify(value);
  return value as string | number | boolean | null;
}

/** The CSV header line. */
export const exportCsvHeader = (): string => csvLine(EXPORT_CSV_COLUMNS);

/**
 * One record as a CSV line: flat columns, the nested parts (request, decision, trace, the
 * outcome's events) as JSON strings.
 *
 * @example exportCsvHeader() + records.map(exportCsvLine).join('')
 */
export const exportCsvLine = (record: ExportRecord): string => csvLine(EXPORT_CSV_COLUMNS.map((c) => cell(record, c)));
