/**
 * Calibration of the win-probability model on held-out self-play (seeds from 1,000,001; training
 * used 1 to its game count), 3–6 seats of all built-ins. Prints one JSON object: for the
 * omniscient and the public model, ECE (10 bins), Brier and log loss beside the baseline's (a
 * conditional logit on lives and resolve alone), the reliability bins, and the CPU the model spends
 * per position. `--bins-out` writes the reliability bins for docs/img/winprob-reliability.png
 * (scripts/winprob-diagram.ts draws it).
 *
 *   npm run bench:winprob -- --games 1000
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { calibration, type Observation } from '../src/eval/calibration.js';
import { MODEL, winChances } from '../src/eval/model.js';
import type { Form } from '../src/eval/features.js';
import { lineupFor, sampleGame, winShares } from '../src/eval/self-play.js';
import { winCurve } from '../src/eval/curve.js';
import { initialState, viewEvent, viewState, type Viewer } from '../src/game/index.js';
import { buildAgents, seatConfigs } from '../src/runner/lineup.js';
import { runGame } from '../src/runner/run-game.js';

const { values } = parseArgs({ options: { games: { type: 'string', default: '1000' }, stride: { type: 'string', default: '3' }, 'bins-out': { type: 'string' } } });
const GAMES = Number(values.games);
const STRIDE = Number(values.stride);
if (!Number.isInteger(GAMES) || GAMES < 1 || GAMES > 100_000) throw new Error('--games: a whole number from 1 to 100000');
const FIRST_SEED = 1_000_001;
const FORMS: readonly Form[] = ['omniscient', 'public', 'baseline'];

const positions: Record<Form, Observation[][]> = { omniscient: [], public: [], baseline: [] };
const cpu: Record<Form, number> = { omniscient: 0, public: 0, baseline: 0 };
let events = 0;
const seats: Record<number, number> = {};
for (let seed = FIRST_SEED; seed < FIRST_SEED + GAMES; seed++) {
  const g = sampleGame(seed, STRIDE);
  events += g.events;
  seats[g.lineup.length] = (seats[g.lineup.length] ?? 0) + 1;
  const shares = winShares(g.placements);
  for (const s of g.samples) {
    for (const form of FORMS) {
      const view = form === 'omniscient' ? s.admin : s.spectator;
      const t0 = process.cpuUsage();
      const p = winChances(view, form);
      const t = process.cpuUsage(t0);
      cpu[form] += t.user + t.system;
      const alive = view.world.players.filter((x) => x.alive);
      if (alive.length < 2) continue;
      positions[form].push(alive.map((x) => ({ p: p[x.player_id]!, won: shares.get(x.player_id) ?? 0 })));
    }
  }
  if ((seed - FIRST_SEED + 1) % 100 === 0) process.stderr.write(`bench:winprob ${seed - FIRST_SEED + 1}/${GAMES} games\n`);
}

/**
 * The curve's CPU for a whole stored game (the REST route's and the page's work): the first held-out
 * seed whose log has 900–1,400 events, folded from the start for a spectator (public model) and an
 * admin (omniscient), a point after every event; the best of 3 runs, per 1,000 events.
 */
function curveCost(): Record<string, number> {
  for (let seed = FIRST_SEED; ; seed++) {
    const lineup = lineupFor(seed);
    const config = { seats: seatConfigs(lineup) };
    const run = runGame(config, seed, buildAgents(lineup, seed));
    if (run.events.length < 900 || run.events.length > 1400) continue;
    const out: Record<string, number> = { seed, events: run.events.length };
    for (const viewer of [{ role: 'spectator' }, { role: 'admin' }] as Viewer[]) {
      const projected = run.events.map((e) => viewEvent(e, viewer, true));
      const base = { seq: 0, view: viewState(initialState(config, seed), viewer) };
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const t0 = process.cpuUsage();
        winCurve(base, projected, viewer, true);
        const t = process.cpuUsage(t0);
        best = Math.min(best, (t.user + t.system) / 1000);
      }
      out[`${viewer.role === 'admin' ? 'omniscient' : 'public'}_cpu_ms_per_1000_events`] = Math.round((best / run.events.length) * 1000 * 10) / 10;
    }
    return out;
  }
}
const curve = curveCost();

const cal = Object.fromEntries(FORMS.map((f) => [f, calibration(positions[f])]));
const summary = (f: Form) => ({ ece: cal[f]!.ece, brier: cal[f]!.brier, log_loss: cal[f]!.log_loss, observations: cal[f]!.observations, us_per_position: Math.round((cpu[f] / Math.max(1, positions[f].length)) * 100) / 100 });
const out = {
  bench: 'winprob',
  model: MODEL.version,
  games: GAMES,
  seeds: `${FIRST_SEED}-${FIRST_SEED + GAMES - 1}`,
  seats,
  events,
  positions: positions.public.length,
  ece: cal['omniscient']!.ece,
  brier: cal['omniscient']!.brier,
  brier_baseline: cal['baseline']!.brier,
  log_loss: cal['omniscient']!.log_loss,
  log_loss_baseline: cal['baseline']!.log_loss,
  omniscient: summary('omniscient'),
  public: summary('public'),
  baseline: summary('baseline'),
  curve,
  targets: { ece: 0.03, brier: 'below brier_baseline', curve_cpu_ms_per_1000_events: 1000 },
  bins: { omniscient: cal['omniscient']!.bins, public: cal['public']!.bins, baseline: cal['baseline']!.bins },
  node: process.version,
};
if (values['bins-out']) writeFileSync(values['bins-out'], JSON.stringify(out.bins, null, 2) + '\n');
console.log(JSON.stringify(out, null, 2));
