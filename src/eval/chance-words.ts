/**
 * Win chances in words and numbers for people: "61 %", "Ada is ahead: 61 % to win, Bo next at
 * 22 %", "Ada 61 %, Bo 22 %, Cy 17 %". Shared by the game page, its graph and the lobby.
 */
import type { Chances } from './model.js';

/**
 * A chance as a whole percent; never "0 %" or "100 %" for what is not certain (a seat still in
 * with a sliver reads "<1 %").
 *
 * @example pct(0.613) // "61 %"; pct(0.003) // "<1 %"; pct(1) // "100 %"
 */
export function pct(p: number): string {
  const n = Math.round(p * 100);
  if (n === 0 && p > 0) return '<1 %';
  if (n === 100 && p < 1) return '>99 %';
  return `${n} %`;
}

/** The seats by chance, highest first (table order among equals). */
export function ranked(p: Chances): [string, number][] {
  return Object.entries(p).sort((a, b) => b[1] - a[1]);
}

/**
 * Who the model has ahead, or null on a tie at the top (two seats showing the same percent: no
 * leader is invented) or with no seat at all.
 */
export function chanceLeader(p: Chances): { player_id: string; p: number } | null {
  const [top, next] = ranked(p);
  if (!top || (next && pct(next[1]) === pct(top[1]))) return null;
  return { player_id: top[0], p: top[1] };
}

/**
 * Who is ahead and by how much: "Ada is ahead: 61 % to win, Bo next at 22 %"; "Ada and Bo are
 * level at 40 % each"; "Ada is ahead: 100 % to win" when no one else is left.
 *
 * @example chanceWords({ plr_1: 0.61, plr_2: 0.22, plr_3: 0.17 }, (id) => names.get(id) ?? 'a seat')
 */
export function chanceWords(p: Chances, name: (id: string) => string): string {
  const order = ranked(p);
  const [top, next] = order;
  if (!top) return 'no seat in play yet';
  if (!next || next[1] === 0) return `${name(top[0])} is ahead: ${pct(top[1])} to win`;
  if (pct(next[1]) === pct(top[1])) {
    const level = order.filter(([, x]) => pct(x) === pct(top[1])).map(([id]) => name(id));
    return `${level.slice(0, -1).join(', ')} and ${level.at(-1)!} are level at ${pct(top[1])} each`;
  }
  return `${name(top[0])} is ahead: ${pct(top[1])} to win, ${name(next[0])} next at ${pct(next[1])}`;
}

/**
 * An ended game's result from its last point: "Ada won", "Ada and Bo share the win".
 *
 * @example wonWords({ plr_1: 1, plr_2: 0 }, name) // "Ada won"
 */
export function wonWords(p: Chances, name: (id: string) => string): string {
  const top = ranked(p).filter(([, x]) => x > 0);
  if (top.length === 0) return 'the game is over';
  if (top.length === 1) return `${name(top[0]![0])} won`;
  return `${top.slice(0, -1).map(([id]) => name(id)).join(', ')} and ${name(top.at(-1)![0])} share the win`;
}

/**
 * Every seat's chance, highest first: the graph's text alternative.
 *
 * @example chanceList({ plr_1: 0.61, plr_2: 0.39 }, name) // "Ada 61 %, Bo 39 %"
 */
export function chanceList(p: Chances, name: (id: string) => string): string {
  return ranked(p)
    .map(([id, x]) => `${name(id)} ${pct(x)}`)
    .join(', ');
}
