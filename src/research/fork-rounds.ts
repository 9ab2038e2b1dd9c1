import type { EventStore } from '../store/index.js';
import type { ForkLineage } from './fork-lineage.js';

type Fork = { game_id: string; fork: Pick<ForkLineage, 'parent_game_id' | 'seq'> };

/**
 * The round each fork branched in: the turn of the event at its fork point, keyed by the fork's
 * game id. The prefix is the parent's, so it is read from the parent once per (parent, seq) — a
 * counterfactual's hundred forks of one point cost one row — in one query while the parents are
 * hot, then from cold storage or, should the parent be gone, from the fork's own prefix. A fork
 * whose event is nowhere is left out (callers then say the seq alone).
 *
 * @example (await forkPointRounds(store, [{ game_id: 'game_f1', fork }])).get('game_f1') // 4
 */
export async function forkPointRounds(store: EventStore, forks: readonly Fork[]): Promise<Map<string, number>> {
  const key = (gameId: string, seq: number) => `${gameId}|${seq}`;
  const points = new Map(forks.map((f) => [key(f.fork.parent_game_id, f.fork.seq), { game_id: f.fork.parent_game_id, seq: f.fork.seq }]));
  const turns = new Map<string, number>();
  if (points.size > 0) {
    const hot = await store.prisma.event.findMany({ where: { OR: [...points.values()].map((p) => ({ gameId: p.game_id, seq: p.seq })) }, select: { gameId: true, seq: true, turn: true } });
    for (const e of hot) turns.set(key(e.gameId, e.seq), e.turn);
  }
  const turnAt = async (gameId: string, seq: number): Promise<number | undefined> => (await store.read(gameId, seq - 1, 1).catch(() => []))[0]?.turn;
  const out = new Map<string, number>();
  for (const f of forks) {
    const k = key(f.fork.parent_game_id, f.fork.seq);
    if (!turns.has(k)) {
      const turn = (await turnAt(f.fork.parent_game_id, f.fork.seq)) ?? (await turnAt(f.game_id, f.fork.seq));
      if (turn !== undefined) turns.set(k, turn);
    }
    const turn = turns.get(k);
    if (turn !== undefined) out.set(f.game_id, turn);
  }
  return out;
}
