import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../game/index.js';
import type { RunnerOptions } from '../runner/persistent-runner.js';
import { RunnerError } from '../runner/runner-errors.js';
import { RedisUnavailableError } from '../scale/redis-unavailable.js';
import { redactUrl } from '../store/connect.js';
import { describeChain, logTransientWaits, openStore, StoreError, type EventStore } from '../store/index.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { liveLine } from './progress.js';

/** Where the store commands keep games: the PostgreSQL URL (password hidden) or the data folder. */
export function storeLocation(): string {
  const url = process.env['DATABASE_URL'];
  return url
    ? `PostgreSQL ${redactUrl(url)}`
    : `embedded PGlite in ${resolve(process.env['TILTYARD_DATA_DIR'] || './data')}`;
}

/** What the live line says while the store opens: a new data dir is created and migrated first. */
function openingLine(): string {
  if (process.env['DATABASE_URL']) return `connecting to ${storeLocation()}`;
  const dir = resolve(process.env['TILTYARD_DATA_DIR'] || './data');
  const fresh = !existsSync(dir) || readdirSync(dir).length === 0;
  return fresh
    ? `creating the embedded database in ${dir} (first start: set up once, then reused)`
    : `opening the embedded database in ${dir}`;
}

/**
 * `--progress`: one `stored <gameId> seq <N>` line on stderr per committed step, for supervisors
 * and logs (the crash test kills a runner right after a seq it reads there). Without it, a
 * terminal shows one live line per game being played (seq, round, phase), none with `--json`.
 */
export function progressOption(
  io: CliIo,
  on: boolean | undefined,
  json?: boolean,
): Pick<RunnerOptions, 'onCommit'> & { end: () => void } {
  if (on) return { onCommit: (seq, state) => io.err(`stored ${state.game_id} seq ${seq}\n`), end: () => {} };
  const line = json ? null : liveLine(io, 'playing');
  if (!line) return { end: () => {} };
  return {
    onCommit: (seq, state) => line.set(`playing ${state.game_id} · seq ${seq} · round ${state.turn} (${state.phase})`),
    end: () => line.end(),
  };
}

/** The one line a store or runner failure prints: what went wrong, never a stack. */
export function failureLine(e: unknown): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const first = (err.message || err.name).split('\n')[0]!;
  // Their messages are written for people (a store that gave up waiting already quotes its cause chain).
  if (err instanceof StoreError || err instanceof RunnerError || err instanceof RedisUnavailableError) return first;
  if (err instanceof ConfigError) return `a stored game is corrupt: ${first}`;
  if (err instanceof SyntaxError) return `a stored row is corrupt: ${first}`;
  return `unexpected error: ${describeChain(err).replace(/^Error: /, '')}`;
}

/** Prints a failure as one `tiltyard: …` line on stderr; returns the runtime-failure exit code. */
export function reportFailure(io: CliIo, e: unknown, prefix = ''): number {
  io.err(`tiltyard: ${prefix}${failureLine(e)}\n`);
  if (process.env['TILTYARD_DEBUG'] && e instanceof Error) io.err(`${e.stack ?? ''}\n`);
  return EXIT.failure;
}

/**
 * Opens the store the environment names (openStore: DATABASE_URL, else the embedded database in
 * TILTYARD_DATA_DIR or ./data), runs `fn`, and closes it. An unreachable database, an unknown
 * game, a corrupt row or a divergence becomes one line on stderr and exit 1; bad usage still
 * reaches main as a UsageError (exit 2). While the store opens, a terminal shows a live line
 * (creating a new data dir takes seconds) unless `quiet` (--json).
 */
export async function withStore(
  io: CliIo,
  fn: (store: EventStore) => Promise<number>,
  options: { quiet?: boolean } = {},
): Promise<number> {
  let store: EventStore;
  const line = options.quiet ? null : liveLine(io, openingLine());
  try {
    store = await openStore();
  } catch (e) {
    line?.end();
    return reportFailure(io, e);
  }
  line?.end();
  // A database that went away is waited out (see store/retry.ts): say so, rather than hang mute.
  logTransientWaits(store.onTransientWait.bind(store), (message) => io.err(`tiltyard: ${message}\n`));
  try {
    return await fn(store);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return reportFailure(io, e);
  } finally {
    await store.close().catch(() => {});
  }
}
