import { viewEvent, viewState, type Viewer } from '../game/index.js';
import { winCurve } from '../eval/curve.js';
import { winReport, type WinReport } from '../eval/win-report.js';
import type { GameEvent } from '../protocol/index.js';
import { readLog } from '../runner/stored-game.js';
import type { EventStore } from '../store/index.js';

/**
 * A stored game's win-probability curve as `viewer` may know it, in the REST shape, with the
 * viewer's projected events it was folded from (for naming what caused a swing). The CLI reads
 * the store whole: no delay applies, the projection and the model (formFor) do.
 *
 * @example (await storedCurve(store, 'game_ab12', { role: 'researcher' })).report.points.length
 */
export async function storedCurve(store: EventStore, gameId: string, viewer: Viewer): Promise<{ report: WinReport; events: GameEvent[] }> {
  const game = await store.getGame(gameId);
  const gameOver = game.status === 'ended';
  const events = (await readLog(store, gameId)).map((e) => viewEvent(e, viewer, gameOver));
  const base = viewState(await store.stateAt(gameId, 0), viewer, gameOver);
  const view = viewer.role === 'seat' ? viewer.player_id : viewer.role;
  return { report: winReport(gameId, view, game.last_seq, winCurve({ seq: 0, view: base }, events, viewer, gameOver, { changesOnly: true })), events };
}
