import type { Command } from './command.js';

/**
 * Each command's own module, by command name: a command line loads its command alone. Loading the
 * whole table (index.ts) costs about a second of CPU per start — the store, the agents, the
 * tournament code — where a command needs its own part. `serve` relies on it too: its start is
 * timed, and it begins opening the database before the server's code is loaded (see serve.ts).
 * A test keeps this list and the table in index.ts the same.
 */
const MODULES: Readonly<Record<string, () => Promise<Record<string, unknown>>>> = {
  serve: () => import('./serve.js'),
  play: () => import('./play.js'),
  simulate: () => import('./simulate.js'),
  run: () => import('./run.js'),
  games: () => import('./games.js'),
  resume: () => import('./resume.js'),
  fork: () => import('./fork.js'),
  counterfactual: () => import('./counterfactual.js'),
  replay: () => import('./replay.js'),
  winprob: () => import('./winprob.js'),
  verify: () => import('./verify.js'),
  tournament: () => import('./tournament.js'),
  tournaments: () => import('./tournaments.js'),
  standings: () => import('./standings.js'),
  ladder: () => import('./ladder.js'),
  report: () => import('./report.js'),
  export: () => import('./export.js'),
  positions: () => import('./positions.js'),
  store: () => import('./store.js'),
  'agent-check': () => import('./agent-check.js'),
  worker: () => import('./worker.js'),
};

const isCommand = (x: unknown): x is Command =>
  typeof x === 'object' && x !== null && typeof (x as Command).name === 'string' && typeof (x as Command).run === 'function';

/** The command `name` from its own module, or undefined for a name that is no command. */
export async function commandByName(name: string): Promise<Command | undefined> {
  const load = Object.hasOwn(MODULES, name) ? MODULES[name] : undefined;
  if (!load) return undefined;
  return Object.values(await load()).find((x): x is Command => isCommand(x) && x.name === name);
}

/** The names this file knows, for the test that keeps it in step with the table. */
export const COMMAND_NAMES: readonly string[] = Object.keys(MODULES);
