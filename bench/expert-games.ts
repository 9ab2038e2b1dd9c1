/**
 * Streams one JSON line per game of a line-up (seats rotating, game g = seed + g, as `simulate`),
 * so a long expert measurement can be read while it runs and summed however far it got:
 *
 *   npx tsx bench/expert-games.ts expert,balanced,balanced,balanced 200 1 > vs3.jsonl
 *   npx tsx bench/expert-games.ts --sum vs3.jsonl expert        # wins, games, 95 % interval
 */
import { readFileSync } from 'node:fs';
import { playSeated, SimulationSpec } from '../src/runner/simulate.js';
import { SimStats } from '../src/runner/sim-stats.js';

/** Wilson score interval at 95 %. */
function wilson(wins: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.96;
  const p = wins / n;
  const d = 1 + (z * z) / n;
  const c = p + (z * z) / (2 * n);
  const h = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [(c - h) / d, (c + h) / d];
}

const [a0, a1, a2] = process.argv.slice(2);
if (a0 === '--sum') {
  const lines = readFileSync(a1!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { wins: Record<string, number>; games: Record<string, number>; cpu_ms: number; searched: number });
  const who = a2!;
  const wins = lines.reduce((a, l) => a + (l.wins[who] ?? 0), 0);
  const games = lines.reduce((a, l) => a + (l.games[who] ?? 0), 0);
  const cpu = lines.reduce((a, l) => a + l.cpu_ms, 0);
  const searched = lines.reduce((a, l) => a + l.searched, 0);
  const [lo, hi] = wilson(wins, games);
  console.log(JSON.stringify({ agent: who, games, wins, win_rate: wins / games, ci95: [lo, hi], searched_decisions: searched, cpu_s: cpu / 1000, searched_per_cpu_sec: searched / (cpu / 1000) }));
} else {
  const lineup = a0!.split(',');
  const spec = SimulationSpec.parse({ games: Number(a1 ?? 200), seed: Number(a2 ?? 1), agents: lineup, seats: lineup.length });
  for (let g = 0; g < spec.games; g++) {
    const c0 = process.cpuUsage();
    const { run, agents, seed } = await playSeated(spec, g);
    const c = process.cpuUsage(c0);
    const stats = new SimStats();
    stats.add({ events: run.events, decisions: run.decisions.length, agents });
    const f = stats.figures();
    const expertSeats = new Set(agents.flatMap((a, i) => (a.startsWith('expert') ? [`plr_${i + 1}`] : [])));
    const searched = run.decisions.filter((d) => d.window === 'action' && expertSeats.has(d.player_id)).length;
    const wins = Object.fromEntries(Object.entries(f.byAgent).map(([k, v]) => [k, v.wins]));
    const games = Object.fromEntries(Object.entries(f.byAgent).map(([k, v]) => [k, v.games]));
    console.log(JSON.stringify({ g, seed, agents, wins, games, rounds: f.medianRounds, cpu_ms: Math.round((c.user + c.system) / 1000), searched }));
  }
}
