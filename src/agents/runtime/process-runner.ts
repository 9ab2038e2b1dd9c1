import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable } from 'node:stream';
import {
  NdjsonSplitter,
  TOOL_PROTOCOL_VERSION,
  DEFAULT_MAX_OUTPUT_BYTES,
  type ToolEvent,
  type ToolInput,
} from '../../protocol/index.js';
import { confine, DiskWatch, limitHits, quotaFailure, unwrapExit, type Confined, type SandboxSpec } from '../sandbox/index.js';
import { InvocationCollector } from './collector.js';
import type { Failure, InvocationOutcome } from './outcome.js';
import { sandboxInitPid } from './sandbox-pids.js';
import { spawnConfined } from './spawn-confined.js';

export const DEFAULT_KILL_GRACE_MS = 500;
export const DEFAULT_MAX_STDERR_BYTES = 64 * 1024;
/** How long stdout may stay open after the tool exited before we stop reading it. */
export const HELD_OPEN_GRACE_MS = 100;
/**
 * The same in a sandbox, where nothing can hold stdout for long: bwrap exits as soon as the agent
 * does, its init (which shares stdout) and everything left die with it a moment later — a moment
 * that can pass 100 ms on a loaded machine, and cutting the pipe then loses the agent's last lines.
 */
export const SANDBOX_TEARDOWN_GRACE_MS = 2_000;
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';
const NO_UI_EVENTS: ReadonlySet<string> = new Set();

export type ProcessLimits = {
  maxLineBytes: number;
  maxOutputBytes: number;
  maxStderrBytes: number;
};

/** One invocation of an external tool. */
export type ProcessSpec = {
  /** Executable and arguments; no shell is involved. */
  argv: string[];
  cwd: string;
  /** The whole environment of the tool; build it with minimalEnv() so no server secret leaks. */
  env: Record<string, string>;
  /** Written to stdin as one JSON line (seed 001 §6), then stdin is closed. */
  input: ToolInput;
  /** Wall-clock budget from spawn: then SIGTERM to the group, SIGKILL after killGraceMs. */
  deadlineMs: number;
  killGraceMs?: number;
  limits?: Partial<ProcessLimits>;
  knownUiEvents?: ReadonlySet<string>;
  /** Where asset paths must stay; default cwd. */
  workDir?: string;
  signal?: AbortSignal;
  /** Each accepted event as it arrives (live tracing); called up to and including done. */
  onEvent?: (event: ToolEvent) => void;
  /**
   * How to confine it (src/agents/sandbox): the skill folder, network opt-in, limits. The policy
   * (TILTYARD_SANDBOX) decides whether it is confined at all; cwd is its writable work dir, and
   * its CPU time defaults to its deadline's.
   */
  sandbox?: SandboxSpec;
};

/**
 * Runs a tool as a process that leads its own process group, speaks the NDJSON tool protocol to
 * it, and resolves exactly once with what happened. Tool misbehaviour — bad output, a hang, a
 * crash, a missing executable — is reported in the outcome, never thrown. Whatever the tool
 * forked inside its group does not outlive it.
 *
 * @example
 * const cwd = mkdtempSync(join(tmpdir(), 'tool-'));
 * const outcome = await runProcess({
 *   argv: ['python3', 'scripts/agent.py'], cwd, env: minimalEnv(cwd), deadlineMs: 5_000,
 *   input: { requestId: 'r1', tool: 'my-agent', operation: 'action', input: {} },
 * });
 * if (outcome.ok) use(outcome.state);
 */
export function runProcess(spec: ProcessSpec): Promise<InvocationOutcome> {
  return new Promise((resolve) => new ProcessRun(spec, resolve).start());
}

/**
 * The only environment a tool gets: nothing is inherited from the server's process.env but PATH,
 * so database URLs, admin tokens and other skills' keys cannot leak. `extra` adds (or overrides).
 *
 * @example
 * minimalEnv('/tmp/seat1', { OPENAI_API_KEY: key }); // { PATH, LANG, HOME, TMPDIR, TILTYARD_PROTOCOL_VERSION, OPENAI_API_KEY }
 */
export function minimalEnv(
  cwd: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: process.env['PATH'] || DEFAULT_PATH,
    LANG: 'C.UTF-8',
    HOME: cwd,
    TMPDIR: cwd,
    TILTYARD_PROTOCOL_VERSION: TOOL_PROTOCOL_VERSION,
    ...extra,
  };
}

/** The state of one run; listeners are arrow fields so they are bound once, without closures per event. */
class ProcessRun {
  private readonly started = performance.now();
  private readonly collector: InvocationCollector;
  private readonly splitter: NdjsonSplitter;
  private readonly maxOutputBytes: number;
  private readonly maxStderrBytes: number;
  private child: ChildProcessWithoutNullStreams | null = null;
  private confined: Confined & { ok: true } = { ok: true, argv: [], sandboxed: false };
  /** The work dir's quota, watched while a sandboxed tool runs. */
  private disk: DiskWatch | null = null;
  private deadline: NodeJS.Timeout | null = null;
  private escalation: NodeJS.Timeout | null = null;
  private heldOpen: NodeJS.Timeout | null = null;
  private stdoutBytes = 0;
  private stderrChunks: Buffer[] = [];
  private stderrBytes = 0;
  private stderrTruncated = false;
  /** Stdout is no longer parsed: the invocation broke and its group was killed. */
  private halted = false;
  private terminating = false;
  private exited = false;
  private settled = false;

  constructor(
    private readonly spec: ProcessSpec,
    private readonly resolve: (outcome: InvocationOutcome) => void,
  ) {
    const limits = spec.limits ?? {};
    this.maxOutputBytes = limits.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.maxStderrBytes = limits.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES;
    this.splitter = new NdjsonSplitter({
      maxLineBytes: limits.maxLineBytes,
      maxOutputBytes: this.maxOutputBytes,
    });
    this.collector = new InvocationCollector({
      workDir: spec.workDir ?? spec.cwd,
      knownUiEvents: spec.knownUiEvents ?? NO_UI_EVENTS,
      onEvent: spec.onEvent,
    });
  }

  start(): void {
    const { signal } = this.spec;
    if (this.spec.argv[0] === undefined || this.spec.argv[0] === '') {
      return this.settleEarly({
        code: 'process/spawn_failed',
        message: 'cannot start a tool: argv is empty',
      });
    }
    if (signal?.aborted) {
      return this.settleEarly({ code: 'process/aborted', message: 'cancelled before it started' });
    }
    // Serialise before spawning: an unserialisable input is the caller's bug and must not leave a process behind.
    const stdin = `${JSON.stringify(this.spec.input)}\n`;
    const confined = confine(this.spec.argv, this.spec.cwd, { cpuSeconds: Math.ceil(this.spec.deadlineMs / 1000) + 1, ...this.spec.sandbox }, this.spec.env['PATH']);
    if (!confined.ok) return this.settleEarly(confined.failure);
    this.confined = confined;
    let started;
    try {
      started = spawnConfined(confined, this.spec.cwd, this.spec.env);
    } catch (e) {
      return this.settleEarly(spawnFailure(confined.argv[0]!, e));
    }
    const { child, network } = started;
    this.child = child;
    // Until the network is attached the agent waits; without it, it must not run at all.
    network?.ready.then((failed) => {
      if (failed && !this.exited) this.halt(failed);
    }, ignore);
    if (confined.sandboxed) this.disk = new DiskWatch(confined.workDir, confined.quota, (usage) => this.halt(quotaFailure(usage, confined.quota)));
    child.once('error', this.onError);
    child.once('exit', this.onExit);
    child.once('close', this.onClose);
    child.stdout.on('data', this.onStdout);
    child.stderr.on('data', this.onStderr);
    // A tool that never reads stdin makes this write fail with EPIPE; that is its right.
    child.stdin.on('error', ignore);
    child.stdin.end(stdin);
    this.deadline = setTimeout(this.onDeadline, this.spec.deadlineMs);
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  private readonly onStdout = (chunk: Buffer): void => {
    this.stdoutBytes += chunk.length;
    if (this.halted) return;
    if (this.splitter.finished) {
      // Parsing ended after done (a bad line there is only a violation); the output cap still holds.
      if (this.stdoutBytes > this.maxOutputBytes) {
        this.halt({
          code: 'protocol/output_too_large',
          message: `stdout exceeded ${this.maxOutputBytes} bytes`,
        });
      }
      return;
    }
    for (const line of this.splitter.push(chunk)) {
      const verdict = line.ok
        ? this.collector.accept(line.value)
        : this.collector.reject(line.failure);
      if (verdict === 'stop') return this.halt(null);
    }
    // Once the tool has exited, what is left (a pipe's worth, bar a stray writer) is drained at
    // once: yielding then would let the held-open timer cut off lines already written.
    if (this.child && !this.exited) yieldBetweenChunks(this.child.stdout);
  };

  private readonly onStderr = (chunk: Buffer): void => {
    // Keep reading past the cap (a blocked stderr would stall the tool) but keep nothing more.
    const room = this.maxStderrBytes - this.stderrBytes;
    if (room <= 0) {
      this.stderrTruncated = true;
      return;
    }
    if (chunk.length > room) this.stderrTruncated = true;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.stderrChunks.push(kept);
    this.stderrBytes += kept.length;
  };

  private readonly onDeadline = (): void => {
    this.deadline = null;
    this.collector.fail({
      code: 'process/timeout',
      message: `still running after its ${this.spec.deadlineMs} ms deadline; process group terminated`,
    });
    this.terminate();
  };

  private readonly onAbort = (): void => {
    this.collector.fail({
      code: 'process/aborted',
      message: 'cancelled by the caller; process group terminated',
    });
    this.terminate();
  };

  /** SIGTERM lets a tool clean up; SIGKILL follows for one that ignores it. */
  private terminate(): void {
    if (this.terminating || this.exited) return;
    this.terminating = true;
    // In a sandbox the agent leads its own group under bwrap's init: SIGTERM goes there, so the
    // agent may clean up (bwrap itself would just die and take everything with it at once).
    // Traced (agent-check), the child is strace and bwrap its only child.
    const bwrap = this.confined.sandboxed && this.confined.traced && this.child?.pid !== undefined ? sandboxInitPid(this.child.pid) : this.child?.pid;
    const init = this.confined.sandboxed && bwrap !== undefined && bwrap !== null ? sandboxInitPid(bwrap) : null;
    if (init !== null) killQuietly(-init, 'SIGTERM');
    else this.killGroup('SIGTERM');
    const grace = this.spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.escalation = setTimeout(() => {
      this.escalation = null;
      this.collector.note({
        code: 'process/sigkill',
        message: `ignored SIGTERM for ${grace} ms; process group killed`,
      });
      this.killGroup('SIGKILL');
    }, grace);
  }

  /** Processing is over (a protocol failure): kill the group at once and stop reading. */
  private halt(failure: Failure | null): void {
    if (failure) this.collector.fail(failure);
    this.halted = true;
    this.killGroup('SIGKILL');
    this.child?.stdout.destroy();
  }

  private readonly onExit = (): void => {
    this.exited = true;
    this.clearTimers();
    // Whatever the tool forked into its group must not outlive it.
    this.killGroup('SIGKILL');
    const child = this.child;
    if (child && !(child.stdout.closed && child.stderr.closed)) {
      this.heldOpen = setTimeout(this.onHeldOpen, this.confined.sandboxed ? SANDBOX_TEARDOWN_GRACE_MS : HELD_OPEN_GRACE_MS);
    }
  };

  /** Something outside the group (it escaped with setsid) still holds stdout: stop waiting for it. */
  private readonly onHeldOpen = (): void => {
    this.heldOpen = null;
    this.collector.note({
      code: 'process/stdout_held_open',
      message: `stdout/stderr still open ${this.confined.sandboxed ? SANDBOX_TEARDOWN_GRACE_MS : HELD_OPEN_GRACE_MS} ms after the tool exited (a process outside its group holds them); stopped reading`,
    });
    this.child?.stdout.destroy();
    this.child?.stderr.destroy();
  };

  private readonly onError = (err: Error): void => {
    // Only a failed spawn matters here: we never use child.kill() or IPC, the other sources of 'error'.
    if (this.child?.pid === undefined) this.settleEarly(spawnFailure(this.spec.argv[0] ?? '', err));
  };

  private readonly onClose = (code: number | null, signal: NodeJS.Signals | null): void => {
    if (this.settled) return;
    // A trailing line without a newline still counts — unless we cut the tool off mid-line.
    if (!this.halted && !this.collector.failed) {
      const exit = this.exitOf(code, signal);
      const died = exit.signal !== null || (exit.exitCode !== null && exit.exitCode !== 0);
      for (const line of this.splitter.end()) {
        if (line.ok) this.collector.accept(line.value);
        // A tool that died mid-write (a crash, its memory limit) left half a line: the death is
        // the cause (finish() names the exit), the cut line only a consequence.
        else if (died) this.collector.note({ code: 'process/cut_line', message: `its last line was cut off when it ended: ${line.failure.message}` });
        else this.collector.reject(line.failure);
      }
    }
    this.settle(code, signal);
  };

  private settleEarly(failure: Failure): void {
    this.collector.fail(failure);
    this.settle(null, null);
  }

  private settle(exitCode: number | null, signal: string | null): void {
    if (this.settled) return;
    this.settled = true;
    this.clearTimers();
    this.spec.signal?.removeEventListener('abort', this.onAbort);
    const disk = this.disk;
    if (!disk) return this.conclude(exitCode, signal);
    // The last writes count too: measured once the tool is gone, emptied when over.
    const quota = this.confined.sandboxed ? this.confined.quota : null;
    void disk.finish().then(
      (over) => {
        if (over && quota) {
          const failure = quotaFailure(over, quota);
          this.collector.fail(failure);
          // Seen apart when something else failed first (a write refused with EFBIG, say).
          if (this.collector.failed?.code !== failure.code) this.collector.note(failure);
        }
        this.conclude(exitCode, signal);
      },
      () => this.conclude(exitCode, signal),
    );
  }

  private conclude(exitCode: number | null, signal: string | null): void {
    const stderr =
      this.stderrChunks.length === 0 ? '' : Buffer.concat(this.stderrChunks).toString('utf8');
    this.stderrChunks = [];
    const confined = this.confined;
    const exit = this.exitOf(exitCode, signal);
    // The facts are taken now; the outcome waits for the asset checks still queued (finish never rejects).
    void this.collector
      .finish({
        ...exit,
        stderr,
        stderrTruncated: this.stderrTruncated,
        durationMs: performance.now() - this.started,
        stdoutBytes: this.stdoutBytes,
      })
      .then((outcome) => {
        if (confined.sandboxed) outcome.violations.push(...limitHits({ signal: exit.signal, stderr, network: confined.network, cpuSeconds: confined.limits.cpuSeconds }));
        this.resolve(outcome);
      });
  }

  /** The tool's own exit: in a sandbox, bwrap's code or signal stands for the agent's (unwrapExit). */
  private exitOf(exitCode: number | null, signal: string | null): { exitCode: number | null; signal: string | null } {
    return this.confined.sandboxed ? unwrapExit(exitCode, signal) : { exitCode, signal };
  }

  private clearTimers(): void {
    if (this.deadline) clearTimeout(this.deadline);
    if (this.escalation) clearTimeout(this.escalation);
    if (this.heldOpen) clearTimeout(this.heldOpen);
    this.deadline = this.escalation = this.heldOpen = null;
  }

  private killGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid !== undefined) killQuietly(-pid, signal);
  }
}

/**
 * Holds `stream` until the next turn of the event loop. libuv reads a pipe up to 32 times (64 KiB
 * each) before it returns to the loop, so an agent writing fast had up to 2 MiB of lines parsed
 * and checked back to back while every timer, request and socket waited; one chunk a turn bounds
 * that to 64 KiB.
 */
export function yieldBetweenChunks(stream: Readable): void {
  stream.pause();
  setImmediate(() => stream.resume());
}

/** kill(2) where ESRCH (the group is already empty) is fine. */
export function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

function spawnFailure(command: string, err: unknown): Failure {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const why =
    code === 'ENOENT'
      ? 'not found (check the path, PATH and that the working directory exists)'
      : code === 'EACCES'
        ? 'permission denied (is it executable?)'
        : err instanceof Error
          ? err.message
          : String(err);
  return {
    code: 'process/spawn_failed',
    message: `cannot start ${JSON.stringify(command)}: ${code ? `${code}, ` : ''}${why}`,
  };
}

function ignore(): void {}
