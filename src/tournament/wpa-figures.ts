import type { GameEvent } from '../protocol/index.js';
import { WINDOWS } from '../protocol/index.js';
import { gameWpa, type Ask } from '../eval/wpa.js';
import type { Interval } from './bootstrap.js';
import { groupResamples, interval } from './group-bootstrap.js';

/** The decision kinds WPA is reported by: every decision (`all`), then each window. */
export const WPA_KINDS = ['all', ...WINDOWS] as const;
export type WpaKind = (typeof WPA_KINDS)[number];

/** One game's choice WPA: per agent and kind, the summed WPA of its decisions and how many. */
export type GameWpaTally = { agent: string; kind: WpaKind; sum: number; decisions: number }[];

/** A finished game for the WPA figures: its tally and its duplicate group (or its own id). */
export type WpaGame = { group: string; tally: GameWpaTally };

/** Mean choice WPA per decision of one agent in one kind, with its 95 % interval clustered by duplicate group. */
export type WpaRow = { agent: string; kind: WpaKind; games: number; decisions: number; mean: Interval | null };

/**
 * One finished game's tally (src/eval/wpa.ts), from its full log and the agent of each seat by
 * seat index; `asks` (its stored decisions) group choice events into decisions as the engine asked.
 *
 * @example wpaTally(log, ['balanced', 'random', 'balanced', 'random'])
 */
export function wpaTally(events: readonly GameEvent[], agents: readonly string[], asks?: readonly Ask[]): GameWpaTally {
  const w = gameWpa(events, asks);
  const cells = new Map<string, GameWpaTally[number]>();
  const add = (agent: string, kind: WpaKind, x: number) => {
    const key = `${agent}\u0000${kind}`;
    const c = cells.get(key) ?? { agent, kind, sum: 0, decisions: 0 };
    c.sum += x;
    c.decisions++;
    cells.set(key, c);
  };
  for (const d of w.decisions) {
    const agent = agents[Number(d.player_id.slice(4)) - 1] ?? '?';
    add(agent, 'all', d.wpa);
    add(agent, d.window, d.wpa);
  }
  return [...cells.values()];
}

/**
 * Mean choice WPA per decision for each agent and kind (agents in the order given, kinds in
 * WPA_KINDS order; a kind an agent never decided in is left out), with percentile-bootstrap
 * intervals that resample whole duplicate groups (groupResamples: the draws the ratings use for the
 * same seed and groups), each resample's figure the ratio of its summed WPA to its decisions.
 *
 * @example wpaFigures(['balanced', 'random'], games, 0, 1000).find((r) => r.kind === 'all')
 */
export function wpaFigures(agents: readonly string[], games: readonly WpaGame[], seed: number, resamples: number): WpaRow[] {
  const rows = agents.flatMap((agent) => WPA_KINDS.map((kind) => ({ agent, kind })));
  const index = new Map(rows.map((r, i) => [`${r.agent}\u0000${r.kind}`, i]));
  // cells[g]: the rows game g adds to, with its sums.
  const cells = games.map((g) => g.tally.flatMap((c) => (index.has(`${c.agent}\u0000${c.kind}`) ? [{ row: index.get(`${c.agent}\u0000${c.kind}`)!, sum: c.sum, n: c.decisions }] : [])));
  const total = (weights: ArrayLike<number> | null) => {
    const sum = new Float64Array(rows.length);
    const n = new Float64Array(rows.length);
    cells.forEach((cs, g) => {
      const w = weights ? weights[g]! : 1;
      if (w === 0) return;
      for (const c of cs) {
        sum[c.row]! += w * c.sum;
        n[c.row]! += w * c.n;
      }
    });
    return { sum, n };
  };
  const draws = rows.map(() => [] as number[]);
  for (const weights of groupResamples(games.map((g) => g.group), seed, resamples)) {
    const { sum, n } = total(weights);
    for (let r = 0; r < rows.length; r++) if (n[r]! > 0) draws[r]!.push(sum[r]! / n[r]!);
  }
  const point = total(null);
  const played = rows.map((_, r) => cells.filter((cs) => cs.some((c) => c.row === r)).length);
  return rows.flatMap((row, r) => {
    const n = point.n[r]!;
    if (n === 0) return [];
    return [{ ...row, games: played[r]!, decisions: n, mean: interval(point.sum[r]! / n, draws[r]!) }];
  });
}
