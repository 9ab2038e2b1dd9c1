import { determinize } from '../agents/builtin/expert/determinize.js';
import type { SeatAgent, SeatContext } from '../agents/seat/types.js';
import { answerInPlace } from '../game/index.js';
import { Rng, seedRng } from '../game/rng.js';
import type { TurnPlanRequest } from '../protocol/index.js';
import { answerKey } from './position-options.js';
import type { PositionRecord } from './position-record.js';

/** What one agent did at one position. */
export type PositionResult = {
  position_id: string;
  /** The agent sent an answer (false: it failed, timed out, or sent nothing). */
  answered: boolean;
  /** The engine would accept the answer as the seat's action. */
  legal: boolean;
  /** The move the answer makes (null when it names none). */
  key: string | null;
  /** The engine's rejection code, or the agent's failure code. */
  problem: string | null;
  /** Best value − the value of the move made; a failed or illegal answer counts as the pass the engine forces. */
  regret: number;
  /** A legal answer making the expert's best move. */
  agrees: boolean;
};

/**
 * Whether the engine accepts `answer` as the seat's action: it is played on a world sampled from
 * the request alone (determinize), which holds the seat's own hand, tempo, arena and targets
 * exactly, all that legality reads. The engine's rejection code when it refuses; a world that
 * cannot be built falls back to the move being one of the position's.
 */
function rejectionOf(r: TurnPlanRequest, answer: unknown, moves: ReadonlySet<string>, key: string | null): string | null {
  try {
    const world = determinize(r, new Rng(seedRng(`positions:legal:${r.request_id}`)), `positions:legal:${r.request_id}`);
    const res = answerInPlace(world, r.player_id, 'action', answer);
    if (!res.ok) return res.rejection.code;
    const rejected = res.events.find((e) => e.type === 'action_rejected');
    if (!rejected) return null;
    const code = (rejected.payload as { code?: unknown }).code;
    return typeof code === 'string' ? code : 'action/rejected';
  } catch {
    return key !== null && moves.has(key) ? null : 'action/unknown_move';
  }
}

/** Scores one answer against a position (pure: no agent is called). */
export function judgeAnswer(p: PositionRecord, answer: unknown, failure: string | null = null): PositionResult {
  const values = new Map(p.options.map((o) => [o.key, o.value]));
  const best = values.get(p.best)!;
  const forced = values.get('pass') ?? Math.min(...values.values());
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  if (answer === undefined) return { position_id: p.position_id, answered: false, legal: false, key: null, problem: failure ?? 'agent/no_answer', regret: round(best - forced), agrees: false };
  const key = answerKey(p.request, answer);
  const problem = rejectionOf(p.request, answer, new Set(values.keys()), key);
  const value = problem === null && key !== null ? values.get(key) : undefined;
  // A legal answer the bank has no move for would be a bank bug; it is scored as the forced pass, visibly.
  const legal = problem === null;
  return {
    position_id: p.position_id,
    answered: true,
    legal,
    key,
    problem: problem ?? (value === undefined ? 'positions/unscored_move' : null),
    regret: round(best - (value ?? forced)),
    agrees: legal && key === p.best,
  };
}

/** Makes the seat that answers one position (a fresh one each: no memory carries over). */
export type SeatFactory = (ctx: SeatContext) => SeatAgent;

/**
 * Asks a fresh seat of the agent for one position through the normal agent call path (the same
 * SeatAgent a game would use: built-ins in process, skills as sandboxed processes, llm: seats
 * through their provider chain), exactly one decision, and judges its answer. The seat sits where
 * the position's seat sat (its game seed and seat index), so built-ins and llm:mock answer the same
 * on every run.
 */
export async function askPosition(p: PositionRecord, seatOf: SeatFactory, workRoot?: string): Promise<PositionResult> {
  const seat = seatOf({ gameSeed: p.seed, seat: p.seat, trace: true, ...(workRoot ? { workRoot } : {}) });
  try {
    // The request is copied: an agent may write into what it is given.
    const answer = await seat.decide(structuredClone(p.request));
    return judgeAnswer(p, answer.decision, answer.trace?.failure?.code ?? null);
  } finally {
    await seat.close();
  }
}
