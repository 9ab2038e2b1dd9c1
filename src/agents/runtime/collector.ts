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
  preview,
  type JsonObject,
  type ToolEvent,
  type ToolEventType,
} from '../../protocol/index.js';
import { AssetChecks } from './asset-checks.js';
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
const UI_EVENT_PREVIEW_CHARS = 80;

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
 * accept() runs in stream callbacks, so its work is bounded by the event it is given, never by
 * what came before (the state is merged in place) nor by the filesystem (asset paths are resolved
 * asynchronously: finish() waits for them).
 *
 * @example
 * const c = new InvocationCollector({ workDir: null, knownUiEvents: new Set() });
 * c.accept({ version: '0', type: 'state_patch', patch: { a: 1 } }); // 'continue'
 * c.accept({ version: '0', type: 'done', ok: true });                // 'continue'
 * (await c.finish({ exitCode: 0, signal: null, stderr: '', stderrTruncated: false, durationMs: 1, stdoutBytes: 0 })).ok; // true
 */
export class InvocationCollector {
  private failure: Failure | null = null;
  private done: { ok: boolean; summary: string | null } | null = null;
  private state: JsonObject = {};
  private readonly events: ToolEvent[] = [];
  private readonly logs: LogEvent[] = [];
  private readonly errors: ErrorEvent[] = [];
  private readonly uiEvents: UiEvent[] = [];
  /** In the order they happened; an asset's verdict is a promise while its path is being checked. */
  private readonly violations: Array<Violation | Promise<Violation | null>> = [];
  private afterDone = 0;
  private seen = 0;
  private readonly assetChecks: AssetChecks;
  private afterDoneNote: Violation | null = null;

  constructor(private readonly opts: CollectorOptions) {
    this.assetChecks = new AssetChecks(opts.workDir);
  }

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
      const shown = typeof type === 'string' ? preview(type, TYPE_PREVIEW_CHARS) : 'missing';
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

  /**
   * Settles the invocation once its asset checks are done: seed 001 §5.3 exit-code rule, missing
   * done, and `ok`. Never rejects.
   */
  async finish(proc: ProcessFacts): Promise<InvocationOutcome> {
    const violations: Violation[] = [];
    for (const v of this.violations) {
      // Awaiting only the promises: a plain await per violation would cost a tick each.
      const settled = v instanceof Promise ? await v : v;
      if (settled) violations.push(settled);
    }
    return this.outcome(proc, await this.assetChecks.kept(), violations);
  }

  /**
   * finish() for a collector that cannot be waiting on the filesystem: one without a work dir
   * (in-process agents on the synchronous hot path), where every asset is refused at once. Throws
   * if an asset check is queued all the same — a caller's bug, not the agent's.
   */
  finishNow(proc: ProcessFacts): InvocationOutcome {
    if (this.assetChecks.waiting) throw new Error('asset checks are queued: await finish() instead of finishNow()');
    return this.outcome(proc, [], this.violations.filter((v): v is Violation => !(v instanceof Promise)));
  }

  private outcome(proc: ProcessFacts, assets: AssetEvent[], violations: Violation[]): InvocationOutcome {
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
      assets,
      uiEvents: this.uiEvents,
      violations,
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
        const verdict = this.assetChecks.take(event);
        if (verdict) this.violations.push(verdict);
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
    // The name is the agent's, up to a line long: the notice quotes its start.
    const message = `unsupported ui_event ${preview(event.event, UI_EVENT_PREVIEW_CHARS)} shown as a notice`;
    this.violations.push({ code: 'ui_event/unsupported', message });
    this.logs.push({
      version: '0',
      type: 'log',
      level: 'warn',
      message,
      fields: { synthesized: true, event: event.event.slice(0, UI_EVENT_PREVIEW_CHARS) },
    });
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

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
