import type { Interval } from '../tournament/bootstrap.js';
import type { CounterfactualReport } from '../research/counterfactual-report.js';
import { num, pct, table } from './format.js';
import { seatLabel } from './outcome-format.js';

const range = (i: Interval | null, show: (x: number) => string): string => (i ? `${show(i.value)} [${show(i.low)}–${show(i.high)}]` : '–');
const ordinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

/**
 * `tiltyard counterfactual`'s text: the runs' outcome per seat (placements histogram, mean
 * placement, win rate, survival and lives with their 95 % intervals) beside the original game's,
 * then who eliminated whom and how often.
 */
export function formatCounterfactual(r: CounterfactualReport): string {
  const lines = [
    `Counterfactual of ${r.parent_game_id} at seq ${r.at.seq} (round ${r.at.round}) · ${r.runs} runs reseeded ${r.reseed_from}–${r.reseed_from + r.runs - 1}`,
    `  agents after the fork: ${r.agents.join(', ')}`,
    r.original ? `  the original ended after ${r.original.rounds} rounds (${r.original.reason.replace(/_/g, ' ')})` : '  the original has not ended',
    '',
    'Seats (95 % intervals: Wilson for win rate and survival, bootstrap for the means)',
  ];
  const rows = r.seats.map((s) => [
    seatLabel(s.player_id),
    s.agent,
    s.original ? `${ordinal(s.original.placement)}, ${s.original.lives} ${s.original.lives === 1 ? 'life' : 'lives'}${s.original.alive ? '' : ', out'}` : '–',
    s.placements.join('/'),
    range(s.mean_placement, (x) => num(x, 2)),
    range(s.win_rate, (x) => pct(x, 0)),
    range(s.survival, (x) => pct(x, 0)),
    range(s.mean_lives, (x) => num(x, 2)),
  ]);
  lines.push(...table([['seat', 'agent', 'original', 'places 1st/2nd/…', 'mean place', 'win rate', 'survived', 'lives'], ...rows], 3).map((l) => `  ${l}`));
  lines.push('', 'Eliminations (who went out, by whose last blow; share with its 95 % Wilson interval)');
  if (r.eliminations.length === 0) lines.push('  none, in the original or any run');
  else {
    const erows = r.eliminations.map((e) => [seatLabel(e.player_id), e.by ? seatLabel(e.by) : 'no one', `${e.runs}/${r.runs}`, range(e.share, (x) => pct(x, 0)), e.in_original ? 'yes' : 'no']);
    lines.push(...table([['out', 'by', 'runs', 'share', 'in original'], ...erows], 2).map((l) => `  ${l}`));
  }
  return `${lines.join('\n')}\n`;
}
