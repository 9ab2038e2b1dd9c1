import {
  AssetEvent,
  DoneEvent,
  ErrorEvent,
  LogEvent,
  StatePatchEvent,
  UiEvent,
  checkJsonBounds,
  formatIssues,
  isPlainObject,
  mergeInto,
  type JsonObject,
  type ToolEvent,
  type ToolEventType,
} from '../../protocol/index.js';
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Failure, InvocationOutcome, Violation } from './outcome.js';

const SCHEMAS = {
  log: LogEvent,
  state_patch: StatePatchEvent,
  asset: AssetEvent,
  ui_event: UiEvent,
  error: ErrorEvent,
  done: DoneEvent,
} as const satisfies Record<ToolEventType, unknown>;

const TYPE_PREVIEW_CHARS = 40;

export type CollectorOptions = {
  /** Where assets must live; null means the invocation has no work dir, so no asset is accepted. */
  workDir: string | null;
  /** ui_event names the runtime can dispatch; others degrade to a notice. */
  knownUiEvents: ReadonlySet<string>;
  /** Called with each accepted event, in order, up to and including done (for live tracing). */
  onEvent?: (event: ToolEvent) => void;
};

/** What only the transport knows, handed to finish(). In-process agents pass exit code 0. */
export type ProcessFacts = {
  exitCode: number | null;
  signal: string | null;
  stderr: string;
  stderrTruncated: boolean;
  durationMs: number;
  stdoutBytes: number;
};

/**
 * The one place protocol semantics live (seed 001 §4–5): fed already-parsed JSON values, by the
 * process runner and by in-process agents alike, it validates, aggregates and decides when to
 * stop. Malformed traffic is a failure that stops processing; things that are merely unwelcome
 * (a foreign asset path, an unknown ui_event, events after done) are violations.
 *
 * @example
 * const c = new InvocationCollector({ workDir: null, knownUiEvents: new Set() });
 * c.accept({ version: '0', type: 'state_patch', patch: { a: 1 } }); // 'continue'
 * c.accept({ version: '0', type: 'done', ok: true });                // 'continue'
 * c.finish({ exitCode: 0, signal: null, stderr: '', stderrTruncated: false, durationMs: 1, stdoutBytes: 0 }).ok; // true
 */
export class InvocationCollector {
  private failure: Failure | null = null;
  private done: { ok: boolean; summary: string | null } | null = null;
  private state: JsonObject = {};
  private readonly events: ToolEvent[] = [];
  private readonly logs: LogEvent[] = [];
  private readonly errors: ErrorEvent[] = [];
  private readonly assets: AssetEvent[] = [];
  private readonly uiEvents: UiEvent[] = [];
  private readonly violations: Violation[] = [];
  private afterDone = 0;
  private seen = 0;
  private readonly assetIds = new Set<string>();
  /** workDir through realpath, computed on the first asset (most invocations have none). */
  private realWorkDir: string | null | undefined;
  private afterDoneNote: Violation | null = null;

  constructor(private readonly opts: CollectorOptions) {}

  /** The first failure recorded so far, if any. */
  get failed(): Failure | null {
    return this.failure;
  }

  /**
   * Takes the next value from the tool; 'stop' means the invocation is broken and its producer
   * should be ended. Never throws: it runs in stream callbacks, where a throw would take the whole
   * process down, so anything unexpected becomes this invocation's failure.
   */
  accept(value: unknown): 'continue' | 'stop' {
    try {
      return this.acceptValue(value);
    } catch (e) {
      const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      return this.stop('agent/unprocessable', `event ${this.seen} could not be processed (${why.slice(0, 200)})`);
    }
  }

  private acceptValue(value: unknown): 'continue' | 'stop' {
    if (this.failure) return 'stop';
    if (this.done) return this.ignoreAfterDone('a value');
    const n = ++this.seen;
    if (!isPlainObject(value)) {
      return this.stop(
        'protocol/not_object',
        `event ${n} is ${describe(value)}, not a JSON object`,
      );
    }
    // Before zod, the deep merge or anything else that recurses once per level.
    const bounds = checkJsonBounds(value);
    if (bounds) return this.stop(bounds.code, `event ${n} refused: ${bounds.message}`);
    const type = value['type'];
    if (typeof type !== 'string' || !Object.hasOwn(SCHEMAS, type)) {
      const shown =
        typeof type === 'string' ? JSON.stringify(type.slice(0, TYPE_PREVIEW_CHARS)) : 'missing';
      return this.stop(
        'protocol/unknown_type',
        `event ${n} has unknown type ${shown}; processing ended (seed 001 §5.2)`,
      );
    }
    const parsed = SCHEMAS[type as ToolEventType].safeParse(value);
    if (!parsed.success) {
      const why = formatIssues(parsed.error.issues);
      return this.stop('protocol/invalid_event', `event ${n} (${type}) is invalid: ${why}`);
    }
    this.take(parsed.data);
    return 'continue';
  }

  /**
   * A line the framing could not turn into a value. Before done it is a failure; after done the
   * tool is no longer listened to, so a bad line is only a violation — except the output cap,
   * which bounds what we read whatever the tool claims.
   */
  reject(failure: Failure): 'continue' | 'stop' {
    if (this.done && !this.failure && failure.code !== 'protocol/output_too_large') {
      return this.ignoreAfterDone(`a bad line (${failure.message})`);
    }
    this.fail(failure);
    return 'stop';
  }

  /** Records a failure found outside the stream (timeout, abort, spawn error…); the first one wins. */
  fail(failure: Failure): void {
    this.failure ??= failure;
  }

  /** Records something noteworthy that does not fail the invocation. */
  note(violation: Violation): void {
    this.violations.push(violation);
  }

  /** Settles the invocation: seed 001 §5.3 exit-code rule, missing done, and `ok`. */
  finish(proc: ProcessFacts): InvocationOutcome {
    if (!this.failure) {
      if (proc.exitCode !== null && proc.exitCode !== 0) {
        this.failure = {
          code: 'protocol/exit_code',
          message: `exited with code ${proc.exitCode}${this.done ? ' after done (seed 001 §5.3)' : ' without a done event'}`,
        };
      } else if (proc.exitCode === null && proc.signal !== null) {
        this.failure = {
          code: 'protocol/signal',
          message: `killed by ${proc.signal}${this.done ? ' after done' : ' before a done event'}`,
        };
      } else if (!this.done) {
        this.failure = {
          code: 'protocol/no_done',
          message: `stdout closed without a done event (after ${this.seen} event${this.seen === 1 ? '' : 's'})`,
        };
      }
    }
    return {
      ok: this.done?.ok === true && this.failure === null,
      failure: this.failure,
      done: this.done,
      state: this.state,
      events: this.events,
      logs: this.logs,
      errors: this.errors,
      assets: this.assets,
      uiEvents: this.uiEvents,
      violations: this.violations,
      afterDone: this.afterDone,
      ...proc,
    };
  }

  private take(event: ToolEvent): void {
    this.events.push(event);
    switch (event.type) {
      case 'log':
        this.logs.push(event);
        break;
      case 'error':
        // Seed 001 §4.5: an error event does not end the invocation; done (or exit) does.
        this.errors.push(event);
        break;
      case 'state_patch':
        // In place: the state is the collector's alone, and a copy per patch made many patches quadratic.
        mergeInto(this.state, event.patch);
        break;
      case 'asset': {
        const violation = this.checkAsset(event);
        if (violation) this.violations.push(violation);
        else this.assets.push(event);
        break;
      }
      case 'ui_event':
        if (this.opts.knownUiEvents.has(event.event)) this.uiEvents.push(event);
        else this.unsupportedUi(event);
        break;
      case 'done':
        this.done = { ok: event.ok, summary: event.summary ?? null };
        break;
    }
    this.opts.onEvent?.(event);
  }

  /** Seed 001 §4.4 / §8: degrade an unknown ui_event to a notice instead of failing. */
  private unsupportedUi(event: UiEvent): void {
    const message = `unsupported ui_event "${event.event}" shown as a notice`;
    this.violations.push({ code: 'ui_event/unsupported', message });
    this.logs.push({
      version: '0',
      type: 'log',
      level: 'warn',
      message,
      fields: { synthesized: true, event: event.event },
    });
  }

  /** Seed 001 §4.3: ids unique per invocation; paths must stay in the work dir, symlinks resolved. */
  private checkAsset(event: AssetEvent): Violation | null {
    const id = JSON.stringify(event.assetId);
    // Every claimed id counts, accepted or not, so a refused asset cannot come back under its id.
    if (this.assetIds.has(event.assetId)) {
      return { code: 'asset/duplicate_id', message: `asset id ${id} was already used` };
    }
    this.assetIds.add(event.assetId);
    const { workDir } = this.opts;
    if (workDir === null) {
      return { code: 'asset/no_work_dir', message: `asset ${id} refused: no work dir` };
    }
    if (this.realWorkDir === undefined) this.realWorkDir = realExisting(resolve(workDir));
    if (!isInside(this.realWorkDir, realExisting(resolve(workDir, event.path)))) {
      const where = JSON.stringify(event.path);
      return {
        code: 'asset/outside_work_dir',
        message: `asset ${id} at ${where} is outside the work dir`,
      };
    }
    return null;
  }

  private ignoreAfterDone(what: string): 'continue' {
    if (this.afterDone++ === 0) {
      this.afterDoneNote = {
        code: 'protocol/after_done',
        message: `${what} arrived after done and was ignored`,
      };
      this.violations.push(this.afterDoneNote);
    } else if (this.afterDoneNote) {
      this.afterDoneNote.message = `${this.afterDone} lines arrived after done and were ignored`;
    }
    return 'continue';
  }

  private stop(code: Failure['code'], message: string): 'stop' {
    this.fail({ code, message });
    return 'stop';
  }
}

/**
 * realpath of the longest existing prefix, with the rest appended, so a path through a symlink
 * that leaves the work dir is caught even when the file itself does not exist (yet). null when
 * an existing entry cannot be resolved (a dangling or looping symlink, no permission): such a
 * path could point anywhere, so it is refused.
 */
function realExisting(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    // Not there, or there but unresolvable.
  }
  try {
    lstatSync(path);
    return null;
  } catch {
    const parent = dirname(path);
    if (parent === path) return null;
    const base = realExisting(parent);
    return base === null ? null : join(base, basename(path));
  }
}

/** Strictly below root (root itself is a directory, not an asset); unresolvable paths are not. */
function isInside(root: string | null, path: string | null): boolean {
  if (root === null || path === null) return false;
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
