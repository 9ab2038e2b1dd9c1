import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { z } from 'zod';

/** The repository this file is in. */
export const repoRoot = join(import.meta.dirname, '..', '..');

const Plan = z.object({
  simulations: z.array(z.array(z.string())).min(1),
  games: z.array(z.object({ id: z.string(), flags: z.array(z.string()), cold: z.boolean() })).min(1),
});
export type ParityPlan = z.infer<typeof Plan>;

/** What every runtime is asked to do (parity-plan.json; scripts/runtime-parity/write-artifacts.mjs follows it too). */
export const plan: ParityPlan = Plan.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'parity-plan.json'), 'utf8')));

/** A runtime: a node binary and the checkout (bin/tiltyard.js over its dist/) it runs. */
export type Runtime = { node: string; root: string };

type Run = { code: number; stdout: string; stderr: string };

/** Runs `tiltyard` of the runtime's checkout under its node, in cwd, with env added (undefined unsets). */
export function tiltyardOn(rt: Runtime, cwd: string, env: Record<string, string | undefined>, ...args: string[]): Promise<Run> {
  const full: NodeJS.ProcessEnv = { ...process.env, TILTYARD_DEBUG: '' };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete full[k];
    else full[k] = v;
  }
  return new Promise((resolve, reject) => {
    execFile(rt.node, [join(rt.root, 'bin', 'tiltyard.js'), ...args], { cwd, env: full, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? error.code : 0;
      if (typeof code !== 'number') reject(new Error(`could not run ${rt.node}: ${String(code)}`, { cause: error }));
      else resolve({ code, stdout, stderr });
    });
  });
}

/** `simulate --json` with these flags under the runtime: its logHash. */
export async function logHashOn(rt: Runtime, cwd: string, flags: readonly string[]): Promise<string> {
  const r = await tiltyardOn(rt, cwd, {}, 'simulate', ...flags, '--json');
  if (r.code !== 0) throw new Error(`simulate ${flags.join(' ')} under ${rt.node} exited ${r.code}: ${r.stderr}`);
  return z.object({ logHash: z.string() }).parse(JSON.parse(r.stdout)).logHash;
}

const Report = z.object({ assertions: z.array(z.object({ name: z.string(), status: z.string(), details: z.string() })) });

/**
 * `verify <id> --json` under the runtime against the store env names (DATABASE_URL or
 * TILTYARD_DATA_DIR): the names of the assertions that did not pass, or the reason it could not
 * verify at all. Empty means verified.
 */
export async function verifyFailures(rt: Runtime, cwd: string, env: Record<string, string | undefined>, gameId: string): Promise<string[]> {
  const r = await tiltyardOn(rt, cwd, env, 'verify', gameId, '--json');
  if (!r.stdout.trim()) return [`verify ${gameId} exited ${r.code} without a report: ${r.stderr.trim()}`];
  const failed = Report.parse(JSON.parse(r.stdout)).assertions.filter((a) => a.status !== 'pass');
  return failed.map((a) => `${gameId}: ${a.name} — ${a.details}`);
}

/**
 * The node binaries other than this one to compare against: TILTYARD_NODES (a PATH-style list)
 * when set, else those .ci/node-runtime cached under .ci/cache.
 */
export function otherNodes(): string[] {
  const listed = process.env['TILTYARD_NODES'];
  const nodes = listed
    ? listed.split(delimiter).filter(Boolean)
    : (() => {
        const cache = join(repoRoot, '.ci', 'cache');
        if (!existsSync(cache)) return [];
        return readdirSync(cache)
          .filter((d) => d.startsWith('node-'))
          .map((d) => join(cache, d, 'bin', 'node'))
          .filter((p) => existsSync(p));
      })();
  return nodes.filter((p) => p !== process.execPath);
}
