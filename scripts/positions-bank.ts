// Regenerates a shipped position bank byte for byte (npm run positions:bank: positions/bank-v2.jsonl;
// `-- --bank v1`: positions/bank-v1.jsonl): plays a round-robin tournament of the built-in
// personalities in a fresh in-memory store (logical clock, fixed tournament id and seed: the same
// games every time), then mines it with `positions extract`'s code and fixed options.
// docs/research.md ("Positions") says how and why. `--count` only prints how many decisions are
// eligible (for choosing EVERY); `--out FILE` writes elsewhere (to compare a regeneration with the
// shipped file: `cmp`).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { exportGame } from '../src/research/export-game.js';
import { extractPositions, type ExtractOptions } from '../src/research/position-extract.js';
import { logicalInputClock } from '../src/runner/input-clock.js';
import { openStore } from '../src/store/index.js';
import { createTournament } from '../src/tournament/create.js';
import { runTournament } from '../src/tournament/runner.js';

const ENTRANTS = ['random', 'balanced', 'aggressor', 'turtle', 'manipulator', 'trickster'];
const here = (name: string) => join(import.meta.dirname, '..', 'positions', name);

/** The banks' recipes. Changing any of one is a new bank: a new file and version. */
export const BANKS = {
  v1: {
    file: here('bank-v1.jsonl'),
    tournament_id: 'trn_positions_v1',
    tournament: { format: 'round-robin', entrants: ENTRANTS, seats: 4, seeds: 1, seed: 2026, max_games: 24, compact: false },
    extract: { every: 14, limit: 200, worlds: 16, seed: 1 },
  },
  // v2: other games than v1's (seed 2027: the rule below was chosen before these games were seen),
  // twice as many, and five times the positions, skipping the ones where the choice barely
  // matters (every move within 2 of the others). Selection reads the bank's values only, never
  // how any agent answers.
  v2: {
    file: here('bank-v2.jsonl'),
    tournament_id: 'trn_positions_v2',
    tournament: { format: 'round-robin', entrants: ENTRANTS, seats: 4, seeds: 2, seed: 2027, max_games: 48, compact: false },
    extract: { every: 5, limit: 1000, worlds: 16, seed: 1, minSpread: 2 },
  },
} as const satisfies Record<string, { file: string; tournament_id: string; tournament: Record<string, unknown>; extract: ExtractOptions }>;

const at = (flag: string): string | undefined => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const name = at('--bank') ?? 'v2';
if (!(name in BANKS)) throw new Error(`--bank: one of ${Object.keys(BANKS).join(', ')}`);
const BANK = BANKS[name as keyof typeof BANKS];

const store = await openStore({ dataDir: 'memory://' });
try {
  const created = await createTournament(store, { ...BANK.tournament, entrants: [...BANK.tournament.entrants] }, { tournament_id: BANK.tournament_id });
  if (!created.ok) throw new Error(created.message);
  const played = await runTournament(BANK.tournament_id, { store, clock: logicalInputClock, concurrency: 1, workers: 0 });
  process.stderr.write(`played ${played.done} games (${played.status})\n`);
  // Ids derive from the tournament id and the schedule: sorted, they are the same list every run.
  const ids = (await store.tournaments.games(BANK.tournament_id)).flatMap((g) => (g.game_id ? [g.game_id] : [])).sort();
  if (process.argv.includes('--count')) {
    let eligible = 0;
    for (const id of ids) eligible += (await exportGame(store, await store.getGame(id))).filter((r) => r.window === 'action' && !r.compact && r.attempt === 1).length;
    console.log(`${ids.length} games, ${eligible} eligible decisions`);
  } else {
    const file = at('--out') ?? BANK.file;
    const out = createWriteStream(file);
    const summary = await extractPositions(store, ids, BANK.extract, {
      async write(text) {
        if (!out.write(text)) await once(out, 'drain');
      },
    }, (p) => process.stderr.write(`positions: ${p.game_id} (${p.games}/${p.total}) · ${p.positions} positions\n`));
    out.end();
    await once(out, 'finish');
    process.stderr.write(`wrote ${summary.positions} positions from ${summary.games} games to ${file} (${summary.flat} too flat, ${summary.unscored} unscored)\n`);
  }
} finally {
  await store.close();
}
