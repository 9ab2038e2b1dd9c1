/**
 * Every style viable (issue 42 point 2): the five heuristics at four-seat mixed tables, full and
 * compact windows, and the six built-ins' round-robin, each with 95 % intervals. In memory, with
 * the simulator's every-line-up schedule (sim-schedule.ts): each deal (one seed) is played at every
 * table of four in its four seat rotations, so seat and deal luck cancel, and a deal-table is a
 * duplicate group for the group bootstrap.
 *
 *   npm run bench:styles                                  # the acceptance run (slow: run it niced)
 *   STYLES_GAMES=100 STYLES_RR_GAMES=0 npm run bench:styles   # a quick look at the band
 *
 * Knobs: STYLES_SEED (1), STYLES_GAMES per window mode of the mixed tables (400, rounded up to whole
 * deals of 20), STYLES_RR_GAMES of the round-robin (480, whole deals of 60; 0 skips),
 * STYLES_WINDOWS (full,compact; empty: the round-robin only).
 */
import { performance } from 'node:perf_hooks';
import { agentVersion, type AgentName } from '../src/agents/builtin/index.js';
import { playSeated, SimulationSpec } from '../src/runner/simulate.js';
import { wilson } from '../src/research/position-stats.js';
import { groupResamples } from '../src/tournament/group-bootstrap.js';

const env = (k: string, d: number) => Number(process.env[k] ?? d);
const SEED = env('STYLES_SEED', 1);
const GAMES = env('STYLES_GAMES', 400);
const RR_GAMES = env('STYLES_RR_GAMES', 480);
const WINDOWS = (process.env['STYLES_WINDOWS'] ?? 'full,compact').split(',').filter(Boolean) as ('full' | 'compact')[];
const RESAMPLES = 2000;
const HEURISTIC = ['balanced', 'aggressor', 'turtle', 'manipulator', 'trickster'];
const SIX = ['random', ...HEURISTIC];
const BAND = { low: 0.15, high: 0.4 };

/** One seat's result: which agent, whether it won (placement 1), its duplicate group. */
type SeatResult = { agent: string; win: number; placement: number; group: number };

async function play(lineup: string[], games: number, windows: 'full' | 'compact'): Promise<{ seats: SeatResult[]; games: number; wallMs: number }> {
  const spec = SimulationSpec.parse({ games, seed: SEED, agents: lineup, seats: 4, rules: { windows } });
  const seats: SeatResult[] = [];
  const start = performance.now();
  for (let g = 0; g < spec.games; g++) {
    const { run, agents } = await playSeated(spec, g);
    // A deal's table in its four rotations: the games that share seed and cards.
    const group = Math.floor(g / 4);
    const ended = run.events.find((e) => e.type === 'game_ended');
    if (!ended || ended.type !== 'game_ended') throw new Error(`game ${g} did not end`);
    for (const p of ended.payload.placements) {
      const agent = agents[Number(p.player_id.slice(4)) - 1]!;
      seats.push({ agent, win: p.placement === 1 ? 1 : 0, placement: p.placement, group });
    }
    if ((g + 1) % 100 === 0) process.stderr.write(`${windows} ${lineup.length} agents: ${g + 1}/${spec.games}\n`);
  }
  return { seats, games: spec.games, wallMs: performance.now() - start };
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** Per agent: games, win rate with Wilson and grouped-bootstrap 95 % intervals, mean placement. */
function figures(seats: SeatResult[], agents: string[]) {
  const groups = seats.map((s) => String(s.group));
  const boot: Record<string, number[]> = Object.fromEntries(agents.map((a) => [a, []]));
  for (const w of groupResamples(groups, SEED, RESAMPLES)) {
    const won: Record<string, [number, number]> = {};
    seats.forEach((s, i) => {
      const t = (won[s.agent] ??= [0, 0]);
      t[0] += w[i]! * s.win;
      t[1] += w[i]!;
    });
    for (const a of agents) boot[a]!.push(won[a] ? won[a][0] / won[a][1] : 0);
  }
  const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  return Object.fromEntries(
    agents.map((a) => {
      const mine = seats.filter((s) => s.agent === a);
      const wins = mine.reduce((n, s) => n + s.win, 0);
      const w = wilson(wins, mine.length);
      return [
        a,
        {
          version: agentVersion(a as AgentName),
          games: mine.length,
          win_rate: r3(wins / mine.length),
          wilson: w ? [r3(w.low), r3(w.high)] : null,
          bootstrap: [r3(q(boot[a]!, 0.025)), r3(q(boot[a]!, 0.975))],
          mean_placement: r3(mine.reduce((n, s) => n + s.placement, 0) / mine.length),
        },
      ];
    }),
  );
}

type Fig = ReturnType<typeof figures>[string];
const out: Record<string, unknown> = { seed: SEED, resamples: RESAMPLES };
const checks: Record<string, boolean> = {};

for (const windows of WINDOWS) {
  const r = await play(HEURISTIC, GAMES, windows);
  const f = figures(r.seats, HEURISTIC);
  out[`mixed_${windows}`] = { games: r.games, wall_s: Math.round(r.wallMs / 1000), by_agent: f };
  checks[`mixed_${windows}_all_in_band`] = Object.values(f).every((x) => x.win_rate >= BAND.low && x.win_rate <= BAND.high);
  // Clear of the edges: the bootstrap interval sits inside the band.
  checks[`mixed_${windows}_intervals_in_band`] = Object.values(f).every((x) => x.bootstrap[0]! >= BAND.low && x.bootstrap[1]! <= BAND.high);
}

if (RR_GAMES > 0) {
  const r = await play(SIX, RR_GAMES, 'full');
  const f = figures(r.seats, SIX);
  const ranks = Object.entries(f)
    .sort(([, x], [, y]) => y.win_rate - x.win_rate)
    .map(([agent, x], i) => ({ rank: i + 1, agent, ...x }));
  out['round_robin'] = { games: r.games, wall_s: Math.round(r.wallMs / 1000), ranks };
  const t = f['trickster'] as Fig;
  const rnd = f['random'] as Fig;
  checks['trickster_above_random_separated'] = t.bootstrap[0]! > rnd.bootstrap[1]! && t.wilson![0]! > rnd.wilson![1]!;
}
out['checks'] = checks;
console.log(JSON.stringify(out));
