import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assertCanSeatSubprocessAgents, confine, INSTALL_BUBBLEWRAP, SANDBOX_CODES, sandboxDecision, UNSANDBOXED, type AttemptRule } from '../agents/sandbox/index.js';
import { TRACED_CODES } from './containment-trace.js';
import { skillSandbox } from '../agents/seat/skill-sandbox.js';
import type { Skill } from '../agents/skills/load-skill.js';
import { raw, type CheckRun, type Raw } from './finding.js';
import type { Invocation } from './invocation.js';

const HINTS: Record<string, string> = {
  [SANDBOX_CODES.memory]: 'stay under the memory limit (1 GiB by default; metadata.memory_mb lowers it, the server caps it): stream or sample instead of loading everything',
  [SANDBOX_CODES.processes]: 'start few processes and threads (the sandbox allows 128): no process pools sized to the machine, no fork loops',
  [SANDBOX_CODES.cpu]: "keep CPU time within the decision's deadline: the sandbox kills a process at deadline + 1 s of CPU",
  [SANDBOX_CODES.network]: 'the sandbox has no network unless SKILL.md says metadata.network: "true" (for an agent that calls its own model); otherwise do not connect',
  [SANDBOX_CODES.disk]: 'keep the work dir under its disk quota (64 MiB and 10,000 files by default; TILTYARD_SANDBOX_DISK_MB on the server): delete what you no longer need',
};

/** The containment check of an agent the sandbox refuses to run here: one error, with the reason. */
function refusedRun(message: string): CheckRun {
  return { check: 'containment', findings: [raw('containment', 'error', 'sandbox/refused', `the agent cannot run here: ${message}`, `${INSTALL_BUBBLEWRAP}, then run agent-check again`)], skipped: null };
}

/**
 * The containment check when the sandbox cannot hold this skill here (no working bubblewrap, or
 * its network opt-in without slirp4netns): the agent is refused, as a seat would be, and nothing
 * else can be checked. Null when it can run.
 */
export function containmentRefusal(skill: Skill): CheckRun | null {
  try {
    assertCanSeatSubprocessAgents({ network: skill.sandbox.network });
    return null;
  } catch (e) {
    return refusedRun((e as Error).message);
  }
}

/**
 * What the sandbox stopped during the window cases: a process killed by the CPU limit (certain),
 * and — read from what the agent printed — a failed allocation (memory limit), a failed fork
 * (process limit), a failed connection without the network opt-in. Reads of hidden paths (the
 * server's /proc, the project, the data folder, other seats) fail with ENOENT inside the sandbox
 * and are invisible from outside; `probeContainment` shows instead that they would fail.
 */
export function containmentFindings(inv: Invocation): Raw[] {
  return inv.violations
    .filter((v) => v.code.startsWith('sandbox/'))
    .map((v) => raw('containment', 'error', v.code, `${v.code}: ${v.message}`, HINTS[v.code] ?? 'see docs/agents.md, "The sandbox"', inv.window));
}

/** A script that prints each of the given files a process in the skill's sandbox can read. */
const PROBE = 'for p in "$@"; do head -c 1 "$p" >/dev/null 2>&1 && echo "$p"; done; exit 0';

/** A file the folder really holds on the host (a folder's skeleton inside the sandbox holds none). */
function someFile(dir: string): string[] {
  try {
    const file = readdirSync(dir, { withFileTypes: true }).find((e) => e.isFile());
    return file ? [join(dir, file.name)] : [];
  } catch {
    return [];
  }
}

/**
 * The containment check: what the sandbox stopped during the window cases (`runs`), what the
 * traced pass saw the agent try (`traced`), and agent-check's own probe: a shell in exactly the
 * sandbox the skill gets tries to read the server's /proc entries (environ, cmdline, mem), the
 * project folder, the data folder and the home folder. Anything it reaches is a containment error.
 * Resolves with the check's run.
 */
export async function probeContainment(skill: Skill, runs: readonly Invocation[], traced: { findings: Raw[]; rules: ReadonlySet<AttemptRule> } | null = null): Promise<CheckRun> {
  // Where the trace saw a limit bite, its finding is certain: the stderr guess for it goes.
  const known = new Set([...(traced?.rules ?? [])].map((r) => TRACED_CODES[r]));
  const findings: Raw[] = [...runs.flatMap(containmentFindings).filter((f) => !known.has(f.key)), ...(traced?.findings ?? [])];
  const decision = sandboxDecision();
  if (decision.kind === 'refused') return refusedRun(decision.message);
  if (decision.kind === 'off') {
    findings.push(raw('containment', 'warning', 'sandbox/off', `the agent ran without a sandbox: ${UNSANDBOXED}`, 'unset TILTYARD_SANDBOX: subprocess agents then run in bubblewrap (apt-get install bubblewrap)'));
    return { check: 'containment', findings, skipped: 'UNSANDBOXED (TILTYARD_SANDBOX=off): nothing confined the agent, nothing was checked' };
  }
  const work = mkdtempSync(join(tmpdir(), 'tiltyard-probe-'));
  try {
    const pid = process.pid;
    const folders = [resolve('.'), resolve(process.env['TILTYARD_DATA_DIR'] ?? 'data'), homedir()];
    const places = [`/proc/${pid}/environ`, `/proc/${pid}/cmdline`, `/proc/${pid}/mem`, ...folders.flatMap(someFile)];
    // Reads only: the probe needs no network, and execFile cannot wait for one to be attached.
    const confined = confine(['/bin/sh', '-c', PROBE, 'probe', ...places], work, { ...skillSandbox(skill), network: false });
    if (!confined.ok) {
      findings.push(raw('containment', 'error', 'sandbox/probe', `could not start the containment probe: ${confined.failure.message}`, 'run tiltyard agent-check again; check that bubblewrap works (bwrap --ro-bind / / true)'));
      return { check: 'containment', findings, skipped: null };
    }
    const probe = await new Promise<{ ok: true; reached: string[] } | { ok: false; message: string }>((done) =>
      execFile(confined.argv[0]!, confined.argv.slice(1), { cwd: work, env: { PATH: '/usr/bin:/bin' }, timeout: 10_000 }, (err, stdout, stderr) =>
        done(err ? { ok: false, message: stderr.trim() || err.message.split('\n')[0]! } : { ok: true, reached: stdout.split('\n').filter(Boolean) }),
      ),
    );
    if (!probe.ok) {
      findings.push(raw('containment', 'warning', 'sandbox/probe', `the containment probe did not run: ${probe.message}`, 'run tiltyard agent-check again; check that bubblewrap works here (bwrap --ro-bind / / true)'));
      return { check: 'containment', findings, skipped: null };
    }
    const reached = probe.reached;
    for (const place of reached)
      findings.push(raw('containment', 'error', `sandbox/reached ${place}`, `a process in this skill's sandbox can read ${place}`, 'the sandbox is not containing agents on this machine: report it with the output of bwrap --version and uname -a'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { check: 'containment', findings, skipped: null };
}
