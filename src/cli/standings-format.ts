import type { Standing } from '../tournament/types.js';
import { num, pct, table } from './format.js';

const interval = (ci: Standing['win_rate'], f: (x: number) => string): string => (ci ? `${f(ci.value)} [${f(ci.low)}–${f(ci.high)}]` : '–');
/** WPA per decision is a fraction of a percentage point: shown in pp to 2 places, signed. */
const pp = (x: number): string => `${x < 0 ? '−' : '+'}${Math.abs(Math.round(x * 1e4) / 100).toFixed(2)}`;

/**
 * A standings table: rank, agent, the rating μ (the ranking key) with its 95 % interval, σ, games,
 * wins, and the 95 % intervals of the win rate and the mean placement, then (when computed) the
 * mean WPA per decision in percentage points with its interval. Rows stored by a release
 * that ranked by openskill's ordinal have no rating interval and show "–" there.
 */
export function formatStandings(standings: readonly Standing[]): string {
  const wpa = standings.some((s) => s.wpa !== undefined);
  const rows = [
    ['#', 'agent', 'rating [95% CI]', 'σ', 'games', 'wins', 'win rate [95% CI]', 'mean place [95% CI]', ...(wpa ? ['WPA/decision, pp [95% CI]'] : [])],
    ...standings.map((s, i) => [
      String(i + 1),
      s.agent,
      s.rating_ci ? interval(s.rating_ci, (x) => num(x)) : num(s.mu),
      num(s.sigma),
      String(s.games),
      String(s.wins),
      interval(s.win_rate, (x) => pct(x, 0)),
      interval(s.placement_ci, (x) => num(x)),
      ...(wpa ? [interval(s.wpa ?? null, pp)] : []),
    ]),
  ];
  return `${table(rows, 2).join('\n')}\n`;
}

const CSV_COLUMNS = ['rank', 'agent', 'mu', 'sigma', 'rating_low', 'rating_high', 'games', 'wins', 'mean_placement', 'win_rate', 'win_rate_low', 'win_rate_high', 'placement', 'placement_low', 'placement_high', 'wpa', 'wpa_low', 'wpa_high', 'wpa_decisions'] as const;

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
const field = (v: string | number | null): string => {
  const s = v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** The standings as CSV (RFC 4180, header line first, full precision). */
export function standingsCsv(standings: readonly Standing[]): string {
  const lines = standings.map((s, i) =>
    [i + 1, s.agent, s.mu, s.sigma, s.rating_ci?.low ?? null, s.rating_ci?.high ?? null, s.games, s.wins, s.mean_placement, s.win_rate?.value ?? null, s.win_rate?.low ?? null, s.win_rate?.high ?? null, s.placement_ci?.value ?? null, s.placement_ci?.low ?? null, s.placement_ci?.high ?? null, s.wpa?.value ?? null, s.wpa?.low ?? null, s.wpa?.high ?? null, s.wpa_decisions ?? null].map(field).join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}
