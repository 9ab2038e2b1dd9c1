import { setTimeout as sleep } from 'node:timers/promises';
import type { Lease, LeaseRefusal } from '../scale/coordinator-lease.js';
import type { EventStore } from '../store/index.js';
import { runLadder, type LadderEvent, type LadderRunOptions } from './run-ladder.js';

/** Between deals of a ladder a server keeps running, unless TILTYARD_LADDER_EVERY_MS says otherwise. */
export const DEFAULT_LADDER_EVERY_MS = 10_000;

/** Waits `ms`, or less when the signal comes first (never throws). */
const pause = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }).catch(() => undefined);

/**
 * Keeps a ladder running (`tiltyard serve --ladder <id>`): a deal, then `everyMs`, then the next,
 * until the signal. A ladder that cannot form a deal (too few entrants may play) or an error
 * (logged) is tried again after the same pause; a deal in flight when the signal comes stops at a
 * step boundary and is finished by the next run, as with `ladder run`. Scaled out, `play` sends
 * the games to the workers and `lease` keeps one coordinator across the API nodes: a node that
 * does not hold it waits and tries again (it takes over once the holder's lease expires).
 */
export async function keepLadderRunning(
  store: EventStore,
  ladderId: string,
  options: {
    everyMs: number;
    signal: AbortSignal;
    log: (message: string, fields: Record<string, unknown>) => void;
    onEvent?: (e: LadderEvent) => void;
    play?: LadderRunOptions['play'];
    lease?: () => Promise<Lease | LeaseRefusal>;
  },
): Promise<void> {
  const { signal } = options;
  let heldElsewhere = false;
  while (!signal.aborted) {
    let lease: Lease | null = null;
    try {
      const got = options.lease ? await options.lease() : null;
      if (got && 'held_by' in got) {
        // Said once, not at every try: another node running the ladder is the normal case.
        if (!heldElsewhere) options.log('ladder coordinated elsewhere; this node takes over if that one stops', { ladder_id: ladderId, held_by: got.held_by });
        heldElsewhere = true;
      } else {
        lease = got;
        heldElsewhere = false;
        // A lease lost (another node took over after ours expired unrenewed) stops this run like the signal.
        const runSignal = lease ? AbortSignal.any([signal, lease.lost]) : signal;
        const out = await runLadder(ladderId, {
          store,
          signal: runSignal,
          forever: true,
          pause: () => pause(options.everyMs, runSignal),
          ...(options.onEvent ? { onEvent: options.onEvent } : {}),
          ...(options.play ? { play: options.play } : {}),
        });
        if (out.status === 'waiting') options.log('ladder waiting', { ladder_id: ladderId, reason: out.reason });
      }
    } catch (e) {
      options.log('ladder run failed', { ladder_id: ladderId, error: e instanceof Error ? e.message : String(e) });
    } finally {
      await lease?.release();
    }
    await pause(options.everyMs, signal);
  }
}
