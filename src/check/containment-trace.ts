import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readAttempts, traceAvailability, within, type Attempt, type AttemptRule } from '../agents/sandbox/index.js';
import type { AgentSpec } from '../agents/seat/agent-spec.js';
import { defaultWorkRoot } from '../agents/seat/external-seat.js';
import { runConformance } from './conformance.js';
import { raw, type Raw } from './finding.js';
import type { Sample } from './invocation.js';

/** What each rule forbids, and how to fix an agent that broke it. */
const RULES: Record<AttemptRule, { what: string; hint: string }> = {
  proc_secrets: {
    what: "tried to read another process's environment, command line or memory (rule: /proc/<pid>/environ, cmdline and mem of other processes are off limits)",
    hint: 'everything an agent may know comes on stdin; never read /proc/<pid> of other processes (the server holds secrets there)',
  },
  outside_view: {
    what: "tried to read or list outside its sandbox's view (rule: an agent sees the system, its skill folder and its work dir only — not the project, the data folder, the home folder or other seats' work dirs)",
    hint: 'read only your skill folder (TILTYARD_SKILL_DIR) and your work dir (the current directory)',
  },
  write_outside: {
    what: 'tried to write outside its work dir (rule: an agent writes only in its work dir and its private /tmp)',
    hint: 'write files in the current directory (your work dir) or /tmp only',
  },
  network: {
    what: 'tried to connect without the network opt-in (rule: no network unless SKILL.md says metadata.network: "true")',
    hint: 'set metadata.network: "true" in SKILL.md if the agent calls its own model; otherwise do not connect',
  },
  process_limit: {
    what: 'hit the process limit: starting a process or thread was refused (rule: at most 128 processes and threads per sandbox)',
    hint: 'start few processes and threads: no process pools sized to the machine, no fork loops',
  },
  memory_limit: {
    what: 'hit the memory limit: an allocation was refused (rule: 1 GiB by default, metadata.memory_mb lowers it, the server caps it)',
    hint: 'stay under the memory limit: stream or sample instead of loading everything',
  },
  left_behind: {
    what: 'left processes running after it exited (rule: everything an agent starts ends with its invocation; the sandbox killed them)',
    hint: 'wait for (or stop) every process you start before you exit; do not daemonize (setsid, double fork)',
  },
};

/** Which protected place a path lies in, for the message. */
function place(target: string, places: ReadonlyArray<[string, string]>): string {
  const hit = places.find(([, dir]) => within(target, dir));
  return hit ? `${target} (${hit[0]})` : target;
}

/**
 * One finding per rule the agent's traced runs broke, naming what it aimed at (paths, addresses,
 * programs; the first five) and the rule.
 */
export function attemptFindings(attempts: readonly Attempt[], places: ReadonlyArray<[string, string]> = []): Raw[] {
  const out: Raw[] = [];
  for (const rule of Object.keys(RULES) as AttemptRule[]) {
    const hits = attempts.filter((a) => a.rule === rule);
    if (hits.length === 0) continue;
    const targets = [...new Set(hits.map((a) => place(a.target, places)))];
    const shown = targets.slice(0, 5).join(', ') + (targets.length > 5 ? ` and ${targets.length - 5} more` : '');
    out.push(raw('containment', 'error', `containment/${rule}`, `containment/${rule}: the agent ${RULES[rule].what}: ${shown} (traced: ${hits[0]!.call})`, RULES[rule].hint));
  }
  return out;
}

/** Sandbox codes whose stderr guess a trace of the same rule makes redundant. */
export const TRACED_CODES: Partial<Record<AttemptRule, string>> = {
  memory_limit: 'sandbox/memory_limit',
  process_limit: 'sandbox/process_limit',
  network: 'sandbox/network_denied',
};

/**
 * agent-check's traced pass: the window cases once more, each sandboxed process under strace, and
 * every attempt the sandbox stopped (or would have) as a finding. Without a usable strace, one
 * warning says so. Resolves with the findings and the rules they broke.
 */
export async function traceContainment(agent: AgentSpec & { kind: 'skill' }, samples: readonly Sample[], seed: number): Promise<{ findings: Raw[]; rules: Set<AttemptRule> }> {
  const tracer = traceAvailability();
  if (!tracer.ok) {
    const finding = raw('containment', 'warning', 'containment/untraced', `the agent's attempts were not traced (${tracer.reason}): reads, writes and connections its sandbox refused are not reported`, 'install strace (apt-get install strace) to see what the agent tries');
    return { findings: [finding], rules: new Set() };
  }
  const root = mkdtempSync(join(tmpdir(), 'tiltyard-check-trace-'));
  try {
    const traces = join(root, 'trace');
    mkdirSync(traces);
    await runConformance(agent, samples, { gameSeed: seed, workRoot: join(root, 'work'), sandboxTrace: traces });
    const attempts = readAttempts(traces);
    const places: Array<[string, string]> = [
      ['the project folder', resolve('.')],
      ['the data folder', resolve(process.env['TILTYARD_DATA_DIR'] ?? 'data')],
      ["another seat's work dir", join(root, 'work')],
      ["another seat's work dir", defaultWorkRoot()],
      ['the home folder', homedir()],
    ];
    return { findings: attemptFindings(attempts, places), rules: new Set(attempts.map((a) => a.rule)) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
