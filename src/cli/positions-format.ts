import type { Interval } from '../tournament/bootstrap.js';
import type { PairedComparison } from '../research/position-compare.js';
import type { PositionsReport } from '../research/position-report.js';
import { num, pct } from './format.js';

const ci = (i: Interval | null, show: (x: number) => string): string => (i ? `${show(i.value).padStart(7)}  [${show(i.low)}, ${show(i.high)}]` : '      –');

/**
 * A positions report in words and figures, one line a measure with its 95 % interval.
 *
 * @example positionsFormatted(report) // 'balanced on bank-v2.jsonl: 1000 positions\n  mean regret …'
 */
export function positionsFormatted(r: PositionsReport): string {
  const lines = [
    `${r.agent} on ${r.bank}: ${r.positions} positions, one decision each`,
    `  mean regret ${ci(r.mean_regret, (x) => num(x, 3))}   expert value of the best move − of the exact answer (lower is better)`,
    `  move regret ${ci(r.mean_move_regret, (x) => num(x, 3))}   … − of the move made, as the bank plays it (its fixed framing)`,
    `  agreement   ${ci(r.agreement, (x) => pct(x))}   made the expert's best move`,
    `  legality    ${ci(r.legality, (x) => pct(x))}   answers the engine would accept`,
    `  answered ${r.answered} · illegal ${r.illegal} · failed ${r.failed}`,
  ];
  if (r.problems.length) lines.push(`  problems: ${r.problems.map((p) => `${p.code} ×${p.count}`).join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Two agents compared on the same positions, in a sentence and the figures behind it.
 *
 * @example pairedFormatted(c) // 'balanced − random: regret difference −0.410 [−0.702, −0.131] over 1000 positions: balanced loses less …'
 */
export function pairedFormatted(c: PairedComparison): string {
  const verdict = c.better ? `${c.better} loses less (the interval excludes 0)` : 'not told apart (the interval holds 0)';
  return [
    `${c.agent} − ${c.against}: regret difference ${ci(c.mean_difference, (x) => num(x, 3)).trim()} over ${c.positions} positions: ${verdict}`,
    `  paired sd ${num(c.sd, 3)} · smallest difference this bank detects for the pair (95 %, power 80 %): ${num(c.detectable, 3)}`,
  ].join('\n') + '\n';
}
