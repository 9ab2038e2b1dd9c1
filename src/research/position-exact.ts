import { scoreInWorld } from '../agents/builtin/expert/rollout.js';
import type { GameState } from '../game/index.js';
import type { TurnPlanRequest } from '../protocol/index.js';
import type { PositionRecord } from './position-record.js';
import { positionWorlds, round4, scorePosition, WORLD_CAP } from './position-score.js';

const PASS = { selected_action: { kind: 'pass' }, attack_plan: null };

/**
 * The worlds a position's values average over. A bank written before `kept_worlds` was recorded
 * kept them all when `kept` equals `worlds` (every shipped v1 position); otherwise the position is
 * scored again to find them (the same seeds give the same worlds), which costs what mining it did.
 */
function keptWorlds(p: PositionRecord): ReadonlySet<number> {
  const s = p.scoring;
  if (s.kept_worlds) return new Set(s.kept_worlds);
  if (s.kept === s.worlds) return new Set(Array.from({ length: s.worlds }, (_, i) => i));
  return new Set(scorePosition(p.request, { worlds: s.worlds, seed: s.seed })?.kept_worlds ?? []);
}

/** One answer's score in one world: the engine refusing it there (or a world it breaks) scores the pass it would force. */
function inWorld(world: GameState, r: TurnPlanRequest, answer: unknown, rollSeed: string, horizon: number): number {
  try {
    const [v] = scoreInWorld(world, r, [answer], rollSeed, horizon, WORLD_CAP, { steps: 0 });
    if (v !== null && v !== undefined) return v;
  } catch {
    // Falls through to the pass: the bank scored the pass in this world, so it plays.
  }
  return scoreInWorld(world, r, [PASS], rollSeed, horizon, WORLD_CAP, { steps: 0 })[0] ?? Number.NaN;
}

/**
 * The value of an agent's exact answer — its card, target and kinetic intent and also its framing
 * (emotional intent, manipulation plan, channel, named seat, chosen emotion) — in the very worlds
 * and with the very rollout seeds the bank scored the position's options with (common random
 * numbers: the answer and the options differ only by the answer). So an answer identical to the
 * bank's play of a move gets exactly that move's value, and regret against `best` measures the
 * answer, not the move it is nearest to. Null when no kept world could be rebuilt (a bank from
 * another engine) and the caller falls back to the move's pre-scored value. Deterministic.
 *
 * @example scoreAnswer(position, moveDecision(position.request, move)) // === that move's option value
 */
export function scoreAnswer(p: PositionRecord, answer: unknown): number | null {
  const kept = keptWorlds(p);
  let total = 0;
  let n = 0;
  for (const { index, world, rollSeed } of positionWorlds(p.request, p.scoring)) {
    if (!kept.has(index) || !world) continue;
    total += inWorld(world, p.request, answer, rollSeed, p.scoring.horizon);
    n++;
  }
  // The bank's values divide by the same count in the same order: the sums round alike.
  return n === kept.size && n > 0 && Number.isFinite(total) ? round4(total / n) : null;
}
