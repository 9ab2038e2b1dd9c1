import { resolve } from 'node:path';
import { ConfigError } from '../game/index.js';
import type { RunnerOptions } from '../runner/persistent-runner.js';
import { RunnerError } from '../runner/runner-errors.js';
import { redactUrl } from '../store/connect.js';
import { openStore, StoreError, type EventStore } from '../store/index.js';
import { EXIT, UsageError, type CliIo } from './io.js';

/** Where the store commands keep games: the PostgreSQL URL (password hidden) or the data folder. */
export function storeLocation(): string {
  const url = process.env['DATABASE_URL'];
  return url
    ? `PostgreSQL ${redactUrl(url)}`
    : `embedded PGlite in ${resolve(process.env['TILTYARD_DATA_DIR'] || './data')}`;
}

/**
 * `--progress`: one `stored <gameId> seq <N>` line on stderr per committed step, for supervisors
 * and logs (the crash test kills a runner right after a seq it reads there).
 */
export const progressOption = (
  io: CliIo,
  on: boolean | undefined,
): Pick<RunnerOptions, 'onCommit'> =>
  on ? { onCommit: (seq, state) => io.err(`stored ${state.game_id} seq ${seq}\n`) } : {};

/** The one line a store or runner failure prints: what went wrong, never a stack. */
export function failureLine(e: unknown): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const first = (err.message || err.name).split('\n')[0]!;
  if (err instanceof StoreError || err instanceof RunnerError) return first;
  if (err instanceof ConfigError) return `a stored game is corrupt: ${first}`;
  if (err instanceof SyntaxError) return `a stored row is corrupt: ${first}`;
  return `unexpected error: ${first}`;
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
 * reaches main as a UsageError (exit 2).
 */
export async function withStore(
  io: CliIo,
  fn: (store: EventStore) => Promise<number>,
): Promise<number> {
  let store: EventStore;
  try {
    store = await openStore();
  } catch (e) {
    return reportFailure(io, e);
  }
  try {
    return await fn(store);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return reportFailure(io, e);
  } finally {
    await store.close().catch(() => {});
  }
}
