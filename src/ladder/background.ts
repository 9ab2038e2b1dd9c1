import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore } from '../store/index.js';
import { runLadder, type LadderEvent } from './run-ladder.js';

/** Between deals of a ladder a server keeps running, unless TILTYARD_LADDER_EVERY_MS says otherwise. */
export const DEFAULT_LADDER_EVERY_MS = 10_000;

/** Waits `ms`, or less when the signal comes first (never throws). */
const pause = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }).catch(() => undefined);

/**
 * Keeps a ladder running in this process (`tiltyard serve --ladder <id>`): a deal, then `everyMs`,
 * then the next, until the signal. A ladder that cannot form a deal (too few entrants may play) or
 * an error (logged) is tried again after the same pause; a deal in flight when the signal comes
 * stops at a step boundary and is finished by the next run, as with `ladder run`.
 */
export async function keepLadderRunning(store: EventStore, ladderId: string, options: { everyMs: number; signal: AbortSignal; log: (message: string, fields: Record<string, unknown>) => void; onEvent?: (e: LadderEvent) => void }): Promise<void> {
  const { signal } = options;
  while (!signal.aborted) {
    try {
      const out = await runLadder(ladderId, { store, signal, forever: true, pause: () => pause(options.everyMs, signal), ...(options.onEvent ? { onEvent: options.onEvent } : {}) });
      if (out.status === 'waiting') options.log('ladder waiting', { ladder_id: ladderId, reason: out.reason });
    } catch (e) {
      options.log('ladder run failed', { ladder_id: ladderId, error: e instanceof Error ? e.message : String(e) });
    }
    await pause(options.everyMs, signal);
  }
}
