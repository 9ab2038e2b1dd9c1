import { parseArgs } from 'node:util';
import { viewState, worldView, type StateView } from '../../game/index.js';
import { RunnerError } from '../../runner/runner-errors.js';
import { SeqOutOfRangeError, StoreError } from '../../store/index.js';
import { gameIdArg, parseFlags, seqFlag, viewerFlag } from '../flags.js';
import { EXIT, UsageError } from '../io.js';
import { formatStateView } from '../state-format.js';
import { liveLine } from '../progress.js';
import { withStore } from '../store-session.js';
import { entitledSummaries, storedSeatSummaries } from '../../runner/seat-summary.js';
import { formatSeatSummaries } from '../seat-summary-format.js';
import type { Command } from './command.js';

export const replayCommand: Command = {
  name: 'replay',
  summary: 'show a stored game at any point, as a given viewer sees it',
  usage: `Usage: tiltyard replay <gameId> [--at SEQ] [--view spectator|researcher|admin|plr_N] [--json]

Rebuilds the game state right after event SEQ (from the nearest snapshot plus the events after
it) and shows it through the same projection agents and spectators get: a seat sees its own hand
and plans only; spectators the public table; researchers everything once the game is over; admins
everything, raw engine state included.

  --at SEQ           the point to show (default: the last stored event; 0 = before the start)
  --view V           spectator (default), researcher, admin, or a seat's player id (plr_1, …)
  --json             print {game_id, seq, viewer, world, private[, raw], seats} as one JSON object
                     (seats: each seat's health for admin and researcher, a seat's own for plr_N,
                     none for spectators; docs/providers.md "Seat health")
`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(() =>
      parseArgs({
        args: [...argv],
        options: {
          at: { type: 'string' },
          view: { type: 'string' },
          json: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
        strict: true,
        allowPositionals: true,
      }),
    );
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    const gameId = gameIdArg(positionals)!;
    const at = seqFlag(values.at);
    const viewer = viewerFlag(values.view);
    return withStore(io, async (store) => {
      const game = await store.getGame(gameId);
      if (viewer.role === 'seat' && !game.seats.some((s) => s.player_id === viewer.player_id)) {
        throw new UsageError(
          `--view: ${viewer.player_id} is not a seat of ${gameId} (seats: ${game.seats.map((s) => s.player_id).join(', ')})`,
        );
      }
      const line = values.json ? null : liveLine(io, `replay ${gameId}: rebuilding the state at seq ${at ?? game.last_seq}`);
      const state = await store.stateAt(gameId, at).finally(() => line?.end()).catch((e: unknown) => {
        if (e instanceof SeqOutOfRangeError)
          throw new UsageError(`--at: ${gameId} has seqs 0–${e.lastSeq}, got ${at}`);
        if (e instanceof StoreError) throw e;
        // The engine folding a row it cannot read: name the game, not the engine's internals.
        throw new RunnerError(
          `${gameId}: the stored rows do not rebuild a state at seq ${at ?? game.last_seq} (a corrupt row?): ${(e as Error).message.split('\n')[0]}`,
          { cause: e },
        );
      });
      // Before the deal a seat has no private state yet: the table is all there is to see.
      const dealt =
        viewer.role !== 'seat' || state.players.some((p) => p.player_id === viewer.player_id);
      const view: StateView = dealt
        ? viewState(state, viewer)
        : { world: worldView(state, viewer), private: [] };
      const name = viewer.role === 'seat' ? viewer.player_id : viewer.role;
      const seats = entitledSummaries(await storedSeatSummaries(store, gameId), viewer);
      if (values.json)
        io.out(`${JSON.stringify({ game_id: gameId, seq: state.seq, viewer: name, ...view, seats })}\n`);
      else io.out(`${formatStateView(view, { seq: state.seq, lastSeq: game.last_seq, viewer: name })}${formatSeatSummaries(seats)}`);
      return EXIT.ok;
    }, { quiet: values.json === true });
  },
};
