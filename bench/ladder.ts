/**
 * The ladder's matchmaker against a round-robin schedule on a simulated field (issue 41): how many
 * games until the fitted top-10 order is the true one in 95 % of seeded replications.
 *
 * Field: `--entrants` (24) entrants whose log-worths θ are evenly spaced `--spacing` (0.2) apart,
 * centred on 0 (24 entrants: +2.3 … −2.3), assigned to entrant ids by a seeded shuffle per
 * replication. A 0.2 gap means the better of two neighbours finishes above the other 55 % of the
 * time; the field spans e^4.6 ≈ 100 : 1 from top to bottom, about the spread from the random
 * built-in to the expert. Every game's placements are drawn from the Plackett–Luce model with
 * these θ (src/ladder/simulate.ts); no engine game is played.
 *
 * Schedules, each a sequence of deals of `--seats` (4) entrants played in all 4 seat rotations:
 *   - `round_robin`: random balanced line-ups — each cycle shuffles the entrants and splits them
 *     into tables, so every entrant plays equally often (the round-robin's balance, in duplicates);
 *   - `matchmaker`: src/ladder/matchmaker.ts with focus_top = `--top` (the ranking the bench reads);
 *   - `matchmaker_whole`: the same with focus_top = null (it settles the whole ranking).
 *
 * Measure: after every deal each replication refits (the ladder's own fit: MAP Plackett–Luce with
 * the standings' prior) and checks whether its top `--top` by θ, in order, equals the true top.
 * `games` is the smallest game count g on that grid (every deal, so a multiple of `seats`) at which
 * at least 95 % of the R replications are right at g games; null if the cap `--max-games` came
 * first. `games_ratio` = matchmaker ÷ round_robin (the issue's target: ≤ 0.5).
 *
 *   npm run bench:ladder -- --replications 40      (niced; --no-parallel runs the schedules in one process)
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { nextLineup } from '../src/ladder/matchmaker.js';
import { simulateDeal } from '../src/ladder/simulate.js';
import type { LadderDeal, LadderEntrant, MatchmakerOptionsInput } from '../src/ladder/types.js';
import { PRIOR_SD } from '../src/tournament/fit-standings.js';
import { compileGames, newtonSteps } from '../src/tournament/plackett-luce.js';
import { prng, shuffled } from '../src/tournament/seeds.js';

const { values } = parseArgs({
  options: {
    replications: { type: 'string', default: '40' },
    entrants: { type: 'string', default: '24' },
    seats: { type: 'string', default: '4' },
    top: { type: 'string', default: '10' },
    spacing: { type: 'string', default: '0.2' },
    'max-games': { type: 'string', default: '12000' },
    seed: { type: 'string', default: '4100001' },
    schedules: { type: 'string', default: 'matchmaker,round_robin,matchmaker_whole' },
    // One child process per schedule (the schedules share nothing): on a shared machine each gets its share of the cores.
    parallel: { type: 'boolean', default: true },
    child: { type: 'boolean', default: false },
  },
});
const R = Number(values.replications);
const N = Number(values.entrants);
const SEATS = Number(values.seats);
const TOP = Number(values.top);
const SPACING = Number(values.spacing);
const MAX_GAMES = Number(values['max-games']);
const SEED = Number(values.seed);
const SHARE = 0.95;
for (const [flag, v, lo, hi] of [
  ['--replications', R, 1, 1000],
  ['--entrants', N, 2, 200],
  ['--seats', SEATS, 2, 8],
  ['--top', TOP, 1, 199],
  ['--max-games', MAX_GAMES, 1, 1_000_000],
  ['--seed', SEED, 0, 2 ** 31],
] as const)
  if (!Number.isInteger(v) || v < lo || v > hi) throw new Error(`${flag}: a whole number from ${lo} to ${hi}`);
if (SEATS > N || TOP >= N) throw new Error('--seats must be at most --entrants and --top below it');
if (!(SPACING > 0 && SPACING <= 5)) throw new Error('--spacing: a number in (0, 5]');

const SCHEDULES = ['matchmaker', 'round_robin', 'matchmaker_whole'] as const;
type ScheduleName = (typeof SCHEDULES)[number];
const chosen = values.schedules.split(',').map((s) => s.trim());
for (const s of chosen) if (!(SCHEDULES as readonly string[]).includes(s)) throw new Error(`--schedules: one of ${SCHEDULES.join(', ')}`);

const ids = Array.from({ length: N }, (_, i) => `e${String(i).padStart(2, '0')}`);
const levels = Array.from({ length: N }, (_, i) => SPACING * ((N - 1) / 2 - i));

/** One replication's world: the strengths, the deals so far and the evaluation's last θ (its warm start). */
type Replication = {
  strength: Map<string, number>;
  truth: string[];
  deals: LadderDeal[];
  theta: Float64Array;
  cycle: string[];
  play: () => number;
};

function replication(schedule: ScheduleName, r: number): Replication {
  // The same field per replication for every schedule: strengths depend on r only.
  const assigned = shuffled(levels, prng(SEED, 'strengths', r));
  const strength = new Map(ids.map((id, i) => [id, assigned[i]!]));
  const truth = [...ids].sort((a, b) => strength.get(b)! - strength.get(a)!).slice(0, TOP);
  return { strength, truth, deals: [], theta: new Float64Array(N), cycle: [], play: prng(SEED, 'play', schedule, r) };
}

const entrants: LadderEntrant[] = ids.map((id) => ({ id, joined_at: 0, status: 'active' }));
const optionsOf: Record<Exclude<ScheduleName, 'round_robin'>, MatchmakerOptionsInput> = { matchmaker: { focus_top: TOP }, matchmaker_whole: { focus_top: null } };

/** The next line-up of a schedule for replication r. */
function lineupOf(schedule: ScheduleName, rep: Replication, r: number): string[] {
  const d = rep.deals.length;
  if (schedule === 'round_robin') {
    // A fresh shuffle each cycle; when the field does not split evenly, the cycle's tail carries over.
    if (rep.cycle.length < SEATS) rep.cycle.push(...shuffled(ids.filter((id) => !rep.cycle.includes(id)), prng(SEED, 'round-robin', r, d)));
    return rep.cycle.splice(0, SEATS);
  }
  const m = nextLineup({ entrants, deals: rep.deals, seats: SEATS, next: prng(SEED, 'matchmaker', r, d), options: optionsOf[schedule] });
  if (!m.ok) throw new Error(m.message);
  return m.lineup;
}

/** Refits replication `rep` on all its games (from its previous θ) and says whether its top order is right. */
function topRight(rep: Replication): boolean {
  const index = new Map(ids.map((id, i) => [id, i]));
  const games = rep.deals.flatMap((d) => d.games.map((g) => ({ seats: g.seats.map((id) => index.get(id)!), placements: g.placements })));
  // Three Newton steps from the previous deal's fit (the k-step refit of group-bootstrap.ts): one
  // deal moves the maximum little, and the guarded fit's step-halving tail would cost ten times more.
  const theta = newtonSteps(compileGames(N, games), new Float64Array(games.length).fill(1), { priorSd: PRIOR_SD, start: rep.theta, steps: 3 });
  rep.theta = theta;
  const top = ids
    .map((id, i) => [id, theta[i]!] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([id]) => id);
  return top.every((id, i) => id === rep.truth[i]);
}

/** Runs every replication of `schedule` in lockstep, one deal at a time, until 95 % are right or the cap. */
function measure(schedule: ScheduleName) {
  const started = process.cpuUsage();
  const reps = Array.from({ length: R }, (_, r) => replication(schedule, r));
  const maxDeals = Math.floor(MAX_GAMES / SEATS);
  let share = 0;
  let deals = 0;
  const shares: { games: number; share: number }[] = [];
  for (deals = 1; deals <= maxDeals; deals++) {
    let right = 0;
    reps.forEach((rep, r) => {
      rep.deals.push(simulateDeal(lineupOf(schedule, rep, r), (id) => rep.strength.get(id)!, rep.play));
      if (topRight(rep)) right++;
    });
    share = right / R;
    if (deals % 25 === 0) {
      shares.push({ games: deals * SEATS, share });
      process.stderr.write(`${schedule}: ${deals * SEATS} games, top-${TOP} right in ${(100 * share).toFixed(1)} %\n`);
    }
    if (share >= SHARE) break;
  }
  const reached = share >= SHARE;
  const cpu = process.cpuUsage(started);
  // Of the games, how many seated a true top entrant (where a top-k ranking's evidence comes from).
  const seatsInTop = reps.reduce((s, rep) => s + rep.deals.reduce((t, d) => t + d.lineup.filter((id) => rep.truth.includes(id)).length, 0), 0);
  const seatsAll = reps.reduce((s, rep) => s + rep.deals.length * SEATS, 0);
  return {
    games: reached ? deals * SEATS : null,
    deals: reached ? deals : null,
    share_at_games: Math.round(share * 1000) / 1000,
    top_seat_share: Math.round((seatsInTop / seatsAll) * 1000) / 1000,
    share_curve: shares,
    cpu_s: Math.round((cpu.user + cpu.system) / 1e4) / 100,
  };
}

/** Each schedule in a child process of this same script (same flags, one schedule each); their JSON lines, merged. */
async function inChildren(): Promise<Partial<Record<ScheduleName, ReturnType<typeof measure>>>> {
  const flags = process.argv.slice(2).filter((a, i, all) => a !== '--schedules' && all[i - 1] !== '--schedules' && !a.startsWith('--schedules='));
  const runs = chosen.map(
    (s) =>
      new Promise<[string, ReturnType<typeof measure>]>((resolve, reject) => {
        const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...flags, '--schedules', s, '--child'], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (b: Buffer) => (out += b.toString()));
        child.on('exit', (code) => (code === 0 ? resolve([s, (JSON.parse(out) as { schedules: Record<string, ReturnType<typeof measure>> }).schedules[s]!]) : reject(new Error(`${s}: exit ${code}`))));
      }),
  );
  return Object.fromEntries(await Promise.all(runs));
}

const results: Partial<Record<ScheduleName, ReturnType<typeof measure>>> = values.parallel && !values.child && chosen.length > 1 ? await inChildren() : {};
if (Object.keys(results).length === 0) for (const s of chosen as ScheduleName[]) results[s] = measure(s);
const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b ? Math.round((a / b) * 1000) / 1000 : null);
process.stdout.write(
  JSON.stringify({
    bench: 'ladder',
    entrants: N,
    seats: SEATS,
    top: TOP,
    replications: R,
    target_share: SHARE,
    seed: SEED,
    strengths: { kind: 'evenly spaced log-worth θ, shuffled onto entrants per replication', spacing: SPACING, highest: levels[0], lowest: levels[N - 1] },
    max_games: MAX_GAMES,
    schedules: results,
    games_ratio: ratio(results.matchmaker?.games, results.round_robin?.games),
    games_ratio_whole: ratio(results.matchmaker_whole?.games, results.round_robin?.games),
  }) + '\n',
);
