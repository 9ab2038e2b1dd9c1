/**
 * The expert's search speed (issue 14): searched decisions per CPU second at fixed positions,
 * engine steps and rollouts (candidates × sampled worlds) per CPU second inside its search. CPU time, not wall time, so a busy machine
 * slows the figure less (it still costs cache).
 *
 *   npm run bench:expert                      # expert and expert:fast at 6 positions
 *   EXPERT_POSITIONS=3 npm run bench:expert
 *   EXPERT_SPECS=expert:deep,expert:16x EXPERT_WINDOWS=compact npm run bench:expert   # any budgets, compact positions
 */
import { expertAgent, type SearchStats } from '../src/agents/builtin/expert/expert.js';
import { parseExpertSpec } from '../src/agents/builtin/expert/levels.js';
import { createAgent } from '../src/agents/builtin/index.js';
import { awaiting, initialState, requestFor, stepInPlace, type GameState } from '../src/game/index.js';
import type { TurnPlanRequest } from '../src/protocol/index.js';

const POSITIONS = Number(process.env['EXPERT_POSITIONS'] ?? 6);
const WINDOWS = process.env['EXPERT_WINDOWS'] === 'compact' ? 'compact' : 'full';
const SPECS = (process.env['EXPERT_SPECS'] ?? 'expert:fast,expert').split(',').map((spec) => {
  const r = parseExpertSpec(spec);
  if (!r.ok) throw new Error(r.message);
  return r.options;
});

/** Balanced seats play game `seed` until plr_1 is asked for an action at `turn` or later. */
function requestAt(seed: number, turn: number): TurnPlanRequest | null {
  const state: GameState = initialState({ seats: 4, rules: { windows: WINDOWS } }, seed);
  const agents = [0, 1, 2, 3].map((i) => createAgent('balanced', seed, i));
  stepInPlace(state, { type: 'start' });
  for (let next = awaiting(state); next; next = awaiting(state)) {
    const seat = next.seats[0]!;
    if (seat === 'plr_1' && next.window === 'action' && state.turn >= turn) return requestFor(state, seat);
    const res = stepInPlace(state, { type: 'decision', player_id: seat, window: next.window, decision: agents[Number(seat.slice(4)) - 1]!.decide(requestFor(state, seat)) });
    if (!res.ok) throw new Error(res.rejection.message);
  }
  return null;
}

const requests = Array.from({ length: POSITIONS }, (_, i) => requestAt(100 + i, 2 + (i % 5))).filter((r): r is TurnPlanRequest => r !== null);
const out: Record<string, unknown> = { positions: requests.length, windows: WINDOWS };
for (const o of SPECS) {
  const seen: SearchStats[] = [];
  const c0 = process.cpuUsage();
  for (const [i, r] of requests.entries()) expertAgent(o, (s) => seen.push(s))(`bench:${i}`).decide(r);
  const c = process.cpuUsage(c0);
  const cpuS = (c.user + c.system) / 1e6;
  const steps = seen.reduce((a, s) => a + s.steps, 0);
  out[o.name] = {
    budget: o.budget,
    decisions_per_cpu_sec: Math.round((requests.length / cpuS) * 100) / 100,
    steps_per_cpu_sec: Math.round(steps / cpuS),
    mean_steps: Math.round(steps / requests.length),
    cpu_ms_per_decision: Math.round((cpuS / requests.length) * 1000),
    mean_worlds: Math.round((seen.reduce((a, s) => a + s.determinizations, 0) / requests.length) * 10) / 10,
    // Every candidate is played out in every sampled world: one rollout each.
    rollouts_per_cpu_sec: Math.round(seen.reduce((a, s) => a + s.determinizations * s.candidates, 0) / cpuS),
  };
}
console.log(JSON.stringify(out));
