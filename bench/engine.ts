/**
 * Engine throughput: in-memory self-play of built-in agents at 4 seats, no I/O. Warms up, then
 * plays whole games until the measuring time is spent, and prints one JSON line per line-up.
 *
 *   npm run bench:engine                      # ~2 s warm-up + 3 s per line-up
 *   BENCH_SECONDS=10 npm run bench:engine
 *   npm run bench:engine -- --against 381e8eb  # this engine vs that commit's, one JSON line
 *   npm run bench:engine -- --against          # … vs the engine before its last change
 *
 * --against also takes --agent (random), --games measured per process (400), --warmup games
 * before them (200) and --rounds (3): each round plays each engine in a process of its own.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { AgainstOptions, compareAgainst, previousEngine, resolveCommit } from './engine-against.js';
import { isAgentName } from '../src/agents/builtin/index.js';
import { buildAgents, seatConfigs } from '../src/runner/lineup.js';
import { runGame } from '../src/runner/run-game.js';

const SEATS = 4;
const WARMUP_MS = 2000;
const MEASURE_MS = Number(process.env['BENCH_SECONDS'] ?? 3) * 1000;

type Totals = { games: number; events: number; decisions: number; wallMs: number };

function playFor(agent: string, ms: number, firstSeed: number): Totals {
  const names = Array.from({ length: SEATS }, () => agent);
  const seats = seatConfigs(names);
  const t: Totals = { games: 0, events: 0, decisions: 0, wallMs: 0 };
  const start = performance.now();
  while (performance.now() - start < ms) {
    const seed = firstSeed + t.games;
    const run = runGame({ seats }, seed, buildAgents(names, seed));
    t.games++;
    t.events += run.events.length;
    t.decisions += run.decisions.length;
  }
  t.wallMs = performance.now() - start;
  return t;
}

function bench(agent: string): void {
  playFor(agent, WARMUP_MS, 1_000_000);
  const t = playFor(agent, MEASURE_MS, 1);
  const perSec = (n: number) => Math.round((n / t.wallMs) * 1000);
  console.log(
    JSON.stringify({
      bench: 'engine',
      agents: agent,
      seats: SEATS,
      games: t.games,
      events: t.events,
      wallMs: Math.round(t.wallMs),
      eventsPerSec: perSec(t.events),
      gamesPerSec: Math.round((t.games / t.wallMs) * 1e5) / 100,
      decisionsPerSec: perSec(t.decisions),
      node: process.version,
    }),
  );
}

/** The flags; a bare `--against` (no ref) means the engine before its last change. */
function flags(): Record<string, string | undefined> {
  const args = process.argv.slice(2);
  const i = args.indexOf('--against');
  if (i >= 0 && (i === args.length - 1 || args[i + 1]!.startsWith('--'))) args.splice(i + 1, 0, '');
  try {
    return parseArgs({ args, options: { against: { type: 'string' }, agent: { type: 'string' }, games: { type: 'string' }, rounds: { type: 'string' }, warmup: { type: 'string' } } }).values;
  } catch (e) {
    console.error(`bench:engine: ${(e as Error).message}`);
    process.exit(2);
  }
}

const values = flags();
if (values['against'] !== undefined) {
  const parsed = AgainstOptions.safeParse({ ...values, against: values['against'] || previousEngine(process.cwd()) });
  if (!parsed.success) {
    console.error(`bench:engine: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`);
    process.exit(2);
  }
  const commit = resolveCommit(process.cwd(), parsed.data.against);
  if (!commit) {
    console.error(`bench:engine: --against: ${parsed.data.against} names no commit in this repository`);
    process.exit(2);
  }
  console.log(JSON.stringify(await compareAgainst(process.cwd(), parsed.data, commit)));
} else {
  bench('random');
  if (isAgentName('balanced')) bench('balanced');
}
