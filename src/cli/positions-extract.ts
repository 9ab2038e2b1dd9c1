import { parseArgs } from 'node:util';
import { z } from 'zod';
import { selectGames } from '../research/export-stream.js';
import { extractPositions } from '../research/position-extract.js';
import { DEFAULT_WORLDS } from '../research/position-score.js';
import { GameStatus } from '../store/index.js';
import { int } from './format.js';
import { parseFlags } from './flags.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { wholeFlag } from './research-flags.js';
import { fileSink, stdoutSink } from './sinks.js';
import { withStore } from './store-session.js';

export const EXTRACT_USAGE = `Usage: tiltyard positions extract [--tournament <id> | --games id,id,…] [--status S] [--agent A]
                                 [--out FILE] [--limit N] [--every K] [--seed S] [--worlds W]
                                 [--min-spread X]

Mines decision points from stored games into a position bank (JSONL, one position a line; its JSON
Schema: docs/schemas/position-record.schema.json): the request exactly as the seat's agent got it
(its own view only), its game, seq and seat, and every legal move scored by the expert's rollout
value, with the best one. Only action windows of games with full windows are mined (where the
expert searches), first answers only. Each game is replayed from the store (no agent is called)
and must reproduce its log; games are read one at a time, oldest first.

  --tournament <id>  that tournament's games
  --games id,…       these games, in this order
  --status S         only games in status S (${GameStatus.options.join(', ')})
  --agent A          only games with a seat of agent A
                     Without any of these: every stored game.
  --out FILE         write to FILE instead of stdout
  --limit N          stop after N positions
  --every K          keep every K-th eligible decision, counted across the games (default 1: all)
  --seed S           the rollouts' seed (default 1): the same games and flags give the same bytes
  --worlds W         hidden worlds sampled per position (default ${DEFAULT_WORLDS}); each costs one rollout a move
  --min-spread X     keep only positions whose best and worst moves' values differ by X or more
                     (default 0: all); where every move is worth about the same, no agent can be
                     told from another. Reads the values only, never an agent's answer

Progress on stderr: one line per game. Exit codes: 0 done; 1 a game could not be replayed (it is
skipped and named) or the store failed; 2 bad usage.
`;

/** `--min-spread`: a value spread, in the expert's value units (a decimal ≥ 0). */
const MinSpread = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, { error: (issue) => `must be a number ≥ 0, got "${String(issue.input)}"` })
  .transform(Number);

/** `tiltyard positions extract …`: see EXTRACT_USAGE. */
export async function runExtract(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(() =>
    parseArgs({
      args: [...argv],
      options: {
        tournament: { type: 'string' },
        games: { type: 'string' },
        status: { type: 'string' },
        agent: { type: 'string' },
        out: { type: 'string' },
        limit: { type: 'string' },
        every: { type: 'string' },
        seed: { type: 'string' },
        worlds: { type: 'string' },
        'min-spread': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }),
  );
  if (values.help) {
    io.out(EXTRACT_USAGE);
    return EXIT.ok;
  }
  if (values.tournament !== undefined && values.games !== undefined) throw new UsageError('--tournament and --games: give one or the other');
  const status = values.status === undefined ? undefined : GameStatus.safeParse(values.status);
  if (status && !status.success) throw new UsageError(`--status: must be one of ${GameStatus.options.join(', ')}, got "${values.status}"`);
  const games = values.games?.split(',').map((g) => g.trim()).filter(Boolean);
  if (games?.length === 0) throw new UsageError('--games: name at least one game id');
  const limit = wholeFlag('limit', values.limit, 1);
  const spread = values['min-spread'] === undefined ? undefined : MinSpread.safeParse(values['min-spread']);
  if (spread && !spread.success) throw new UsageError(`--min-spread: ${spread.error.issues[0]!.message}`);
  const options = {
    every: wholeFlag('every', values.every, 1) ?? 1,
    seed: wholeFlag('seed', values.seed) ?? 1,
    worlds: wholeFlag('worlds', values.worlds, 1) ?? DEFAULT_WORLDS,
    ...(limit !== undefined ? { limit } : {}),
    ...(spread?.success ? { minSpread: spread.data } : {}),
  };
  return withStore(io, async (store) => {
    if (values.tournament !== undefined) await store.tournaments.get(values.tournament);
    const ids = games ?? (await selectGames(store, {
      ...(values.tournament !== undefined ? { tournament_id: values.tournament } : {}),
      ...(status?.success ? { status: status.data } : {}),
      ...(values.agent !== undefined ? { agent: values.agent } : {}),
    }));
    const file = values.out !== undefined ? await fileSink(values.out) : null;
    const summary = await extractPositions(store, ids, options, file?.sink ?? stdoutSink(io), (p) =>
      io.err(`positions: ${p.game_id} (${p.games}/${p.total}) · ${int(p.positions)} positions\n`),
    ).finally(() => file?.close());
    for (const g of summary.failed) io.err(`tiltyard: skipped ${g.game_id}: ${g.reason}\n`);
    const unscored = `${summary.unscored ? `; ${summary.unscored} decisions could not be scored` : ''}${summary.flat ? `; ${summary.flat} too flat (--min-spread)` : ''}`;
    io.err(`extracted ${int(summary.positions)} positions from ${int(summary.games)} games${values.out !== undefined ? ` to ${values.out}` : ''}${unscored}${summary.failed.length ? `; ${summary.failed.length} games skipped` : ''}\n`);
    return summary.failed.length ? EXIT.failure : EXIT.ok;
  });
}
