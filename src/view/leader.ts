/**
 * Who is ahead at a position, from public counters only (lives, then resolve, of the seats still
 * in): the game page's "Ada leads" line and the lobby's "leads:" column. Every view holds these
 * counters, so the answer never depends on hidden data.
 */

/** The public counters a standing is read from (a WorldState player has them all). */
export type Standing = { player_id: string; alive: boolean; lives: number; resolve: number };

/**
 * `leads`: one seat alone on top, and what puts it there (`by` lives, else resolve, with both
 * counts against the runner-up's, null when it is the only seat left). `level`: a tie at the top
 * (`all` when every seat still in is level). Null while no seat is in the game.
 */
export type Leader =
  | { kind: 'leads'; player_id: string; by: 'lives' | 'resolve'; own: number; next: number | null }
  | { kind: 'level'; player_ids: string[]; all: boolean };

/**
 * The leader among the living seats: most lives, then most resolve; a tie at the top is level
 * (no leader is invented).
 *
 * @example leader([{ player_id: 'plr_1', alive: true, lives: 2, resolve: 9 }, { player_id: 'plr_2', alive: true, lives: 1, resolve: 12 }])
 * // { kind: 'leads', player_id: 'plr_1', by: 'lives', own: 2, next: 1 }
 */
export function leader(players: readonly Standing[]): Leader | null {
  const alive = players
    .filter((p) => p.alive)
    .sort((a, b) => b.lives - a.lives || b.resolve - a.resolve);
  const [top, second] = alive;
  if (!top) return null;
  if (!second)
    return { kind: 'leads', player_id: top.player_id, by: 'lives', own: top.lives, next: null };
  const tied = alive.filter((p) => p.lives === top.lives && p.resolve === top.resolve);
  if (tied.length > 1)
    return {
      kind: 'level',
      player_ids: tied.map((p) => p.player_id),
      all: tied.length === alive.length,
    };
  return second.lives < top.lives
    ? { kind: 'leads', player_id: top.player_id, by: 'lives', own: top.lives, next: second.lives }
    : {
        kind: 'leads',
        player_id: top.player_id,
        by: 'resolve',
        own: top.resolve,
        next: second.resolve,
      };
}

const lives = (n: number): string => `${n} ${n === 1 ? 'life' : 'lives'}`;

/**
 * A leader in words, seats by their names: "Ada leads, 2 lives to 1", "Ada leads on resolve, 14
 * to 12", "Ada is the last seat standing", "level" (everyone still in is even), "level at the
 * top: Ada and Bo". Null gives "no seat in play yet".
 *
 * @example leaderWords(leader(view.world.players), (id) => names.get(id) ?? 'a seat') // "Ada leads, 2 lives to 1"
 */
export function leaderWords(l: Leader | null, name: (id: string) => string): string {
  if (!l) return 'no seat in play yet';
  if (l.kind === 'level')
    return l.all ? 'level' : `level at the top: ${joinNames(l.player_ids.map(name))}`;
  const who = name(l.player_id);
  if (l.next === null) return `${who} is the last seat standing`;
  return l.by === 'lives'
    ? `${who} leads, ${lives(l.own)} to ${l.next}`
    : `${who} leads on resolve, ${l.own} to ${l.next}`;
}

const joinNames = (xs: readonly string[]): string =>
  xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)!}`;
