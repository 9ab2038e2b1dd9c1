import type { Interval } from '../tournament/bootstrap.js';
import type { PositionsReport } from '../research/position-report.js';
import { num, pct } from './format.js';

const ci = (i: Interval | null, show: (x: number) => string): string => (i ? `${show(i.value).padStart(7)}  [${show(i.low)}, ${show(i.high)}]` : '      –');

/**
 * A positions report in words and figures, one line a measure with its 95 % interval.
 *
 * @example positionsFormatted(report) // 'balanced on bank-v1.jsonl: 200 positions\n  mean regret …'
 */
export function positionsFormatted(r: PositionsReport): string {
  const lines = [
    `${r.agent} on ${r.bank}: ${r.positions} positions, one decision each`,
    `  mean regret ${ci(r.mean_regret, (x) => num(x, 3))}   expert value of the best move − of the move made (lower is better)`,
    `  agreement   ${ci(r.agreement, (x) => pct(x))}   made the expert's best move`,
    `  legality    ${ci(r.legality, (x) => pct(x))}   answers the engine would accept`,
    `  answered ${r.answered} · illegal ${r.illegal} · failed ${r.failed}`,
  ];
  if (r.problems.length) lines.push(`  problems: ${r.problems.map((p) => `${p.code} ×${p.count}`).join(', ')}`);
  return `${lines.join('\n')}\n`;
}
