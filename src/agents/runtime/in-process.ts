import type { ToolEvent, ToolInput } from '../../protocol/index.js';
import { InvocationCollector, type ProcessFacts } from './collector.js';
import type { Failure, InvocationOutcome } from './outcome.js';

/** An in-process agent: the events it would have printed, as values (no JSON round trip). */
export type Produce = (
  input: ToolInput,
) => Iterable<unknown> | AsyncIterable<unknown> | Promise<Iterable<unknown>>;
export type ProduceSync = (input: ToolInput) => Iterable<unknown>;

export type InProcessOptions = {
  /**
   * Budget in ms. Async agents are cut off when it passes, even mid-await; synchronous code cannot
   * be pre-empted, so a synchronous iterable is checked between values only.
   */
  deadlineMs?: number;
  knownUiEvents?: ReadonlySet<string>;
  /** Where assets must live; null or absent: the agent has none, so assets are refused. */
  workDir?: string | null;
  onEvent?: (event: ToolEvent) => void;
};

const NO_UI_EVENTS: ReadonlySet<string> = new Set();
const TIMEOUT = Symbol('timeout');

/**
 * Runs an in-process agent through the same collector as a subprocess, so validation, merging and
 * failures are identical; a throw becomes `agent/threw`. Exit code is 0 and stderr empty.
 *
 * @example
 * const outcome = await runInProcess(async function* (input) {
 *   yield { version: '0', type: 'state_patch', patch: { decision: await think(input) } };
 *   yield { version: '0', type: 'done', ok: true };
 * }, input, { deadlineMs: 2_000 });
 */
export async function runInProcess(
  produce: Produce,
  input: ToolInput,
  opts: InProcessOptions = {},
): Promise<InvocationOutcome> {
  const started = performance.now();
  const collector = collectorFor(opts);
  const { deadlineMs } = opts;
  let timer: NodeJS.Timeout | undefined;
  const deadline =
    deadlineMs === undefined
      ? null
      : new Promise<typeof TIMEOUT>((resolve) => {
          timer = setTimeout(resolve, deadlineMs, TIMEOUT);
        });
  try {
    await drive(produce(input), collector, deadline, budget(started, deadlineMs));
  } catch (e) {
    collector.fail(threw(e));
  } finally {
    clearTimeout(timer);
  }
  return collector.finish(facts(started));
}

/**
 * The hot path for built-in agents: synchronous, no promise, no timer. A deadline, if given, is
 * checked between values.
 *
 * @example
 * runInProcessSync(() => [
 *   { version: '0', type: 'state_patch', patch: { decision: { action: 'pass' } } },
 *   { version: '0', type: 'done', ok: true },
 * ], input, {}).state; // { decision: { action: 'pass' } }
 */
export function runInProcessSync(
  produce: ProduceSync,
  input: ToolInput,
  opts: Omit<InProcessOptions, 'workDir'> = {},
): InvocationOutcome {
  const started = performance.now();
  // No work dir: checking an asset's path takes the filesystem, which this path must not wait on.
  const collector = collectorFor({ ...opts, workDir: null });
  try {
    pump(produce(input), collector, budget(started, opts.deadlineMs));
  } catch (e) {
    collector.fail(threw(e));
  }
  return collector.finishNow(facts(started));
}

/** A deadline as both its length (for messages) and the instant it passes. */
type Budget = { ms: number | undefined; at: number };

function budget(started: number, ms: number | undefined): Budget {
  return { ms, at: ms === undefined ? Infinity : started + ms };
}

async function drive(
  produced: ReturnType<Produce>,
  collector: InvocationCollector,
  deadline: Promise<typeof TIMEOUT> | null,
  limit: Budget,
): Promise<void> {
  if (isThenable(produced)) {
    const settled = await (deadline ? Promise.race([produced, deadline]) : produced);
    if (settled === TIMEOUT) return collector.fail(timedOut(limit));
    produced = settled;
  }
  if (!isAsyncIterable(produced)) return pump(produced, collector, limit);
  const it = produced[Symbol.asyncIterator]();
  for (;;) {
    const step = await (deadline ? Promise.race([it.next(), deadline]) : it.next());
    if (step === TIMEOUT) {
      collector.fail(timedOut(limit));
      break;
    }
    if (step.done) return;
    if (collector.accept(step.value) === 'stop') break;
  }
  // Let the agent's finally blocks run, without waiting on an agent that may never yield again.
  try {
    it.return?.()?.catch(ignore);
  } catch {
    // A broken return() changes nothing: the invocation is already over.
  }
}

function pump(values: Iterable<unknown>, collector: InvocationCollector, limit: Budget): void {
  for (const value of values) {
    // Synchronous code cannot be pre-empted; the next best thing is to refuse what comes late.
    if (limit.at !== Infinity && performance.now() > limit.at) {
      return collector.fail(timedOut(limit));
    }
    if (collector.accept(value) === 'stop') return;
  }
}

function collectorFor(opts: InProcessOptions): InvocationCollector {
  return new InvocationCollector({
    workDir: opts.workDir ?? null,
    knownUiEvents: opts.knownUiEvents ?? NO_UI_EVENTS,
    onEvent: opts.onEvent,
  });
}

/** What a process would report, for an agent that is none. */
function facts(started: number): ProcessFacts {
  return {
    exitCode: 0,
    signal: null,
    stderr: '',
    stderrTruncated: false,
    durationMs: performance.now() - started,
    stdoutBytes: 0,
  };
}

function threw(e: unknown): Failure {
  return {
    code: 'agent/threw',
    message: `the agent threw: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`,
  };
}

function timedOut(limit: Budget): Failure {
  return {
    code: 'process/timeout',
    message: `in-process agent still running after its ${limit.ms} ms deadline`,
  };
}

function isThenable(value: unknown): value is PromiseLike<Iterable<unknown>> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] ===
    'function'
  );
}

function ignore(): void {}
