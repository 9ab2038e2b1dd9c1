import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a traced sandbox was allowed, written beside its trace so the trace can be judged alone:
 * the agent's command (its real path), what it may read besides the system, where it may write,
 * and whether it may use the network.
 */
export type TraceView = { command: string; readOnly: string[]; workDir: string; network: boolean };

export type TraceAvailability = { ok: true; strace: string } | { ok: false; reason: string };

/** Beside each run's trace files. */
export const TRACE_VIEW_FILE = 'view.json';
/** strace -ff writes `<prefix>.<host pid>`, one file per process and thread. */
export const TRACE_PREFIX = 'trace';

let cached: TraceAvailability | null = null;

/**
 * Whether strace can follow an agent into its sandbox here, probed once per process: it must be
 * installed, translate PID-namespace pids (strace ≥ 5.9) and be allowed to ptrace (containers
 * and Yama can forbid it).
 */
export function traceAvailability(): TraceAvailability {
  return (cached ??= probe());
}

function probe(): TraceAvailability {
  const strace = ['/usr/bin/strace', '/bin/strace', '/usr/local/bin/strace'].find((p) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!strace) return { ok: false, reason: 'strace is not installed' };
  try {
    execFileSync(strace, ['--pidns-translation', '-f', '-qq', '-e', 'trace=%file,%network,%process,mmap,mremap', '-o', '/dev/null', '--', 'true'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
  } catch (e) {
    const stderr = String((e as { stderr?: Buffer }).stderr ?? '').trim();
    return { ok: false, reason: `strace cannot trace processes here: ${stderr.split('\n')[0] || (e as Error).message}` };
  }
  return { ok: true, strace };
}

/**
 * The confined argv wrapped in strace: every process and thread of the sandbox (bwrap's own setup
 * included, told apart later) gets its own file in a fresh folder under `root`, outside the
 * sandbox, so the agent can neither see nor rewrite it. Traced: file and process calls, network
 * calls, and mmap/mremap (whose ENOMEM is the memory limit biting).
 *
 * @example
 * traced('/usr/bin/strace', bwrapArgv(plan), '/tmp/check-trace', view)
 * // ['/usr/bin/strace', '--pidns-translation', '-f', '-ff', …, '-o', '/tmp/check-trace/run-x1/trace', '/usr/bin/bwrap', …]
 */
export function traced(strace: string, argv: readonly string[], root: string, view: TraceView): string[] {
  const dir = mkdtempSync(join(root, 'run-'));
  writeFileSync(join(dir, TRACE_VIEW_FILE), JSON.stringify(view));
  return [
    strace,
    '--pidns-translation',
    // The kernel stops the agent only at the traced calls, not at every one (≈ 4× faster here).
    '--seccomp-bpf',
    '-f',
    '-ff',
    '-q',
    '-ttt',
    '-s',
    '4096',
    '-e',
    'trace=%file,%network,%process,mmap,mremap',
    '-e',
    'signal=none',
    '-o',
    join(dir, TRACE_PREFIX),
    '--',
    ...argv,
  ];
}
