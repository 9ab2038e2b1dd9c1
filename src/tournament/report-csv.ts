import { EMOTIONAL_INTENTS, MANIPULATION_PLANS } from '../protocol/index.js';
import type { OutcomeFigures } from '../runner/research-figures.js';
import type { Interval } from './bootstrap.js';
import type { ChoiceShiftRow } from './choice-shift.js';
import type { Report } from './report.js';

/** The report's tables, one CSV each (`<table>.csv`). */
export const REPORT_TABLES = ['agents', 'pairs', 'plans', 'intents', 'ledger', 'shifts', 'wpa'] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

type Cell = string | number | boolean | null | undefined;

const quote = (v: Cell): string => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** One CSV line (RFC 4180 quoting, empty cells for null), with its `\n`: for writers that stream rows. */
export const csvLine = (cells: readonly Cell[]): string => `${cells.map(quote).join(',')}\n`;

/** A CSV table (RFC 4180 quoting, `\n` line ends, empty cells for null). */
export const toCsv = (header: readonly string[], rows: readonly (readonly Cell[])[]): string => [header, ...rows].map((r) => r.map(quote).join(',')).join('\n') + '\n';

/** Flattens nested plain objects to `a_b_c` columns; `shape` fixes the columns when a value is null. */
function flatten(value: unknown, prefix: string, out: Record<string, Cell>, shape?: unknown): void {
  const template = value ?? shape;
  if (template !== null && typeof template === 'object' && !Array.isArray(template)) {
    for (const [k, v] of Object.entries(template)) flatten(value == null ? null : (value as Record<string, unknown>)[k], prefix ? `${prefix}_${k}` : k, out, v);
  } else out[prefix] = (value ?? null) as Cell;
}

const USAGE_SHAPE = { calls: 0, failed_calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0, mean_latency_ms: 0 };
const outcomeRow = (o: OutcomeFigures): Cell[] => [o.attempts, o.successes, o.partial, o.success_rate];
const OUTCOME_COLUMNS = ['attempts', 'successes', 'partial', 'success_rate'];

const interval = (i: Interval | null): Cell[] => [i?.value, i?.low, i?.high];
/** A choice-shift row; `*` in the target column is every target pooled. */
const shiftRow = (r: ChoiceShiftRow): Cell[] => [
  r.target ?? '*',
  r.emotional_intent,
  r.samples,
  r.attack_share_after,
  r.attack_share_baseline,
  ...interval(r.attack_shift),
  r.defensive_share_after,
  r.defensive_share_baseline,
  ...interval(r.defensive_shift),
  r.status,
  r.clusters,
  r.few_samples,
];
const SHIFT_COLUMNS = ['target', 'emotional_intent', 'samples', 'attack_share_after', 'attack_share_baseline', 'attack_shift', 'attack_shift_low', 'attack_shift_high', 'defensive_share_after', 'defensive_share_baseline', 'defensive_shift', 'defensive_shift_low', 'defensive_shift_high', 'status', 'clusters', 'few_samples'];

function table(records: readonly Record<string, Cell>[]): string {
  const header = Object.keys(records[0] ?? {});
  return toCsv(
    header,
    records.map((r) => header.map((h) => r[h])),
  );
}

/**
 * The report as CSV files, one per table:
 * - `agents.csv`: one row per agent (games, wins, win_rate and mean_placement from the overall
 *   figures, then every AgentResearch field flattened to `parent_child` columns);
 * - `pairs.csv`: one row per ordered pair (agent acting on target);
 * - `plans.csv`, `intents.csv`: one row per agent × manipulation_plan / emotional_intent;
 * - `ledger.csv`: one row per agent × commitment kind × outcome;
 * - `shifts.csv`: the emotion → choice shifts, one row per emotional intent pooled (target `*`),
 *   then per target × intent, each shift with its 95 % interval (`_low`, `_high`), the clusters
 *   (duplicate groups) behind it and whether they are few (`few_samples`);
 * - `wpa.csv`: mean choice WPA per decision, one row per agent × kind (`all`, then each window).
 */
export function reportToCsv(report: Report): Record<`${ReportTable}.csv`, string> {
  const agents = report.agents.map((a) => {
    const row: Record<string, Cell> = { agent: a.agent };
    const overall = report.overall.byAgent[a.agent];
    Object.assign(row, { games: overall?.games ?? 0, wins: overall?.wins ?? 0, win_rate: overall?.winRate ?? null, mean_placement: overall?.meanPlacement ?? null });
    const { agent: _agent, by_plan: _plan, by_intent: _intent, ledger: _ledger, usage, ...rest } = a;
    flatten(rest, '', row);
    flatten(usage, 'usage', row, USAGE_SHAPE);
    return row;
  });
  const pairs = report.pairs.map((p) => {
    const row: Record<string, Cell> = {};
    flatten(p, '', row);
    return row;
  });
  return {
    'agents.csv': table(agents),
    'pairs.csv': table(pairs),
    'plans.csv': toCsv(
      ['agent', 'manipulation_plan', ...OUTCOME_COLUMNS],
      report.agents.flatMap((a) => MANIPULATION_PLANS.map((p) => [a.agent, p, ...outcomeRow(a.by_plan[p])])),
    ),
    'intents.csv': toCsv(
      ['agent', 'emotional_intent', ...OUTCOME_COLUMNS],
      report.agents.flatMap((a) => EMOTIONAL_INTENTS.map((i) => [a.agent, i, ...outcomeRow(a.by_intent[i])])),
    ),
    'ledger.csv': toCsv(
      ['agent', 'kind', 'outcome', 'count'],
      report.agents.flatMap((a) =>
        Object.keys(a.ledger)
          .sort()
          .flatMap((kind) =>
            Object.keys(a.ledger[kind]!)
              .sort()
              .map((outcome) => [a.agent, kind, outcome, a.ledger[kind]![outcome]!]),
          ),
      ),
    ),
    'shifts.csv': toCsv(SHIFT_COLUMNS, [...report.choice_shift.by_intent, ...report.choice_shift.by_target].map(shiftRow)),
    'wpa.csv': toCsv(['agent', 'kind', 'games', 'decisions', 'wpa', 'wpa_low', 'wpa_high'], report.wpa.map((r) => [r.agent, r.kind, r.games, r.decisions, ...interval(r.mean)])),
  };
}
