import type { Agent } from '../agents/agent.js';
import { initialState, requestFor, type GameState } from '../game/index.js';
import type { EventStore, GameRecord } from '../store/index.js';
import { asDecision, sameDecision } from './decision-record.js';
import { buildAgents } from './lineup.js';
import { replayDecisions } from './replay-decisions.js';
import { DivergenceError, RunnerError } from './runner-errors.js';
import { configOf, readDecisions, readLog, seatAgentNames } from './stored-game.js';

/** A stored game brought back to life: its live state at the head and its agents, caught up. */
export type CaughtUp = {
  state: GameState;
  agents: Agent[];
  /** The ts of the last recorded input (null before the start): what the clock continues from. */
  lastTs: string | null;
};

/** The agent sitting in `seat` (a player id) of a started game. */
export function agentAt(agents: readonly Agent[], state: GameState, seat: string): Agent {
  const index = state.players.find((p) => p.player_id === seat)?.seat ?? -1;
  const agent = agents[index];
  if (!agent) throw new RunnerError(`game ${state.game_id}: no agent for ${seat}`);
  return agent;
}

/**
 * Rebuilds a stored game for its runner to continue: the engine state at the head of the log, and
 * fresh agents in the very state the crashed runner's agents were in. Built-in agents keep PRNG
 * streams, so each is asked again at every decision it made, in order, and its answer must equal
 * the recorded one; the engine, fed the recorded decisions, must emit exactly the stored events.
 * Anything else is a DivergenceError. Only what the head covered when this started is used, so a
 * rival runner appending meanwhile shows up later as a conflict, not as a divergence.
 */
export async function catchUp(store: EventStore, game: GameRecord): Promise<CaughtUp> {
  const agents = buildAgents(seatAgentNames(game), game.seed);
  const state = initialState(configOf(game), game.seed);
  const head = await store.lastSeq(game.game_id);
  const log = (await readLog(store, game.game_id)).filter((e) => e.seq <= head);
  if (log.length === 0) return { state, agents, lastTs: null };
  const decisions = (await readDecisions(store, game.game_id)).filter((d) => d.seq_before < head);
  const events = replayDecisions(state, log[0]!.ts, decisions, (s, seat, window, recorded) => {
    const agent = agentAt(agents, s, seat);
    const fresh = asDecision(agent.decide(requestFor(s, seat)));
    if (!sameDecision(fresh, asDecision(recorded.raw))) {
      throw new DivergenceError(
        game.game_id,
        s.seq,
        `${seat}'s agent (${agent.name}) answers its ${window} differently than recorded`,
      );
    }
  });
  for (let i = 0; i < Math.max(events.length, log.length); i++) {
    const [mine, stored] = [events[i], log[i]];
    if (!mine || !stored || JSON.stringify(mine) !== JSON.stringify(stored)) {
      throw new DivergenceError(
        game.game_id,
        i + 1,
        mine && stored
          ? 'the recorded decisions replay to another event than the log holds'
          : `the recorded decisions replay to ${events.length} events, the log holds ${log.length}`,
      );
    }
  }
  return { state, agents, lastTs: decisions[decisions.length - 1]?.ts ?? log[0]!.ts };
}
