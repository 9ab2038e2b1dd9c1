import { parseArgs } from 'node:util';
import { gameIdArg, parseFlags, viewerFlag } from '../flags.js';
import { EXIT, UsageError } from '../io.js';
import { storedCurve } from '../stored-curve.js';
import { withStore } from '../store-session.js';
import { formatWinProbability } from '../winprob-format.js';
import type { Command } from './command.js';

export const winprobCommand: Command = {
  name: 'winprob',
  summary: "each seat's chance to win along a stored game",
  usage: `Usage: tiltyard winprob <gameId> [--view spectator|researcher|admin|plr_N] [--json]

Each seat's chance to win after every event of a stored game (src/eval's model), as a viewer
may know it: the curve is folded from that viewer's projected events only. The table shows each
seat's chance by display name at the end of every round, then the biggest swings and the event
that made each.

  --view V           researcher (default: the omniscient model — every hand and feeling — once
                     the game is over, the public one while it runs), spectator (the public
                     model, read off the public table), admin (omniscient, live) or plr_N
  --json             print {game_id, model, view, form, last_seq, points: [{seq, round, p}]}, the
                     body GET /games/:id/win-probability answers (points where a chance moved)
`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(() =>
      parseArgs({ args: [...argv], options: { view: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true }),
    );
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    const gameId = gameIdArg(positionals)!;
    const viewer = viewerFlag(values.view ?? 'researcher');
    if (viewer.role === 'broadcast') throw new UsageError('--view: broadcast is a server view; use admin for every seat, or spectator for the public table');
    return withStore(
      io,
      async (store) => {
        const game = await store.getGame(gameId);
        if (viewer.role === 'seat' && !game.seats.some((s) => s.player_id === viewer.player_id))
          throw new UsageError(`--view: ${viewer.player_id} is not a seat of ${gameId} (seats: ${game.seats.map((s) => s.player_id).join(', ')})`);
        const { report, events } = await storedCurve(store, gameId, viewer);
        io.out(values.json ? `${JSON.stringify(report)}\n` : formatWinProbability(report, events));
        return EXIT.ok;
      },
      { quiet: values.json === true },
    );
  },
};
