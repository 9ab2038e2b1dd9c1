/**
 * `bench:engine --against <git-ref>`: this tree's engine against another commit's, in one process,
 * so a slowdown shows the day it lands (issue 42). The other engine is checked out into a temporary
 * git worktree and loaded from its own sources; both play the same seeded random games in
 * alternating batches, timed in CPU time (a shared machine's load moves wall time more), and each
 * side's event logs are hashed, which must agree unless the rules changed on purpose.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

/** The flags, bounded: a git ref (no options smuggled in), and how much to play. */
export const AgainstOptions = z.object({
  against: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._/~^@{}-]{0,99}$/, 'a git ref: a commit, tag or branch name'),
  agent: z.enum(['random', 'balanced', 'aggressor', 'turtle', 'manipulator', 'trickster']).default('random'),
  games: z.coerce.number().int().min(1).max(1000).default(20),
  rounds: z.coerce.number().int().min(2).max(100).default(10),
});
export type AgainstOptions = z.infer<typeof AgainstOptions>;

type Engine = (seed: number) => { events: unknown[]; decisions: unknown[] };
type Side = { decisions: number; events: number; cpuMs: number; hash: ReturnType<typeof createHash> };

/** The engine sources that decide bench:engine's figures. */
export const ENGINE_DIRS = ['src/game', 'src/protocol', 'src/runner', 'src/agents/builtin'];

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The commit a ref names, or null when it names none here. */
export function resolveCommit(root: string, ref: string): string | null {
  try {
    return git(root, 'rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`);
  } catch {
    return null;
  }
}

/** The default baseline: the engine as it was before the last commit that changed it. */
export function previousEngine(root: string): string {
  const last = git(root, 'log', '-1', '--format=%H', 'HEAD', '--', ...ENGINE_DIRS);
  return last ? `${last}~1` : 'HEAD';
}

/** One side's runner: a fresh line-up of `agent` per seeded game, as bench:engine plays. */
async function loadEngine(root: string, agent: string): Promise<Engine> {
  const lineup = (await import(pathToFileURL(join(root, 'src/runner/lineup.ts')).href)) as {
    seatConfigs: (names: string[]) => unknown;
    buildAgents: (names: string[], seed: number) => unknown[];
  };
  const run = (await import(pathToFileURL(join(root, 'src/runner/run-game.ts')).href)) as {
    runGame: (config: unknown, seed: number, agents: unknown[]) => { events: unknown[]; decisions: unknown[] };
  };
  const names = [agent, agent, agent, agent];
  const seats = lineup.seatConfigs(names);
  return (seed) => run.runGame({ seats }, seed, lineup.buildAgents(names, seed));
}

function batch(engine: Engine, side: Side, firstSeed: number, games: number): void {
  const runs = [];
  const c0 = process.cpuUsage();
  for (let g = 0; g < games; g++) runs.push(engine(firstSeed + g));
  const c = process.cpuUsage(c0);
  side.cpuMs += (c.user + c.system) / 1000;
  // Hashing is outside the timed part: it is the check, not the engine.
  for (const r of runs) {
    side.decisions += r.decisions.length;
    side.events += r.events.length;
    for (const e of r.events) side.hash.update(JSON.stringify(e) + '\n');
  }
}

const rates = (s: Side) => ({ decisions_per_s: Math.round((s.decisions / s.cpuMs) * 1000), events_per_s: Math.round((s.events / s.cpuMs) * 1000) });

/**
 * Plays `rounds` batches of `games` seeded games on each engine, alternating which goes first,
 * after one warm-up batch each. Returns the JSON line bench:engine prints.
 *
 * @example await compareAgainst(process.cwd(), { against: '381e8eb', agent: 'random', games: 20, rounds: 10 }, resolveCommit(process.cwd(), '381e8eb')!)
 */
export async function compareAgainst(root: string, o: AgainstOptions, commit: string): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'tiltyard-engine-'));
  git(root, 'worktree', 'add', '--detach', dir, commit);
  try {
    symlinkSync(resolve(root, 'node_modules'), join(dir, 'node_modules'));
    const before = await loadEngine(dir, o.agent);
    const after = await loadEngine(root, o.agent);
    const side = (): Side => ({ decisions: 0, events: 0, cpuMs: 0, hash: createHash('sha256') });
    const b = side();
    const a = side();
    batch(before, side(), 1_000_000, o.games);
    batch(after, side(), 1_000_000, o.games);
    for (let r = 0; r < o.rounds; r++) {
      const seed = 1 + r * o.games;
      if (r % 2 === 0) {
        batch(before, b, seed, o.games);
        batch(after, a, seed, o.games);
      } else {
        batch(after, a, seed, o.games);
        batch(before, b, seed, o.games);
      }
    }
    const br = rates(b);
    const ar = rates(a);
    return {
      bench: 'engine',
      agents: o.agent,
      seats: 4,
      against: o.against,
      against_commit: commit.slice(0, 12),
      games: o.games * o.rounds,
      timing: 'cpu',
      before: br,
      after: ar,
      ratio: Math.round((ar.decisions_per_s / br.decisions_per_s) * 1000) / 1000,
      log_hash_equal: b.hash.digest('hex') === a.hash.digest('hex'),
      node: process.version,
    };
  } finally {
    git(root, 'worktree', 'remove', '--force', dir);
  }
}
