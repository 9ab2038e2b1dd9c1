import { parseArgs } from 'node:util';
import { verifyReport, type RunReport } from '../../runner/verify-game.js';
import { int } from '../format.js';
import { gameIdArg, parseFlags } from '../flags.js';
import { EXIT } from '../io.js';
import { writeReport } from '../report-file.js';
import { liveLine } from '../progress.js';
import { withStore } from '../store-session.js';
import type { Command } from './command.js';

function formatReport(r: RunReport): string {
  const passed = r.assertions.filter((a) => a.status === 'pass').length;
  return (
    [
      `verify ${r.game_id}: ${passed}/${r.assertions.length} assertions pass · ${int(r.events_checked)} events checked`,
      ...r.assertions.map((a) => `  ${a.status === 'pass' ? '✓' : '✗'} ${a.name} — ${a.details}`),
      `report: ${r.artifacts_path}`,
    ].join('\n') + '\n'
  );
}

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check a stored game: hash chain, seqs, snapshots, and re-simulation from its seed',
  usage: `Usage: tiltyard verify <gameId> [--json]

Checks a stored game without calling any agent, writes a RunReport to .reports/<timestamp>.json
and prints it. Assertions:
  hash chain intact                      every event links to its predecessor's hash
  seq contiguous from 1                  no gap, and the log ends at the game's recorded head
  snapshots equal the fold of the events each snapshot's state hash is the fold of the events before it
  re-simulation reproduces the log       the engine, fed the seed and the recorded decisions,
                                         emits the stored log byte for byte
Exit code 0 only when every assertion passes.

  --json             print the RunReport as one JSON object
`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(() =>
      parseArgs({
        args: [...argv],
        options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
        strict: true,
        allowPositionals: true,
      }),
    );
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    const gameId = gameIdArg(positionals)!;
    return withStore(io, async (store) => {
      const line = values.json ? null : liveLine(io, `verify ${gameId}`);
      const report = writeReport(
        await verifyReport(store, gameId, (stage) => line?.set(`verify ${gameId}: ${stage}`)).finally(() => line?.end()),
      );
      io.out(values.json ? `${JSON.stringify(report)}\n` : formatReport(report));
      const failed = report.assertions.filter((a) => a.status === 'fail').map((a) => a.name);
      if (failed.length === 0) return EXIT.ok;
      io.err(`tiltyard: ${gameId} fails verification: ${failed.join(', ')}\n`);
      return EXIT.failure;
    }, { quiet: values.json === true });
  },
};
