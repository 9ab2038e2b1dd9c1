import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { NdjsonSplitter, type ToolInput } from '../../protocol/index.js';
import { confine, DiskWatch, limitHits, quotaFailure, unwrapExit, type Confined, type SandboxSpec } from '../sandbox/index.js';
import { InvocationCollector } from './collector.js';
import type { Failure, InvocationOutcome } from './outcome.js';
import { DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_STDERR_BYTES, yieldBetweenChunks, type ProcessLimits } from './process-runner.js';
import { spawnConfined } from './spawn-confined.js';

/** What a long-lived agent process is started with (the same confinement as one-shot tools). */
export type PersistentSpec = {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  killGraceMs?: number;
  limits?: Partial<ProcessLimits>;
  knownUiEvents?: ReadonlySet<string>;
  workDir?: string;
  /** How to confine it (see ProcessSpec.sandbox); its CPU time is counted over its whole life. */
  sandbox?: SandboxSpec;
};

type Pending = {
  requestId: string;
  collector: InvocationCollector;
  started: number;
  bytes: number;
  stderrFrom: number;
  timer: NodeJS.Timeout;
  resolve: (o: InvocationOutcome) => void;
};

const NO_UI_EVENTS: ReadonlySet<string> = new Set();

/**
 * The opt-in long-lived mode of the tool protocol (`metadata.mode: persistent`): one process per
 * seat answers request after request. Each request is one ToolInput line on stdin; every event the
 * agent prints must carry that request's `requestId`, and the request ends at its `done`. Events
 * for another id (or none) are violations and go nowhere. A request that times out, breaks the
 * framing or makes the process exit kills the process group (its stream can no longer be trusted);
 * the next request starts a fresh process. Requests are answered one at a time, in order.
 *
 * @example
 * const agent = new PersistentProcess({ argv: ['node', 'agent.mjs'], cwd, env: minimalEnv(cwd) });
 * const outcome = await agent.request({ requestId: 'r1', tool: 'a', operation: 'talk', input }, 2_000);
 * await agent.close();
 */
export class PersistentProcess {
  private child: ChildProcessWithoutNullStreams | null = null;
  private splitter: NdjsonSplitter | null = null;
  private pending: Pending | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private stderr = '';
  private stderrTruncated = false;
  private exit: { code: number | null; signal: string | null } | null = null;
  private spawnError: Error | null = null;
  private refused: string | null = null;
  private confined: Confined & { ok: true } = { ok: true, argv: [], sandboxed: false };
  /** The work dir's quota, watched over the whole life of a sandboxed process; done (emptied when over) after it exits. */
  private disk: DiskWatch | null = null;
  private diskDone: Promise<unknown> = Promise.resolve();
  /** A process stopped at the disk quota while no request was open: said in the next request. */
  private quotaNote: Failure | null = null;
  private strays = 0;
  private closed = false;

  constructor(private readonly spec: PersistentSpec) {}

  /** Sends one request and resolves with its outcome; never throws for agent misbehaviour. */
  request(input: ToolInput, deadlineMs: number): Promise<InvocationOutcome> {
    // A process gone (stopped at its quota, say) has its work dir measured, and emptied when over,
    // before the next one starts in it; a live one is simply asked.
    const run = this.queue.then(() => (this.child && !this.exit ? undefined : this.diskDone)).then(() => this.run(input, deadlineMs));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Ends the process: stdin closed, then SIGTERM and SIGKILL to the group. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    const child = this.child;
    if (!child || this.exit) return;
    child.stdin.end();
    await new Promise<void>((done) => {
      const kill = setTimeout(() => this.killGroup('SIGTERM', false), 200);
      const hard = setTimeout(() => this.killGroup('SIGKILL', false), 200 + (this.spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS));
      child.once('exit', () => {
        clearTimeout(kill);
        clearTimeout(hard);
        done();
      });
    });
  }

  private ensureChild(): ChildProcessWithoutNullStreams | null {
    if (this.child && !this.exit) return this.child;
    this.exit = null;
    this.spawnError = null;
    this.stderr = '';
    this.stderrTruncated = false;
    const limits = this.spec.limits ?? {};
    const maxStderr = limits.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES;
    const confined = confine(this.spec.argv, this.spec.cwd, this.spec.sandbox, this.spec.env['PATH']);
    if (!confined.ok) {
      this.refused = confined.failure.message;
      return null;
    }
    this.refused = null;
    this.confined = confined;
    let started;
    try {
      started = spawnConfined(confined, this.spec.cwd, this.spec.env);
    } catch (e) {
      this.refused = `cannot start ${this.spec.argv[0]}: ${(e as Error).message}`;
      return null;
    }
    const { child, network } = started;
    this.child = child;
    // Listeners ignore a child that has been replaced (killed after a failure, exiting late).
    const current = () => this.child === child;
    network?.ready.then((failed) => {
      if (!failed || !current()) return;
      this.finishPending(failed);
      this.killGroup('SIGKILL');
    }, () => undefined);
    if (confined.sandboxed) {
      const disk = new DiskWatch(confined.workDir, confined.quota, (usage) => {
        if (!current()) return;
        const failure = quotaFailure(usage, confined.quota);
        if (this.pending) this.finishPending(failure);
        else this.quotaNote = failure;
        this.killGroup('SIGKILL');
      });
      this.disk = disk;
      // Set now, not at the exit: a request that comes after the kill, before the exit, waits too.
      this.diskDone = new Promise((gone) => {
        child.once('exit', gone);
        child.once('error', gone);
      }).then(() => disk.finish().catch(() => undefined));
    }
    // Per-line cap only: the total cap is per request (counted in onStdout).
    this.splitter = new NdjsonSplitter({ ...(limits.maxLineBytes ? { maxLineBytes: limits.maxLineBytes } : {}), maxOutputBytes: Number.MAX_SAFE_INTEGER });
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (chunk: Buffer) => {
      if (!current()) return;
      this.onStdout(chunk);
      yieldBetweenChunks(child.stdout);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (!current()) return;
      if (this.stderr.length >= maxStderr) return void (this.stderrTruncated = true);
      this.stderr += chunk.toString('utf8').slice(0, maxStderr - this.stderr.length);
    });
    child.on('error', (e) => {
      if (!current()) return;
      this.spawnError = e;
      this.finishPending({ code: 'process/spawn_failed', message: `cannot start ${this.spec.argv[0]}: ${e.message}` });
    });
    child.on('exit', (rawCode, rawSignal) => {
      if (!current()) return;
      const { exitCode: code, signal } = confined.sandboxed ? unwrapExit(rawCode, rawSignal) : { exitCode: rawCode, signal: rawSignal };
      this.exit = { code, signal };
      if (this.pending) this.finishPending({ code: signal ? 'protocol/signal' : 'protocol/exit_code', message: `the agent process exited (${signal ?? `code ${code}`}) before answering` });
    });
    return child;
  }

  private run(input: ToolInput, deadlineMs: number): Promise<InvocationOutcome> {
    return new Promise((resolve) => {
      const collector = new InvocationCollector({ workDir: this.spec.workDir ?? this.spec.cwd, knownUiEvents: this.spec.knownUiEvents ?? NO_UI_EVENTS });
      const started = performance.now();
      const timer = setTimeout(() => {
        this.finishPending({ code: 'process/timeout', message: `no done within ${deadlineMs} ms` });
        this.killGroup('SIGKILL');
      }, deadlineMs);
      this.pending = { requestId: input.requestId, collector, started, bytes: 0, stderrFrom: this.stderr.length, timer, resolve };
      if (this.closed) return this.finishPending({ code: 'process/aborted', message: 'the agent is closed' });
      if (this.strays > 0) {
        collector.note({ code: 'persistent/stray_output', message: `${this.strays} line(s) arrived while no request was open` });
        this.strays = 0;
      }
      if (this.quotaNote) {
        collector.note({ code: this.quotaNote.code, message: `between requests: ${this.quotaNote.message}` });
        this.quotaNote = null;
      }
      const child = this.ensureChild();
      if (!child || this.spawnError) return this.finishPending({ code: 'process/spawn_failed', message: this.refused ?? `cannot start ${this.spec.argv[0]}` });
      child.stdin.write(`${JSON.stringify(input)}\n`);
    });
  }

  private onStdout(chunk: Buffer): void {
    const p = this.pending;
    if (p) {
      p.bytes += chunk.length;
      const max = this.spec.limits?.maxOutputBytes;
      if (max !== undefined && p.bytes > max) {
        this.finishPending({ code: 'protocol/output_too_large', message: `more than ${max} bytes of output for one request` });
        return this.killGroup('SIGKILL');
      }
    }
    const splitter = this.splitter;
    if (!splitter) return;
    for (const line of splitter.push(chunk)) {
      const current = this.pending;
      if (!line.ok) {
        this.finishPending(line.failure);
        return this.killGroup('SIGKILL');
      }
      if (!current) {
        this.strays++;
        continue;
      }
      const id = (line.value as { requestId?: unknown } | null)?.requestId;
      if (id !== current.requestId) {
        // Only a string is shown: stringifying an agent's arbitrary value here (a stream callback) could throw.
        const shown = typeof id === 'string' ? JSON.stringify(id.slice(0, 80)) : typeof id;
        current.collector.note({ code: 'persistent/uncorrelated', message: `an event for requestId ${shown} arrived while ${current.requestId} was open; ignored` });
        continue;
      }
      if (current.collector.accept(line.value) === 'stop') {
        this.finishPending(null);
        return this.killGroup('SIGKILL');
      }
      if ((line.value as { type?: unknown }).type === 'done') this.doneAfterDiskCheck(current);
    }
  }

  /**
   * A request's done, once its work dir is measured: a process past its quota is stopped and the
   * request failed (by the watch's own callback) rather than answered.
   */
  private doneAfterDiskCheck(request: Pending): void {
    const disk = this.disk;
    if (!disk || !this.confined.sandboxed) return this.finishPending(null);
    void disk.check().then(() => {
      if (this.pending === request) this.finishPending(null);
    });
  }

  /** Ends the open request, with a failure unless it completed. */
  private finishPending(failure: Failure | null): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    clearTimeout(p.timer);
    if (failure) p.collector.fail(failure);
    const exited = failure !== null && this.exit !== null;
    const stderr = this.stderr.slice(p.stderrFrom);
    const signal = exited ? this.exit!.signal : null;
    const confined = this.confined;
    // The facts are taken now; the outcome (and so the next request) waits for the asset checks still queued.
    void p.collector
      .finish({
        exitCode: exited ? this.exit!.code : 0,
        signal,
        stderr,
        stderrTruncated: this.stderrTruncated,
        durationMs: performance.now() - p.started,
        stdoutBytes: p.bytes,
      })
      .then((outcome) => {
        if (confined.sandboxed && failure !== null) outcome.violations.push(...limitHits({ signal, stderr, network: confined.network, cpuSeconds: confined.limits.cpuSeconds }));
        p.resolve(outcome);
      });
  }

  /** Kills the process group. After a failure (`retire`), the child is forgotten: the next request spawns anew. */
  private killGroup(signal: NodeJS.Signals, retire = true): void {
    const pid = this.child?.pid;
    if (pid !== undefined && !this.exit) {
      try {
        process.kill(-pid, signal);
      } catch {
        // already gone
      }
    }
    if (retire) {
      this.child = null;
      this.splitter = null;
    }
  }
}
