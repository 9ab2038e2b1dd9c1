import type { SimulationSpec } from '../runner/simulate.js';
import { playSeated } from '../runner/simulate.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { InputEndedError } from './terminal-form.js';
import { terminalPerson, ttyPort } from './terminal-seat.js';

/**
 * `tiltyard play` with a human seat: the person at this terminal plays it (terminal-seat.ts), the
 * other seats are the agents named; the story is told from that seat as it happens. Refused
 * (exit 2) when stdin is no terminal — a person must be there to answer — or with more than one
 * human seat, or with --json (stdout is the game's story here, not a log).
 */
export async function playAtTerminal(spec: SimulationSpec, humans: readonly string[], json: boolean, io: CliIo, stdin: NodeJS.ReadStream = process.stdin, stdout: NodeJS.WriteStream = process.stdout): Promise<number> {
  if (humans.length > 1) throw new UsageError(`--agents: one human seat per terminal, got ${humans.length} (${humans.join(', ')}); to seat several people, play on a server (tiltyard serve, POST /games)`);
  if (json) throw new UsageError('--json: a human seat plays at the terminal, whose output is the story; leave out --json (or store the game with a server and export it)');
  if (stdin.isTTY !== true) throw new UsageError(`--agents: ${humans[0]} is a human seat, played at this terminal, but stdin is not a terminal; run it in a terminal, or seat the person on a server (tiltyard serve, POST /games)`);
  const port = ttyPort(stdin, stdout);
  const person = terminalPerson(port, humans[0]!);
  port.write(`You play ${humans[0]!.replace('plr_', 'P')}. Each choice is a numbered menu; Enter takes the marked one. Ctrl-D leaves.\n`);
  try {
    await playSeated(spec, 0, { onEvents: (events) => person.story(events) }, { human: person });
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof InputEndedError)) throw e;
    io.err('tiltyard: input ended: the game was left unfinished\n');
    return EXIT.failure;
  } finally {
    port.close();
  }
}
