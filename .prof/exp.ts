// Experiment: expert variant vs three balanced, per-game lines to stdout.
import { createAgent } from '../src/agents/builtin/index.js';
import { expertAgent } from '../src/agents/builtin/expert/expert.js';
import { runGame } from '../src/runner/run-game.js';
const [label, optsJson, from, to, windows] = process.argv.slice(2);
const opts = JSON.parse(optsJson!);
let wins = 0, n = 0;
const stats = { steps: 0, worlds: 0, cands: 0, dec: 0 };
for (let seed = Number(from); seed < Number(to); seed++) {
  const mine = (seed - 1) % 4;
  const agents = [0, 1, 2, 3].map((i) => (i === mine ? expertAgent({ name: 'expert', ...opts }, (s) => { stats.steps += s.steps; stats.worlds += s.determinizations; stats.cands += s.candidates; stats.dec++; })(`agent:expert:${seed}:${i}`) : createAgent('balanced', seed, i)));
  const c0 = process.cpuUsage();
  const run = runGame({ seats: 4, rules: { windows: (windows as 'full') ?? 'full' } }, seed, agents);
  const c = process.cpuUsage(c0);
  const won = run.state.placements?.find((p) => p.player_id === `plr_${mine + 1}`)?.placement === 1;
  n++; if (won) wins++;
  console.log(JSON.stringify({ label, seed, won, turns: run.state.turn, cpu: Math.round((c.user + c.system) / 1000) }));
}
console.log(JSON.stringify({ label, summary: true, wins, n, rate: wins / n, worlds_per_dec: stats.worlds / stats.dec, cands: stats.cands / stats.dec, dec_per_game: stats.dec / n }));
