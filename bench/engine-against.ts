/**
 * `bench:engine --against <git-ref>`: this tree's engine against another commit's, in one run, so a
 * slowdown shows the day it lands (issue 42). The other engine is checked out into a temporary git
 * worktree. Each side is bundled from its own sources the way the CLI ships (esbuild, one file,
 * dependencies inside) and played in processes of its own, alternating which goes first: two
 * engines in one process share V8's feedback for zod and Node's internals, which slowed whichever
 * ran second by a third in some rounds. Every side warms up before its measured seeded random
 * games, timed in CPU time (a shared machine's load moves wall time more), and hashes their event
 * logs, which must agree unless the rules changed on purpose.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/** The flags, bounded: a git ref (no options smuggled in), and how much to play. */
export const AgainstOptions = z.object({
  against: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._/~^@{}-]{0,99}$/, 'a git ref: a commit, tag or branch name'),
  agent: z.enum(['random', 'balanced', 'aggressor', 'turtle', 'manipulator', 'trickster']).default('random'),
  games: z.coerce.number().int().min(20).max(2000).default(400),
  rounds: z.coerce.number().int().min(1).max(20).default(3),
  warmup: z.coerce.number().int().min(0).max(2000).default(200),
});
export type AgainstOptions = z.infer<typeof AgainstOptions>;

/** One side's figures from one process: what bench/engine-side.ts prints. */
const SideRun = z.object({ decisions: z.number(), events: z.number(), cpu_ms: z.number(), hash: z.string() });
type SideRun = z.infer<typeof SideRun>;

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

/**
 * Bundles one tree's engine (the runner's line-up and game loop, everything they import) into one
 * ES module, as scripts/bundle.mjs does for the CLI: the figures are the shipped code's, and both
 * sides are built by the same tool with the same options.
 */
async function bundleEngine(root: string, outDir: string, name: string): Promise<string> {
  const esbuild = await import('esbuild');
  const entry = join(outDir, `${name}-entry.ts`);
  const runner = (f: string) => JSON.stringify(join(root, 'src/runner', f));
  writeFileSync(entry, `export { buildAgents, seatConfigs } from ${runner('lineup.ts')};\nexport { runGame } from ${runner('run-game.ts')};\n`);
  const outfile = join(outDir, `${name}.mjs`);
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
    tsconfig: join(root, 'tsconfig.json'),
    // Bundled CommonJS packages (Prisma's types are never reached here) may still call require.
    banner: { js: "import { createRequire as __req } from 'node:module'; const require = __req(import.meta.url);" },
  });
  return outfile;
}

/** Plays one side in a fresh process and returns its line. */
function playSide(bundle: string, o: AgainstOptions): SideRun {
  const tsx = resolve(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx');
  const out = execFileSync(tsx, [join(import.meta.dirname, 'engine-side.ts'), bundle, o.agent, String(o.warmup), String(o.games)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
  return SideRun.parse(JSON.parse(out.trim().split('\n').pop()!));
}

type Totals = { decisions: number; events: number; cpuMs: number; hashes: Set<string> };
const totals = (): Totals => ({ decisions: 0, events: 0, cpuMs: 0, hashes: new Set() });
const add = (t: Totals, r: SideRun) => {
  t.decisions += r.decisions;
  t.events += r.events;
  t.cpuMs += r.cpu_ms;
  t.hashes.add(r.hash);
};
const perSec = (n: number, ms: number) => Math.round((n / ms) * 1000);
const rates = (t: Totals) => ({ decisions_per_s: perSec(t.decisions, t.cpuMs), events_per_s: perSec(t.events, t.cpuMs) });

/**
 * Plays `rounds` rounds; in each, one process per engine (the first alternates) warms up on
 * `warmup` games and then plays the same `games` seeded games. Returns the JSON line bench:engine
 * prints, with each round's ratio so the spread is visible.
 *
 * @example await compareAgainst(process.cwd(), { against: '381e8eb', agent: 'random', games: 400, rounds: 3, warmup: 200 }, resolveCommit(process.cwd(), '381e8eb')!)
 */
export async function compareAgainst(root: string, o: AgainstOptions, commit: string): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'tiltyard-engine-'));
  const tree = join(dir, 'tree');
  git(root, 'worktree', 'add', '--detach', tree, commit);
  try {
    symlinkSync(resolve(root, 'node_modules'), join(tree, 'node_modules'));
    const beforeBundle = await bundleEngine(tree, dir, 'before');
    const afterBundle = await bundleEngine(root, dir, 'after');
    const b = totals();
    const a = totals();
    const roundRatios: number[] = [];
    for (let r = 0; r < o.rounds; r++) {
      const first = r % 2 === 0 ? 'before' : 'after';
      const one = playSide(first === 'before' ? beforeBundle : afterBundle, o);
      const two = playSide(first === 'before' ? afterBundle : beforeBundle, o);
      const [br, ar] = first === 'before' ? [one, two] : [two, one];
      add(b, br);
      add(a, ar);
      roundRatios.push(Math.round((perSec(ar.decisions, ar.cpu_ms) / perSec(br.decisions, br.cpu_ms)) * 1000) / 1000);
      process.stderr.write(`bench:engine: round ${r + 1}/${o.rounds}: ratio ${roundRatios[r]}\n`);
    }
    const br = rates(b);
    const ar = rates(a);
    return {
      bench: 'engine',
      agents: o.agent,
      seats: 4,
      against: o.against,
      against_commit: commit.slice(0, 12),
      build: 'esbuild bundle per side, one process per side and round',
      games: o.games * o.rounds,
      warmup_games: o.warmup,
      timing: 'cpu',
      before: br,
      after: ar,
      ratio: Math.round((ar.decisions_per_s / br.decisions_per_s) * 1000) / 1000,
      round_ratios: roundRatios,
      // Every process of a side must log the same bytes, and both sides the same as each other.
      log_hash_equal: b.hashes.size === 1 && a.hashes.size === 1 && [...b.hashes][0] === [...a.hashes][0],
      node: process.version,
    };
  } finally {
    git(root, 'worktree', 'remove', '--force', tree);
    rmSync(dir, { recursive: true, force: true });
  }
}
