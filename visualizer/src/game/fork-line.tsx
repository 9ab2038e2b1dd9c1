import type { GameRecordView } from './history.js';

/** The lineage a fork records in its options (see docs/research.md, "Fork"). */
type Lineage = { parent_game_id: string; seq: number; reseed?: number };

function lineageOf(game: GameRecordView): Lineage | null {
  const f = game.options['fork'] as Partial<Lineage> | undefined;
  return f && typeof f.parent_game_id === 'string' && typeof f.seq === 'number' ? (f as Lineage) : null;
}

/** "Forked from <parent> at seq N": a fork's branch point, linked to the parent at that position. */
export function ForkLine({ game }: { game: GameRecordView }) {
  const fork = lineageOf(game);
  if (!fork) return null;
  return (
    <p class="muted fork-line" data-testid="fork-line">
      Forked from <a href={`/watch/games/${encodeURIComponent(fork.parent_game_id)}?seq=${fork.seq}`}>{fork.parent_game_id}</a> at seq {fork.seq}
      {fork.reseed !== undefined ? ` · new draws from there (reseed ${fork.reseed})` : ' · same draws'}; events up to there are the parent's.
    </p>
  );
}
