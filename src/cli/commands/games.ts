import { parseArgs } from 'node:util';
import type { EventStore, GameRecord } from '../../store/index.js';
import { int, table } from '../format.js';
import { parseFlags } from '../flags.js';
import { EXIT, UsageError } from '../io.js';
import { storedSeatSummaries } from '../../runner/seat-summary.js';
import { formatSeatSummaries } from '../seat-summary-format.js';
import { forkCell, forksAmong, forksOfGame, formatLineage, type ForkOf } from '../lineage-format.js';
import { storeLocation, withStore } from '../store-session.js';
import type { Command } from './command.js';

/** One line of `games --json`. */
type GameLine = {
  game_id: string;
  seed: number;
  agents: string[];
  status: string;
  rounds: number;
  last_seq: number;
  created_at: string;
  /** Why its runner last failed (the reason a `failed` game stopped); null when none did. */
  failure_reason: string | null;
  /** Where a fork came from (its parent, fork point and round, same deck or reseed); null for a game that is no fork. */
  fork: ForkOf | null;
};

/** Every stored game, newest first, with the round its log reached (one grouped query per page). */
async function allGames(store: EventStore): Promise<GameLine[]> {
  const out: GameLine[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listGames({}, { limit: 500, ...(cursor ? { cursor } : {}) });
    const rounds = await store.prisma.event.groupBy({
      by: ['gameId'],
      where: { gameId: { in: page.games.map((g) => g.game_id) } },
      _max: { turn: true },
    });
    // A compacted game's rounds: the turn its last segment ends on.
    const cold = await store.prisma.coldSegment.groupBy({
      by: ['gameId'],
      where: { gameId: { in: page.games.map((g) => g.game_id) } },
      _max: { lastTurn: true },
    });
    const forks = await forksAmong(store, page.games);
    const roundOf = new Map([
      ...cold.map((r): [string, number] => [r.gameId, r._max.lastTurn ?? 0]),
      ...rounds.map((r): [string, number] => [r.gameId, r._max.turn ?? 0]),
    ]);
    out.push(
      ...page.games.map((g: GameRecord) => ({
        game_id: g.game_id,
        seed: g.seed,
        agents: [...g.seats].sort((a, b) => a.seat - b.seat).map((s) => s.agent),
        status: g.status,
        rounds: roundOf.get(g.game_id) ?? 0,
        last_seq: g.last_seq,
        created_at: g.created_at,
        failure_reason: g.failure_reason,
        fork: forks.get(g.game_id) ?? null,
      })),
    );
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return out;
}

export const gamesCommand: Command = {
  name: 'games',
  summary: 'list the stored games',
  usage: `Usage: tiltyard games [<game id>] [--json]

Lists the games in the store, newest first: id, seed, agents by seat, status (created, running,
ended, aborted, failed), rounds reached, the last seq of the log, when the game was created and,
when any game is a fork, what it forks ("game_ab12 at round 4 (seq 160) · reseed 7", the reseed
being its secret: like every seed here, shown because this reads the store as an admin would;
"· same deck" for a fork that kept its parent's deck); then why each failed game failed (its
runner failed 3 times in a row; it is not resumed).

  --json             print one JSON array of {game_id, seed, agents, status, rounds, last_seq,
                     created_at, failure_reason, fork: {parent_game_id, seq, round, same_deck,
                     reseed?} | null}

With a game id: that game's row, its lineage (the game a fork branched from, and the game's own
forks, the first 50, with their fork point, agents and outcome), then each seat's health —
decisions answered first time, repaired, fell back (by reason), provider calls by outcome,
tokens, cost, call latency p50/p95 (docs/providers.md, "Seat health"); --json prints {game_id,
seed, agents, status, last_seq, failure_reason, fork, forks, fork_count, seats}.
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
    if (positionals.length > 1) throw new UsageError(`games takes at most one game id, got ${positionals.length} arguments`);
    const one = positionals[0];
    if (one !== undefined)
      return withStore(io, async (store) => {
        const g = await store.getGame(one);
        // Showing a game vouches for it: one whose stored log fails its seals is an error, not a row.
        await store.checkSeals(one);
        const seats = await storedSeatSummaries(store, one);
        const fork = (await forksAmong(store, [g])).get(g.game_id) ?? null;
        const { forks, fork_count } = await forksOfGame(store, g.game_id);
        const row = { game_id: g.game_id, seed: g.seed, agents: g.seats.map((s) => s.agent), status: g.status, last_seq: g.last_seq, failure_reason: g.failure_reason, fork };
        if (values.json) io.out(`${JSON.stringify({ ...row, forks: forks.map(({ seats: _s, ...f }) => f), fork_count, seats })}\n`);
        else io.out(`Game ${g.game_id} · seed ${g.seed} · ${g.status} at seq ${g.last_seq} · ${row.agents.join(', ')}\n${g.failure_reason ? `  failed: ${g.failure_reason}\n` : ''}${formatLineage(fork, forks, fork_count)}${formatSeatSummaries(seats) || '  every seat answered at once (no model calls)\n'}`);
        return EXIT.ok;
      }, { quiet: values.json === true });
    return withStore(io, async (store) => {
      const games = await allGames(store);
      if (values.json) {
        io.out(`${JSON.stringify(games)}\n`);
        return EXIT.ok;
      }
      if (games.length === 0) {
        io.out(`No games stored yet (${storeLocation()}). Store one with: tiltyard run --seed 1\n`);
        return EXIT.ok;
      }
      const rows = games.map((g) => [
        g.game_id,
        String(g.seed),
        g.agents.join(','),
        g.status,
        int(g.rounds),
        int(g.last_seq),
        g.created_at.replace('T', ' ').slice(0, 19),
      ]);
      // The "fork of" column only where there are forks: most stores have none.
      const anyFork = games.some((g) => g.fork);
      const head = ['game', 'seed', 'agents', 'status', 'rounds', 'last seq', 'created (UTC)'];
      const base = table([head, ...rows], 4);
      // Left-aligned after the table (table() right-aligns every column past the fourth).
      const width = Math.max(...base.map((l) => l.length));
      const cells = ['fork of', ...games.map((g) => forkCell(g.fork))];
      const lines = anyFork ? base.map((l, i) => `${l.padEnd(width)}  ${cells[i]!}`.trimEnd()) : base;
      const failures = games.filter((g) => g.status === 'failed').map((g) => `${g.game_id} failed: ${g.failure_reason ?? 'no reason recorded'}\n`);
      io.out(`${lines.join('\n')}\n${int(games.length)} games · ${storeLocation()}\n${failures.join('')}`);
      return EXIT.ok;
    }, { quiet: values.json === true });
  },
};
