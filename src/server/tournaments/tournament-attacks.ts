import { viewEvent } from '../../game/index.js';
import { readLog } from '../../runner/stored-game.js';
import type { EventStore, TournamentGameRecord, TournamentRecord } from '../../store/index.js';
import { attackMatrix, attackRows, type AttackCell, type AttackRow } from '../../tournament/attacks.js';
import { delayed, type Role } from '../auth/roles.js';
import type { CommitLog } from '../../live/commit-log.js';
import { foldableBy, pastDelay } from './delayed-games.js';

/** GET /tournaments/:id/attacks: the who-manipulated-whom matrix with the attempts behind each cell. */
export type TournamentAttacksView = {
  tournament_id: string;
  status: TournamentRecord['status'];
  /** The ended games folded (for an anonymous caller: those whose spectator delay has passed). */
  games_counted: number;
  cells: AttackCell[];
};

/**
 * The manipulation attempts of a tournament's ended games, for any caller. Each game's log is
 * projected for a spectator of the ended game first, so the matrix can hold nothing an anonymous
 * page may not see (the attempts are public once resolved; the projection makes sure of it).
 * Running games are left out (their attempts are on the live socket), and for a delayed caller
 * so is a game whose end is still inside its spectator delay; for anyone but an admin, so is a
 * game whose duplicate set is still being played (foldableBy). Ended games never change, so each
 * one's rows are read once per process (`cache`).
 *
 * @example await attacksOf(store, t, 'spectator', Date.now(), bus.commits, new Map())
 */
export async function attacksOf(store: EventStore, t: TournamentRecord, role: Role, now: number, commits: CommitLog, cache: Map<string, AttackRow[]>): Promise<TournamentAttacksView> {
  const ended = await foldableBy(store, (await store.tournaments.games(t.tournament_id)).filter((g) => g.state === 'ended'), role);
  const rows: AttackRow[] = [];
  let counted = 0;
  for (const g of ended) {
    if (delayed(role) && !(await pastDelay(store, g, now, commits))) continue;
    counted++;
    rows.push(...(await rowsOf(store, g, cache)));
  }
  return { tournament_id: t.tournament_id, status: t.status, games_counted: counted, cells: attackMatrix(rows) };
}

async function rowsOf(store: EventStore, g: TournamentGameRecord, cache: Map<string, AttackRow[]>): Promise<AttackRow[]> {
  const hit = cache.get(g.game_id);
  if (hit) return hit;
  const events = (await readLog(store, g.game_id)).map((e) => viewEvent(e, { role: 'spectator' }, true));
  const rows = attackRows(g.game_id, events, g.seats);
  cache.set(g.game_id, rows);
  return rows;
}
