import { performance } from 'node:perf_hooks';
import type { TournamentEvent } from '../tournament/runner-events.js';
import type { CliIo } from './io.js';
import { formatStandings } from './standings-format.js';

const WIDTH = 30;
const REDRAW_MS = 200;

/**
 * What a running tournament shows on stderr: on a terminal, a progress bar over a standings table
 * redrawn in place as games finish (throttled); with `progress`, one `tournament <id> …` line per
 * event for supervisors and logs (the crash test kills the process right after such a line).
 * Nothing otherwise.
 */
export function tournamentDisplay(io: CliIo, options: { live: boolean; progress: boolean }, now = () => performance.now()): { onEvent: (e: TournamentEvent) => void; end: () => void } {
  const live = options.live && io.errIsTTY;
  let drawnLines = 0;
  let last = -Infinity;
  let table = '';
  const draw = (done: number, scheduled: number, failed: number, force: boolean) => {
    const t = now();
    if (!force && t - last < REDRAW_MS) return;
    last = t;
    const filled = scheduled ? Math.round((done / scheduled) * WIDTH) : 0;
    const bar = `tournament [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done}/${scheduled} games${failed ? `, ${failed} failed` : ''}`;
    const text = `${bar}\n${table}`;
    io.err(`${drawnLines ? `\x1b[${drawnLines}A\r` : ''}\x1b[J${text}`);
    drawnLines = text.split('\n').length - 1;
  };
  return {
    onEvent(e) {
      if (options.progress) {
        if (e.type === 'tournament_started') io.err(`tournament ${e.tournament_id} started (${e.done} games done)\n`);
        else if (e.type === 'game_ended') io.err(`tournament ${e.tournament_id} game ${e.game_id} ${e.key} ${e.error ? 'failed' : 'ended'} (${e.done + e.failed} done)\n`);
        else io.err(`tournament ${e.tournament_id} ${e.status} (${e.done} of ${e.planned} planned games played${e.failed ? `, ${e.failed} failed` : ''}${e.stopped ? `, ${e.stopped} stopped` : ''})\n`);
      }
      if (!live) return;
      if (e.type !== 'tournament_started' && e.standings) table = formatStandings(e.standings);
      if (e.type === 'game_ended') draw(e.done + e.failed, Math.max(e.scheduled, e.done + e.failed), e.failed, false);
      if (e.type === 'tournament_ended') draw(e.done + e.failed, e.done + e.failed, e.failed, true);
    },
    end() {
      // The final table goes to stdout: clear the live one so it is not shown twice.
      if (drawnLines) io.err(`\x1b[${drawnLines}A\r\x1b[J`);
    },
  };
}
