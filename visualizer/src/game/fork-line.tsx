import { branchPoint, drawsPhrase } from '../../../src/view/index.js';
import type { GameRecordView } from './history.js';

/** The lineage a fork records in its options (see docs/research.md, "Fork"); `secret` only to whom may see it. */
type Lineage = { parent_game_id: string; seq: number; secret?: number; reseed?: number };

function lineageOf(game: GameRecordView): Lineage | null {
  const f = game.options['fork'] as Partial<Lineage> | undefined;
  return f && typeof f.parent_game_id === 'string' && typeof f.seq === 'number' ? (f as Lineage) : null;
}

/**
 * "Forked from <parent> at round R (seq N), with new draws": a fork's branch point, linked to the
 * parent at that position (the round and the draws from GET /games/:id's `parent`, which says
 * whether the deck was kept even while the reseed is secret; a replay file has the seq only).
 */
export function ForkLine({ game }: { game: GameRecordView }) {
  const fork = lineageOf(game);
  if (!fork) return null;
  const parent = game.parent?.game_id === fork.parent_game_id ? game.parent : null;
  const draws = parent ?? (fork.secret !== undefined ? { same_deck: false, reseed: fork.secret } : { reseed: fork.reseed });
  const round = parent?.round ?? null;
  return (
    <p class="muted fork-line" data-testid="fork-line">
      Forked from{' '}
      <a href={`/watch/games/${encodeURIComponent(fork.parent_game_id)}?seq=${fork.seq}`} data-testid="fork-parent">
        {fork.parent_game_id}
      </a>{' '}
      at {branchPoint(fork.seq, round)}, with {drawsPhrase(draws)}; events up to there are the parent's.
    </p>
  );
}
