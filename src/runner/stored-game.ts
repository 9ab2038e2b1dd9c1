import { parseAgentSpec } from '../agents/seat/agent-spec.js';
import { pinnedConfig, type GameConfigInput } from '../game/index.js';
import type { GameEvent } from '../protocol/index.js';
import type { ActionRow, EventStore, GameRecord } from '../store/index.js';
import type { RecordedDecision } from './decision-record.js';
import { RunnerError } from './runner-errors.js';

const PAGE = 1000;

/** A game's whole log, in seq order. */
export async function readLog(store: EventStore, gameId: string): Promise<GameEvent[]> {
  const out: GameEvent[] = [];
  for (;;) {
    const page = await store.read(gameId, out.length === 0 ? 0 : out[out.length - 1]!.seq, PAGE);
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

/**
 * A game's recorded decisions in the order they were made (seq_before, then attempt), hot or
 * compacted. `raw` arrives as text so that "sent nothing" (SQL NULL) and "sent null" (JSON null)
 * stay apart, and ts in exactly the form it was recorded in.
 */
export async function readDecisions(
  store: EventStore,
  gameId: string,
): Promise<RecordedDecision[]> {
  return (await store.readActions(gameId)).map(recordedDecision);
}

/** An actions row as replay reads it (see readDecisions). */
export const recordedDecision = (r: ActionRow): RecordedDecision => ({
  seq_before: Number(r.seq_before),
  player_id: r.player_id,
  attempt: Number(r.attempt),
  window: r.window,
  raw: r.raw === null ? undefined : (JSON.parse(r.raw) as unknown),
  ts: r.ts,
});

/** The agent name of each seat, by seat index; a game whose seats do not say is not runnable. */
export function seatAgentNames(game: GameRecord): string[] {
  const seats = [...game.seats].sort((a, b) => a.seat - b.seat);
  if (seats.length === 0)
    throw new RunnerError(`game ${game.game_id} records no agents for its seats`);
  return seats.map((s, i) => {
    if (s.seat !== i)
      throw new RunnerError(`game ${game.game_id} has no agent recorded for seat ${i}`);
    const agent = parseAgentSpec(s.agent);
    if (!agent.ok)
      throw new RunnerError(`game ${game.game_id} seats agent "${s.agent}", which is not available here: ${agent.message}`);
    return s.agent;
  });
}

/** The configuration a stored game was created with, as initialState takes it. */
export const configOf = (game: GameRecord): GameConfigInput => pinnedConfig(game.config, game.rules_version);
