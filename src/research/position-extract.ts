import { ConfigError } from '../game/index.js';
import { DivergenceError } from '../runner/runner-errors.js';
import type { EventStore } from '../store/index.js';
import { exportGame } from './export-game.js';
import type { ExportRecord } from './export-record.js';
import type { ExportSink } from './export-stream.js';
import { answerKey } from './position-options.js';
import { POSITION_VERSION, PositionRecord } from './position-record.js';
import { scorePosition, type ScoringOptions } from './position-score.js';

export type ExtractOptions = ScoringOptions & {
  /** Keep every K-th eligible decision (1: all), counted across the games in order. */
  every: number;
  /** Stop after this many positions. */
  limit?: number;
  /**
   * Keep a position only when its best and worst moves' values differ by at least this much
   * (default 0: all). Where every move is worth about the same, no answer can be told from another,
   * so such a position only adds noise to a comparison of agents. It reads the values alone, never
   * an agent's answer.
   */
  minSpread?: number;
  /**
   * Eligible decisions counted before these games (default 0), so a run over the later games of a
   * list samples the same decisions as one run over the whole list would: a long mining can be
   * split across processes and the parts concatenated.
   */
  offset?: number;
};

export type ExtractSummary = {
  games: number;
  positions: number;
  /** Eligible decisions sampled but not kept: no world could be played, or a single move. */
  unscored: number;
  /** Scored decisions not kept: their moves' values spread less than `minSpread`. */
  flat: number;
  failed: Array<{ game_id: string; reason: string }>;
};

export type ExtractProgress = { game_id: string; games: number; total: number; positions: number };

/**
 * A decision the bank keeps: an action window of a game with full windows (the expert searches
 * compact windows too, but a compact answer carries two actions and talk, which the bank's move
 * keys do not name), the first answer to its request (a reprompt's request carries the rejection,
 * and the expert answers it with its balanced core).
 */
const eligible = (r: ExportRecord): boolean => r.window === 'action' && !r.compact && r.attempt === 1;

function positionOf(r: ExportRecord, o: ScoringOptions): PositionRecord | null {
  const scored = scorePosition(r.request, o);
  if (!scored) return null;
  const played = r.answered ? answerKey(r.request, r.decision) : null;
  return PositionRecord.parse({
    position_version: POSITION_VERSION,
    position_id: `${r.game_id}:${r.seq}`,
    game_id: r.game_id,
    seed: r.seed,
    rules_version: r.rules_version,
    seq: r.seq,
    turn: r.turn,
    player_id: r.player_id,
    seat: r.seat,
    agent: r.agent,
    window: 'action',
    request: r.request,
    options: scored.options,
    best: scored.best,
    played: played !== null && scored.options.some((x) => x.key === played) ? played : null,
    // Which worlds were kept is only written when some were dropped (all kept: banks read alike either way).
    scoring: { worlds: scored.worlds, kept: scored.kept, horizon: scored.horizon, seed: o.seed, ...(scored.kept < scored.worlds ? { kept_worlds: scored.kept_worlds } : {}) },
  });
}

/** How much the choice matters at a position: the best move's value − the worst's. */
export const spread = (p: PositionRecord): number => {
  const values = p.options.map((o) => o.value);
  return Math.max(...values) - Math.min(...values);
};

/**
 * Mines a position bank from stored games, a game at a time (memory flat in the number of games):
 * each game's decisions are rebuilt from the store alone (exportGame: the request exactly as the
 * seat got it), every K-th eligible one is scored (scorePosition) and, unless its moves' values
 * spread less than `minSpread`, written to `sink` as one
 * JSONL line. A game that does not replay is skipped and named in the summary. The same games and
 * options give the same bytes.
 *
 * @example await extractPositions(store, ids, { every: 5, limit: 200, worlds: 16, seed: 1 }, sink)
 */
export async function extractPositions(store: EventStore, gameIds: readonly string[], o: ExtractOptions, sink: ExportSink, onProgress?: (p: ExtractProgress) => void): Promise<ExtractSummary> {
  const summary: ExtractSummary = { games: 0, positions: 0, unscored: 0, flat: 0, failed: [] };
  let seen = o.offset ?? 0;
  for (const [i, id] of gameIds.entries()) {
    if (o.limit !== undefined && summary.positions >= o.limit) break;
    let records: ExportRecord[];
    try {
      records = await exportGame(store, await store.getGame(id));
    } catch (e) {
      // As in export: a game that does not replay is skipped; the store failing fails the run.
      if (!(e instanceof DivergenceError || e instanceof ConfigError)) throw e;
      summary.failed.push({ game_id: id, reason: e.message });
      continue;
    }
    for (const r of records) {
      if (o.limit !== undefined && summary.positions >= o.limit) break;
      if (!eligible(r) || seen++ % o.every !== 0) continue;
      const p = positionOf(r, o);
      if (!p) {
        summary.unscored++;
        continue;
      }
      if (spread(p) < (o.minSpread ?? 0)) {
        summary.flat++;
        continue;
      }
      await sink.write(`${JSON.stringify(p)}\n`);
      summary.positions++;
    }
    summary.games++;
    onProgress?.({ game_id: id, games: i + 1, total: gameIds.length, positions: summary.positions });
  }
  return summary;
}
