/**
 * One side of `bench:engine --against`, in a process of its own: loads a bundled engine (built by
 * engine-against.ts), warms it up, then plays the measured seeded games and prints one JSON line —
 * decisions, events, CPU milliseconds of the measured games, and the hash of their event logs.
 *
 *   tsx bench/engine-side.ts <bundle.mjs> <agent> <warmup games> <measured games>
 *
 * Each game is timed on its own (CPU time) and its log hashed after it: the check is not the engine.
 * (Forcing a collection between games, to keep the hash's garbage out, made V8 throw compiled code
 * away and tripled the figures: it is not done.)
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';

type Engine = {
  seatConfigs: (names: string[]) => unknown;
  buildAgents: (names: string[], seed: number) => unknown[];
  runGame: (config: unknown, seed: number, agents: unknown[]) => { events: unknown[]; decisions: unknown[] };
};

const [bundle, agent, warmup, measured] = process.argv.slice(2);
const engine = (await import(pathToFileURL(bundle!).href)) as Engine;
const names = [agent!, agent!, agent!, agent!];
const seats = engine.seatConfigs(names);
const play = (seed: number) => engine.runGame({ seats }, seed, engine.buildAgents(names, seed));

// Warm-up seeds are far from the measured ones, so no measured game is played twice.
for (let g = 0; g < Number(warmup); g++) play(1_000_000 + g);
const hash = createHash('sha256');
let decisions = 0;
let events = 0;
let cpuUs = 0;
for (let g = 0; g < Number(measured); g++) {
  const c0 = process.cpuUsage();
  const run = play(1 + g);
  const c = process.cpuUsage(c0);
  cpuUs += c.user + c.system;
  decisions += run.decisions.length;
  events += run.events.length;
  for (const e of run.events) hash.update(JSON.stringify(e) + '\n');
}
console.log(JSON.stringify({ decisions, events, cpu_ms: cpuUs / 1000, hash: hash.digest('hex') }));
