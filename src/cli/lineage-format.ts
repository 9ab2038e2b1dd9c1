import { keepsParentDeck, lineageIn, reseedOf } from '../research/fork-lineage.js';
import { forkPointRounds } from '../research/fork-rounds.js';
import { MAX_FORKS_LISTED, type EventStore, type GameRecord } from '../store/index.js';
import { branchPoint, drawsPhrase, forkAgents, forkOutcome, type ForkSummary } from '../view/lineage.js';

/**
 * Where a fork came from, as `games --json` gives it: the parent, the fork point and its round,
 * whether it kept the parent's deck, and its reseed (the secret: the CLI reads the store, so it
 * sees what an admin does — as it sees every game's seed).
 */
export type ForkOf = { parent_game_id: string; seq: number; round: number | null; same_deck: boolean; reseed?: number };

/** The lineage of each fork among `games`, by game id, with the round of its fork point. */
export async function forksAmong(store: EventStore, games: readonly GameRecord[]): Promise<Map<string, ForkOf>> {
  const forks = games.flatMap((g) => {
    const fork = lineageIn(g);
    return fork ? [{ game_id: g.game_id, fork }] : [];
  });
  const rounds = await forkPointRounds(store, forks);
  return new Map(
    forks.map(({ game_id, fork }) => {
      const reseed = reseedOf(fork);
      return [game_id, { parent_game_id: fork.parent_game_id, seq: fork.seq, round: rounds.get(game_id) ?? null, same_deck: keepsParentDeck(fork), ...(reseed !== undefined ? { reseed } : {}) }];
    }),
  );
}

/** The listing's "fork of" cell: "game_ab12 at round 4 (seq 160) · reseed 7", or "… · same deck". */
export const forkCell = (f: ForkOf | null | undefined): string =>
  f ? `${f.parent_game_id} at ${branchPoint(f.seq, f.round)}${f.same_deck ? ' · same deck' : ''}${f.reseed !== undefined ? ` · reseed ${f.reseed}` : ''}` : '';

/** A game's forks as `games <id>` shows them: the first MAX_FORKS_LISTED, oldest first, and how many there are. */
export async function forksOfGame(store: EventStore, gameId: string): Promise<{ forks: Array<ForkSummary & { agents: string[] }>; fork_count: number }> {
  const page = await store.forksOf(gameId, { limit: MAX_FORKS_LISTED });
  const lineage = await forksAmong(store, page.forks);
  const forks = page.forks.flatMap((g) => {
    const f = lineage.get(g.game_id);
    if (!f) return [];
    const seats = [...g.seats].sort((a, b) => a.seat - b.seat);
    return [{ game_id: g.game_id, seq: f.seq, round: f.round, same_deck: f.same_deck, ...(f.reseed !== undefined ? { reseed: f.reseed } : {}), status: g.status, agents: seats.map((s) => s.agent), seats, placements: g.placements }];
  });
  return { forks, fork_count: page.total };
}

/**
 * The lineage lines of `games <id>`: where a fork branched from, then the game's own forks, one a
 * line ("game_f1 at round 4 (seq 160), new draws (reseed 7) · balanced, turtle · turtle won").
 */
export function formatLineage(fork: ForkOf | null, forks: readonly ForkSummary[], count: number): string {
  const lines: string[] = [];
  if (fork) lines.push(`  fork of ${fork.parent_game_id} at ${branchPoint(fork.seq, fork.round)}, ${drawsPhrase(fork)}\n`);
  if (count > 0) lines.push(`  ${count} fork${count === 1 ? '' : 's'}${count > forks.length ? ` (the first ${forks.length})` : ''}:\n`);
  for (const f of forks) lines.push(`    ${f.game_id} at ${branchPoint(f.seq, f.round)}, ${drawsPhrase(f)} · ${forkAgents(f)} · ${forkOutcome(f)}\n`);
  return lines.join('');
}
