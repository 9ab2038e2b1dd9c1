import { getJson } from '../lib/api.js';

/**
 * Saves the game as a replay file for `view`. The server builds it from the caller's own
 * projection (`GET /games/:id/replay`: the same roles, spectator delay and holds as /events), so
 * the file never holds more than this page may see, whatever the page has loaded.
 *
 * @example await exportReplay('game_ab12', 'spectator') // downloads game_ab12.spectator.tiltyard-replay.json
 */
export async function exportReplay(gameId: string, view: string): Promise<void> {
  const file = await getJson<unknown>(`/games/${encodeURIComponent(gameId)}/replay?view=${encodeURIComponent(view)}`);
  const url = URL.createObjectURL(new Blob([JSON.stringify(file)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${gameId}.${view}.tiltyard-replay.json`;
  document.body.append(a);
  a.click();
  a.remove();
  // The click has handed the blob to the download by the next task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
