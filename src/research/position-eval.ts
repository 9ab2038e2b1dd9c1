import { determinize } from '../agents/builtin/expert/determinize.js';
import type { SeatAgent, SeatContext } from '../agents/seat/types.js';
import { answerInPlace } from '../game/index.js';
import { Rng, seedRng } from '../game/rng.js';
import type { TurnPlanRequest } from '../protocol/index.js';
import { scoreAnswer } from './position-exact.js';
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
  /**
   * Best value − the value of the exact answer (framing included, scored in the bank's worlds), ≥ 0:
   * best is the best pre-scored move's value or the answer's own if it beats them. A failed or
   * illegal answer counts as the pass the engine forces.
   */
  regret: number;
  /** Best move's value − that of the move made as the bank plays it (its fixed framing): the v1 regret. */
  move_regret: number;
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

/** How an answer is valued at a position: null when it cannot be (the move's pre-scored value is used). */
export type AnswerScorer = (p: PositionRecord, answer: unknown) => number | null;

/**
 * Scores one answer against a position (pure: no agent is called). A legal answer is valued exactly
 * by `score` (scoreAnswer: rollouts in the bank's worlds, ≈ 0.1 CPU s); the bank's best move is the
 * yardstick, or the answer itself when it does better than every pre-scored move.
 */
export function judgeAnswer(p: PositionRecord, answer: unknown, failure: string | null = null, score: AnswerScorer = scoreAnswer): PositionResult {
  const values = new Map(p.options.map((o) => [o.key, o.value]));
  const best = values.get(p.best)!;
  const forced = values.get('pass') ?? Math.min(...values.values());
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  const missed = round(best - forced);
  if (answer === undefined) return { position_id: p.position_id, answered: false, legal: false, key: null, problem: failure ?? 'agent/no_answer', regret: missed, move_regret: missed, agrees: false };
  const key = answerKey(p.request, answer);
  const problem = rejectionOf(p.request, answer, new Set(values.keys()), key);
  const legal = problem === null;
  const moveValue = legal && key !== null ? values.get(key) : undefined;
  const exact = legal ? score(p, answer) : null;
  // A legal answer that can be valued neither way would be a bank bug; it is scored as the forced pass, visibly.
  const value = exact ?? moveValue ?? forced;
  return {
    position_id: p.position_id,
    answered: true,
    legal,
    key,
    problem: problem ?? (exact === null && moveValue === undefined ? 'positions/unscored_move' : null),
    regret: round(Math.max(best, value) - value),
    move_regret: round(best - (moveValue ?? forced)),
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
