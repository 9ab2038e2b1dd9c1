/**
 * The expert's budget curve (issue 42, point 1): win rate against three `balanced` per budget, with
 * 95 % Wilson intervals, and the CPU each searched decision costs; then `expert` in compact windows.
 * Game g of a budget is seed CURVE_SEED + g with the expert in seat g mod 4 (seats rotating). Every
 * game's line goes to stderr as it ends, so a long run can be read while it goes.
 *
 *   nice -n 10 npm run bench:expert-curve                          # the acceptance run (≥ 200 games; hours)
 *   CURVE_GAMES=40 CURVE_COMPACT_GAMES=40 nice -n 10 npm run bench:expert-curve   # a look
 *
 * A run cut short is summed from its lines (same JSON, from however far each budget got):
 *
 *   nice -n 10 npm run bench:expert-curve 2> curve.jsonl; npx tsx bench/expert-curve.ts --sum curve.jsonl [more.jsonl …]
 *
 * Knobs: CURVE_SEED (1), CURVE_GAMES per budget (200), CURVE_BUDGETS (expert:fast,expert,expert:2x,expert:4x,
 * expert:16x; any expert specs), CURVE_COMPACT_GAMES (CURVE_GAMES; 0 skips), CURVE_COMPACT
 * (the compact spec, expert), CURVE_TARGET_GAMES (200: the games the cost projection is for).
 *
 * CPU, not wall time: a searched decision is timed with process.cpuUsage around its decide() (the
 * process runs one game at a time, so the delta is that decision's, GC included). The projection
 * says what the full target costs on two cores: games × searched decisions a game × CPU-ms a
 * decision, plus the balanced seats' share, ÷ 2.
 */
import { readFileSync } from 'node:fs';
import { createAgent } from '../src/agents/builtin/index.js';
import { EXPERT_LEVELS, parseExpertSpec } from '../src/agents/builtin/expert/levels.js';
import { expertAgent } from '../src/agents/builtin/expert/expert.js';
import type { Agent } from '../src/agents/agent.js';
import { runGame } from '../src/runner/run-game.js';
import { wilson } from '../src/research/position-stats.js';
import type { TurnPlanRequest } from '../src/protocol/index.js';

const env = (k: string, d: number) => Number(process.env[k] ?? d);
const SEED = env('CURVE_SEED', 1);
const GAMES = env('CURVE_GAMES', 200);
const COMPACT_GAMES = env('CURVE_COMPACT_GAMES', GAMES);
const TARGET = env('CURVE_TARGET_GAMES', 200);
const BUDGETS = (process.env['CURVE_BUDGETS'] ?? 'expert:fast,expert,expert:2x,expert:4x,expert:16x').split(',');
const COMPACT = process.env['CURVE_COMPACT'] ?? 'expert';
const CORES = 2;

type Point = { wins: number; games: number; searchedMs: number[]; gameCpuMs: number };
type Windows = 'full' | 'compact';
type GameLine = { spec: string; windows: Windows; g: number; seed: number; seat: number; won: boolean; cpu_ms: number; decision_ms: number[] };

const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

/** Wraps an agent so each searched (action, first-try) decision's CPU is recorded. */
function timed(agent: Agent, into: number[]): Agent {
  return {
    name: agent.name,
    decide(r: TurnPlanRequest): unknown {
      if (r.window !== 'action' || r.constraints.reprompt) return agent.decide(r);
      const c0 = process.cpuUsage();
      const d = agent.decide(r);
      into.push(cpuMs(process.cpuUsage(c0)));
      return d;
    },
  };
}

function play(spec: string, games: number, windows: Windows): Point {
  const parsed = parseExpertSpec(spec);
  if (!parsed.ok) throw new Error(parsed.message);
  const point: Point = { wins: 0, games: 0, searchedMs: [], gameCpuMs: 0 };
  for (let g = 0; g < games; g++) {
    const seed = SEED + g;
    const mine = g % 4;
    const before = point.searchedMs.length;
    const agents = [0, 1, 2, 3].map((i) => (i === mine ? timed(expertAgent(parsed.options)(`agent:${spec}:${seed}:${i}`), point.searchedMs) : createAgent('balanced', seed, i)));
    const c0 = process.cpuUsage();
    const run = runGame({ seats: 4, rules: { windows } }, seed, agents);
    const ms = cpuMs(process.cpuUsage(c0));
    point.gameCpuMs += ms;
    const won = run.state.placements?.find((p) => p.player_id === `plr_${mine + 1}`)?.placement === 1;
    point.games++;
    if (won) point.wins++;
    const line: GameLine = { spec, windows, g, seed, seat: mine, won, cpu_ms: Math.round(ms), decision_ms: point.searchedMs.slice(before).map(Math.round) };
    process.stderr.write(`${JSON.stringify(line)}\n`);
  }
  return point;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const pct = (xs: number[], q: number) => {
  if (xs.length === 0) return null;
  const s = xs.slice().sort((a, b) => a - b);
  return r3(s[Math.min(s.length - 1, Math.floor(q * s.length))]!);
};

function summary(spec: string, windows: Windows, p: Point) {
  const searched = p.searchedMs.length;
  const meanMs = searched ? p.searchedMs.reduce((a, b) => a + b, 0) / searched : 0;
  const perGame = searched / Math.max(1, p.games);
  const gameCpuS = p.gameCpuMs / 1000 / Math.max(1, p.games);
  return {
    spec,
    windows,
    budget_steps: (parseExpertSpec(spec) as { ok: true; options: { budget: number } }).options.budget,
    games: p.games,
    wins: p.wins,
    win_rate: wilson(p.wins, p.games),
    searched_decisions: searched,
    searched_per_game: r3(perGame),
    cpu_ms_per_decision: { mean: r3(meanMs), p95: pct(p.searchedMs, 0.95), max: pct(p.searchedMs, 1) },
    decisions_per_cpu_sec: meanMs ? r3(1000 / meanMs) : null,
    cpu_s_per_game: r3(gameCpuS),
    // The full target on this machine's two cores: TARGET games × CPU per game ÷ 2.
    target_projection: { games: TARGET, cpu_hours: r3((TARGET * gameCpuS) / 3600), wall_hours_on_2_cores: r3((TARGET * gameCpuS) / 3600 / CORES) },
  };
}

/** `--sum file…`: the points from per-game lines, grouped by spec and windows, in file order. */
function fromLines(files: string[]): Map<string, { spec: string; windows: Windows; point: Point }> {
  const points = new Map<string, { spec: string; windows: Windows; point: Point }>();
  for (const f of files)
    for (const text of readFileSync(f, 'utf8').split('\n')) {
      if (!text.startsWith('{')) continue;
      const l = JSON.parse(text) as GameLine;
      const key = `${l.windows}:${l.spec}`;
      let e = points.get(key);
      if (!e) points.set(key, (e = { spec: l.spec, windows: l.windows, point: { wins: 0, games: 0, searchedMs: [], gameCpuMs: 0 } }));
      e.point.games++;
      if (l.won) e.point.wins++;
      e.point.searchedMs.push(...l.decision_ms);
      e.point.gameCpuMs += l.cpu_ms;
    }
  return points;
}

const args = process.argv.slice(2);
let curve: ReturnType<typeof summary>[];
let compact: ReturnType<typeof summary> | null;
if (args[0] === '--sum') {
  const points = [...fromLines(args.slice(1)).values()];
  curve = points.filter((e) => e.windows === 'full').map((e) => summary(e.spec, 'full', e.point)).sort((a, b) => a.budget_steps - b.budget_steps);
  const c = points.find((e) => e.windows === 'compact');
  compact = c ? summary(c.spec, 'compact', c.point) : null;
} else {
  curve = BUDGETS.map((spec) => summary(spec, 'full', play(spec, GAMES, 'full')));
  compact = COMPACT_GAMES > 0 ? summary(COMPACT, 'compact', play(COMPACT, COMPACT_GAMES, 'compact')) : null;
}
const rates = curve.map((c) => c.win_rate?.value ?? 0);
// The target is for `expert:deep` (whatever spec names its budget in the curve).
const deep = curve.find((c) => c.budget_steps === EXPERT_LEVELS['deep']);
console.log(
  JSON.stringify({
    seed: SEED,
    opponents: '3 x balanced',
    curve,
    compact,
    checks: {
      rises_with_budget: rates.every((x, i) => i === 0 || x >= rates[i - 1]!),
      deep_at_least_60: deep ? (deep.win_rate?.value ?? 0) >= 0.6 : null,
      deep_mean_at_most_2s: deep ? deep.cpu_ms_per_decision.mean <= 2000 : null,
      compact_at_least_45: compact ? (compact.win_rate?.value ?? 0) >= 0.45 : null,
      games_at_least_200: curve.every((c) => c.games >= 200) && (!compact || compact.games >= 200),
    },
  }),
);
