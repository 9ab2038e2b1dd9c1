import { parseAgentSpec, seatVersion } from '../agents/seat/agent-spec.js';
import { clonePlain } from '../game/clone.js';
import { freshSeed } from '../lib/fresh-seed.js';
import { InvalidInputError, type ActionRecord, type ActionRow, type EventStore, type GameRecord, type SeatRecord } from '../store/index.js';
import { newGameId } from '../runner/persistent-runner.js';
import { configOf, readDecisions, readLog, seatAgentNames } from '../runner/stored-game.js';
import { describeAt, forkPoint, type ForkAt } from './fork-point.js';
import { planFork, type ParentGame } from './fork-replay.js';

/**
 * What to fork: where, with whom (default: the parent's agents), and what it draws after the fork
 * point: by default from a fresh secret (a CSPRNG's), from `reseed` when given (a chosen secret,
 * for reproducible research), or the parent's very deck and PRNG with `sameDeck` (exact replays).
 */
export type ForkRequest = {
  at: ForkAt;
  agents?: readonly string[];
  reseed?: number;
  sameDeck?: boolean;
  gameId?: string;
  /** Server options (pace, spectators…) to store beside the lineage. */
  options?: Record<string, unknown>;
};

/**
 * Why a game that has not ended cannot be forked: a fork deals from its parent's seed (shown with
 * the fork once the fork ends) and shows researchers its whole prefix then, so a fork of a game
 * still in play (or failed, or aborted: their seeds stay hidden) would tell its hidden cards.
 */
export const parentNotEnded = (parent: Pick<GameRecord, 'game_id' | 'status'>): string =>
  `game ${parent.game_id} is ${parent.status}, not ended: a fork deals from its seed and shows its log whole once the fork ends, which would tell the parent's hidden cards; fork it once it has ended`;

/** A stored game read whole, as planFork takes it. */
export async function readParent(store: EventStore, game: GameRecord): Promise<ParentGame> {
  const [log, decisions] = await Promise.all([readLog(store, game.game_id), readDecisions(store, game.game_id)]);
  return { game_id: game.game_id, seed: game.seed, config: configOf(game), log, decisions };
}

/** The fork's agents: the parent's unless given, one per seat, each a spec this build can run. */
function forkAgents(parent: GameRecord, agents: readonly string[] | undefined): string[] {
  const own = seatAgentNames(parent);
  if (!agents) return own;
  if (agents.length !== own.length) throw new InvalidInputError(`the game has ${own.length} seats, --agents names ${agents.length}`);
  for (const a of agents) {
    const r = parseAgentSpec(a);
    if (!r.ok) throw new InvalidInputError(r.message);
  }
  return [...agents];
}

/** A stored decision row as the fork records it again (the raw answer and its verdict as they were). */
const asRecord = (r: ActionRow): ActionRecord => ({
  seq_before: r.seq_before,
  player_id: r.player_id,
  attempt: r.attempt,
  turn: r.turn,
  phase: r.phase,
  window: r.window,
  raw: r.raw === null ? undefined : (JSON.parse(r.raw) as unknown),
  validated: r.validated === null ? null : (JSON.parse(r.validated) as unknown),
  accepted: r.accepted,
  rejection_code: r.rejection_code,
  ts: r.ts,
});

/**
 * Forks a stored game: a new game (status running, ready for resumePersistent to play on) whose
 * log up to the first decision point at or after `at` is the parent's, re-simulated and checked
 * event by event (see planFork), then — unless `sameDeck` — the reseed of everything hidden from
 * the fork's secret; stored in one append with the parent's decisions before it and a snapshot of
 * the state after the fork point. Seats keep the parent's display names — the engine's names for
 * them — whatever agent now sits there. The lineage (the secret with it) goes to `options.fork`.
 *
 * @example const fork = await forkGame(store, 'game_ab12', { at: { round: 3 }, reseed: 7 })
 */
export async function forkGame(store: EventStore, parentId: string, request: ForkRequest): Promise<GameRecord> {
  if (request.sameDeck && request.reseed !== undefined) throw new InvalidInputError('a fork keeps the same deck or reseeds it, not both (--same-deck, --reseed)');
  const parent = await store.getGame(parentId);
  if (parent.status !== 'ended') throw new InvalidInputError(parentNotEnded(parent));
  const agents = forkAgents(parent, request.agents);
  const game = await readParent(store, parent);
  const seq = forkPoint(request.at, game.log, game.decisions);
  if (seq === null) throw new InvalidInputError(`game ${parentId} records no decision at or after ${describeAt(request.at)}`);
  const forkId = request.gameId ?? newGameId();
  const plan = planFork(game, forkId, seq, request.sameDeck ? undefined : (request.reseed ?? freshSeed()));
  const byPlayer = new Map(parent.seats.map((s) => [s.player_id, s]));
  const seats: SeatRecord[] = agents.map((agent, i) => {
    const name = byPlayer.get(`plr_${i + 1}`)?.display_name;
    return { seat: i, player_id: `plr_${i + 1}`, agent, ...(name ? { display_name: name } : {}), ...seatVersion(agent) };
  });
  await store.createGame({ seed: parent.seed, config: plan.config, seats, options: { ...request.options, fork: plan.lineage } });
  const actions = (await store.readActions(parentId)).filter((a) => a.seq_before < seq).map(asRecord);
  await store.appendGame(forkId, { events: plan.events, actions, snapshots: [clonePlain(plan.state)] });
  return store.getGame(forkId);
}
