import type { RunOutcome } from '../runner/persistent-runner.js';
import type { EventStore } from '../store/index.js';
import { int, table } from './format.js';
import { storeLocation } from './store-session.js';

/** What `run --json` prints (and `resume --json`, one per game). */
export const outcomeJson = (o: RunOutcome) => ({
  gameId: o.gameId,
  events: o.lastSeq,
  placements: o.placements,
  status: o.status,
  ...(o.fromSeq > 0 ? { resumedFrom: o.fromSeq } : {}),
});

/** P3 for plr_3: how transcripts name seats. */
export const seatLabel = (playerId: string): string => `P${playerId.replace(/^plr_/, '')}`;

/** A few readable lines on a persistent run: the game, how it ended, its placements, what next. */
export async function formatOutcome(
  store: EventStore,
  o: RunOutcome,
  wallMs: number,
): Promise<string> {
  const game = await store.getGame(o.gameId);
  const agentOf = new Map(game.seats.map((s) => [s.player_id, s.agent]));
  const [last] = o.lastSeq > 0 ? await store.read(o.gameId, o.lastSeq - 1, 1) : [];
  const lines = [
    `Game ${o.gameId} · seed ${game.seed} · ${game.seats.length} seats (${game.seats.map((s) => s.agent).join(', ')})`,
    `  stored in ${storeLocation()}`,
  ];
  const resumed = o.fromSeq > 0 ? `resumed at seq ${o.fromSeq}, ` : '';
  const took = `${int(o.appended)} events stored in ${(wallMs / 1000).toFixed(2)} s`;
  if (o.status === 'superseded') {
    lines.push(
      `  ${resumed}stopped at seq ${o.lastSeq}: another runner is writing this game · ${took}`,
    );
  } else if (last?.type === 'game_ended' && o.appended === 0 && o.fromSeq === o.lastSeq) {
    // Nothing was left to play: say so, not "resumed … 0 events stored".
    const p = last.payload;
    lines.push(
      `  already ended after ${p.rounds} rounds (${p.reason.replace(/_/g, ' ')}) at seq ${o.lastSeq}: nothing to resume`,
    );
  } else if (last?.type === 'game_ended') {
    const p = last.payload;
    lines.push(
      `  ${resumed}ended after ${p.rounds} rounds (${p.reason.replace(/_/g, ' ')}) at seq ${o.lastSeq} · ${took}`,
    );
  } else {
    lines.push(`  ${resumed}at seq ${o.lastSeq} · ${took}`);
  }
  if (o.placements) {
    const rows = o.placements.map((x) => [
      String(x.placement),
      seatLabel(x.player_id),
      agentOf.get(x.player_id) ?? '?',
      String(x.lives),
      String(x.resolve),
      x.alive ? 'alive' : `out in round ${x.eliminated_turn ?? '?'}`,
    ]);
    lines.push(
      'Placements',
      ...table([['#', 'seat', 'agent', 'lives', 'resolve', ''], ...rows], 3).map((l) => `  ${l}`),
    );
  }
  lines.push(
    `Replay it: tiltyard replay ${o.gameId} --view spectator · check it: tiltyard verify ${o.gameId}`,
  );
  return lines.join('\n') + '\n';
}
