/**
 * Games to separate two agents: win rate against mean choice WPA (issue 39 point 4). Plays seeded
 * in-memory games of 4 seats, two of each agent, every deal twice with the seats swapped (a
 * duplicate pair: the luck of the deal falls on both agents alike), and prints one JSON object with,
 * per pair of agents and per statistic, the per-pair mean and sd, the games (1.96·sd/mean)² asks
 * and an empirical check by subsampling the pairs (src/eval/games-to-separate.ts).
 *
 * Statistics per game, first agent minus second: `win_rate` (the mean win share of its two seats),
 * `wpa_per_decision` (the mean over its seats of their mean choice WPA per decision),
 * `wpa_per_game` (the mean over its seats of their summed choice WPA) and `wpa_with_resolutions`
 * (that sum plus how the seat's own actions' resolutions moved it: the contest rolls and slips are
 * chance, but so is the payoff of a good action, which only lands when it resolves).
 *
 *   npm run bench:wpa -- --games 400 --expert-games 120
 */
import { parseArgs } from 'node:util';
import type { Window } from '../src/protocol/index.js';
import { runGame } from '../src/runner/run-game.js';
import { buildAgents, seatConfigs } from '../src/runner/lineup.js';
import { gameWpa } from '../src/eval/wpa.js';
import { separation } from '../src/eval/games-to-separate.js';
import { winShares } from '../src/eval/self-play.js';
import { MODEL } from '../src/eval/model.js';

const { values } = parseArgs({ options: { games: { type: 'string', default: '400' }, 'expert-games': { type: 'string', default: '120' }, seed: { type: 'string', default: '3900001' } } });
const GAMES = Number(values.games);
const EXPERT_GAMES = Number(values['expert-games']);
const SEED = Number(values.seed);
for (const [flag, n] of [['--games', GAMES], ['--expert-games', EXPERT_GAMES]] as const)
  if (!Number.isInteger(n) || n < 0 || n > 100_000 || n % 2) throw new Error(`${flag}: an even whole number (games come in duplicate pairs)`);

type Stats = { win_rate: number; wpa_per_decision: number; wpa_per_game: number; wpa_with_resolutions: number };
const STATS = ['win_rate', 'wpa_per_decision', 'wpa_per_game', 'wpa_with_resolutions'] as const;

/** One game of `a` and `b` at seats [a, b, a, b] (or swapped): its statistics, a minus b. */
function playOne(a: string, b: string, seed: number, swapped: boolean): { stats: Stats; cpu: { play: number; wpa: number }; events: number } {
  const lineup = swapped ? [b, a, b, a] : [a, b, a, b];
  let t = process.cpuUsage();
  const run = runGame({ seats: seatConfigs(lineup) }, seed, buildAgents(lineup, seed));
  const play = process.cpuUsage(t);
  t = process.cpuUsage();
  const w = gameWpa(run.events, run.decisions.map((d) => ({ seq: d.seq, player_id: d.player_id, window: d.window as Window })));
  const wpa = process.cpuUsage(t);
  const ended = run.events.find((e) => e.type === 'game_ended');
  const shares = winShares(ended?.type === 'game_ended' ? ended.payload.placements : []);
  const side = (agent: string, f: (id: string) => number) => {
    const ids = lineup.map((x, i) => (x === agent ? `plr_${i + 1}` : null)).filter((x): x is string => x !== null);
    return ids.reduce((s, id) => s + f(id), 0) / ids.length;
  };
  const diff = (f: (id: string) => number) => side(a, f) - side(b, f);
  return {
    stats: {
      win_rate: diff((id) => shares.get(id) ?? 0),
      wpa_per_decision: diff((id) => w.seats[id]!.choice_mean ?? 0),
      wpa_per_game: diff((id) => w.seats[id]!.choice_sum),
      wpa_with_resolutions: diff((id) => w.seats[id]!.choice_sum + w.chances.reduce((s, c) => s + (c.actor === id ? c.delta[id]! : 0), 0)),
    },
    cpu: { play: (play.user + play.system) / 1000, wpa: (wpa.user + wpa.system) / 1000 },
    events: run.events.length,
  };
}

/** `games` games of a against b (games / 2 deals, each in both seatings) and the separation figures. */
function pair(a: string, b: string, games: number, seedBase: number) {
  const units: Stats[] = [];
  const perGame: Stats[] = [];
  let play = 0;
  let wpa = 0;
  let events = 0;
  for (let d = 0; d < games / 2; d++) {
    const seed = seedBase + d;
    const x = playOne(a, b, seed, false);
    const y = playOne(a, b, seed, true);
    for (const g of [x, y]) {
      perGame.push(g.stats);
      play += g.cpu.play;
      wpa += g.cpu.wpa;
      events += g.events;
    }
    units.push(Object.fromEntries(STATS.map((s) => [s, (x.stats[s] + y.stats[s]) / 2])) as Stats);
    if ((d + 1) % 25 === 0) process.stderr.write(`bench:wpa ${a} vs ${b}: ${2 * (d + 1)}/${games} games\n`);
  }
  const sizes = [2, 3, 5, 8, 12, 20, 30, 50, 80, 120, 200, 320].filter((n) => n <= Math.max(40, 4 * units.length));
  return {
    a,
    b,
    games,
    deals: units.length,
    seeds: `${seedBase}-${seedBase + units.length - 1}`,
    mean_events_per_game: Math.round(events / Math.max(1, games)),
    cpu_ms_per_game: { play: Math.round(play / Math.max(1, games)), wpa: Math.round(wpa / Math.max(1, games)) },
    // Units are duplicate pairs (2 games); per_game treats the games as independent, for comparison.
    by_deal: Object.fromEntries(STATS.map((s) => [s, separation(units.map((u) => u[s]), 2, sizes, seedBase)])),
    per_game: Object.fromEntries(STATS.map((s) => [s, (({ empirical: _, ...rest }) => rest)(separation(perGame.map((u) => u[s]), 1, [], seedBase))])),
  };
}

const out = {
  bench: 'wpa-separation',
  model: MODEL.version,
  seats: 4,
  pairs: [...(GAMES ? [pair('balanced', 'random', GAMES, SEED)] : []), ...(EXPERT_GAMES ? [pair('expert:fast', 'balanced', EXPERT_GAMES, SEED + 500_000)] : [])],
};
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
