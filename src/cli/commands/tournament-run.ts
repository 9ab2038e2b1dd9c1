import { performance } from 'node:perf_hooks';
import type { EventStore } from '../../store/index.js';
import { runTournament } from '../../tournament/runner.js';
import { EXIT, type CliIo } from '../io.js';
import { formatStandings } from '../standings-format.js';
import { tournamentDisplay } from '../tournament-live.js';

export const RESUME_USAGE = `Usage: tiltyard tournament resume <id> [--concurrency C] [--progress] [--json]

Continues a tournament whose run was killed or interrupted: finishes the batch it was playing
(games stored whole are played again from their seed, games stored step by step continue from
their last step), then goes on. The final standings equal an uninterrupted run's.
`;

/**
 * Runs (or resumes) a stored tournament with the live display, then prints the result. Ctrl-C
 * stops it cleanly after the games in flight reach a step boundary (resume it later).
 */
export async function runAndReport(io: CliIo, store: EventStore, id: string, options: { concurrency: number; json: boolean; progress: boolean }): Promise<number> {
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once('SIGINT', onSigint);
  const display = tournamentDisplay(io, { live: !options.json, progress: options.progress });
  const started = performance.now();
  try {
    const out = await runTournament(id, { store, concurrency: options.concurrency, signal: stop.signal, onEvent: display.onEvent });
    display.end();
    const t = await store.tournaments.get(id);
    const format = String(t.config['format']);
    if (options.json) io.out(`${JSON.stringify({ tournament_id: id, format, status: out.status, games: out.done, failed: out.failed, standings: out.standings })}\n`);
    else {
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      io.out(`Tournament ${id} (${format}, ${(t.config['entrants'] as unknown[]).length} entrants, ${String(t.config['seats'])} seats): ${out.status}, ${out.done} games${out.failed ? `, ${out.failed} failed` : ''} (${secs} s this run)\n\n${formatStandings(out.standings)}`);
    }
    if (out.status === 'stopped') {
      io.err(`tiltyard: tournament ${id} stopped before its end; continue it with \`tiltyard tournament resume ${id}\`\n`);
      return EXIT.failure;
    }
    return EXIT.ok;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
