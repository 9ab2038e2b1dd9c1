import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Lease, LeaseRefusal } from '../../scale/coordinator-lease.js';
import { INPUT_CLOCKS, type InputClockName } from '../../runner/input-clock.js';
import { isDiskFull, type EventStore } from '../../store/index.js';
import type { CommitPolicy } from '../../tournament/play-scheduled.js';
import { runTournament, type TournamentRunnerOptions } from '../../tournament/runner.js';
import type { TournamentOutcome } from '../../tournament/runner-events.js';
import { EXIT, UsageError, type CliIo } from '../io.js';
import { formatStandings } from '../standings-format.js';
import { standingsWithWpa } from '../../tournament/stored-wpa.js';
import { formatAgentHealth } from '../agent-health-format.js';
import { storedAgentHealth } from '../../runner/agent-health.js';
import { failureLine } from '../store-session.js';
import { tournamentDisplay } from '../tournament-live.js';

export const RESUME_USAGE = `Usage: tiltyard tournament resume <id> [--concurrency C] [--workers W] [--max-cost-usd X|none] [--progress] [--json]

Continues a tournament whose run was killed or interrupted: finishes the batch it was playing
(games stored whole are played again from their seed, games stored step by step continue from
their last step), then goes on. The final standings equal an uninterrupted run's.
It keeps every setting the tournament was created with: its config (format, seeds, compact
windows, rules), its clock and commit policy, its spectator mode and its cost limit; with
--clock logical, the logs of the games still to play are those an uninterrupted run would have
stored, byte for byte. --clock or --commit are accepted only when they agree with what is stored
(exit 2 otherwise), or for a tournament stored before these were (then they are stored).
Failed games of the batch it was playing (a worker's error, a database that stayed away) are
played again, each as a new attempt, and count once they end; so does a tournament that ended
with such failures. A tournament stopped at its cost limit (stopped_by_budget) goes on with
--max-cost-usd above what it has spent (the new limit is stored; "none" lifts it).
`;

/**
 * Runs (or resumes) a stored tournament with the live display, then prints the result. Ctrl-C
 * stops it cleanly after the games in flight reach a step boundary (resume it later).
 */
export async function runAndReport(io: CliIo, store: EventStore, id: string, options: { concurrency: number; workers?: number; json: boolean; progress: boolean; clock?: InputClockName; commit?: CommitPolicy; retryFailed?: boolean; maxCostUsd?: number | null; gameOptions?: Record<string, unknown> }): Promise<number> {
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once('SIGINT', onSigint);
  const display = tournamentDisplay(io, { live: !options.json, progress: options.progress });
  const started = performance.now();
  const clock = options.clock ?? 'wall';
  const commit = options.commit ?? 'auto';
  const where = await gamesRunWhere(io, store, id, clock, commit, stop);
  if (where && 'held_by' in where) {
    process.removeListener('SIGINT', onSigint);
    io.err(`tiltyard: tournament ${id} is being coordinated by ${where.held_by} (its lease expires in ${Math.ceil(where.expires_in_ms / 1000)} s unless renewed); run it from one place only\n`);
    return EXIT.failure;
  }
  try {
    // Resumed: the games still to come are shown as the first ones were (spectator mode).
    const gameOptions = options.gameOptions ?? (await shownAsBefore(store, id));
    let out: TournamentOutcome;
    try {
      out = await runTournament(id, { store, ...(gameOptions ? { gameOptions } : {}), concurrency: where ? Math.max(options.concurrency, where.concurrency) : options.concurrency, signal: stop.signal, onEvent: display.onEvent, clock: INPUT_CLOCKS[clock], commit, ...(options.retryFailed ? { retryFailed: true } : {}), ...(options.maxCostUsd === undefined ? {} : { maxCostUsd: options.maxCostUsd }), ...(where ? { play: where.play, fence: where.fence, openLedger: where.openLedger } : { workers: options.workers ?? 0 }) });
    } catch (e) {
      if (!isDiskFull(e)) throw e;
      display.end();
      io.err(`tiltyard: tournament ${id} stopped (status stopped), ${failureLine(e)}; once there is room, continue it with \`tiltyard tournament resume ${id}\`\n`);
      return EXIT.failure;
    }
    display.end();
    const t = await store.tournaments.get(id);
    const format = String(t.config['format']);
    // A cost that leaves out unpriced calls is not a cost: it is reported as unknown, never $0.
    const cost = out.cost_unknown ? 'unknown' : out.cost_usd;
    const budget = out.max_cost_usd === undefined ? (out.cost_unknown ? { cost_usd: 'unknown' } : {}) : { cost_usd: cost, max_cost_usd: out.max_cost_usd, worst_call_usd: out.worst_call_usd };
    const entrants = t.config['entrants'] as string[];
    const degraded = (await store.tournaments.games(id)).filter((g) => g.degraded);
    // What the LLM entrants cost and how they answered, where people look: at the end of the run.
    const llm = await storedAgentHealth(store, id, entrants);
    const standings = await standingsWithWpa(store, t, out.standings);
    if (options.json) io.out(`${JSON.stringify({ tournament_id: id, format, status: out.status, planned: out.planned, games: out.done, failed: out.failed, stopped: out.stopped, degraded: degraded.length, ...budget, standings, llm })}\n`);
    else {
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      const health = formatAgentHealth(llm);
      const counts = `${out.done} of ${out.planned} planned games played${out.failed ? `, ${out.failed} failed` : ''}${out.stopped ? `, ${out.stopped} stopped (not rated; resume goes on)` : ''}${degraded.length ? `, ${degraded.length} degraded` : ''}${out.cost_unknown ? ', cost unknown (unpriced models)' : ''}`;
      io.out(`Tournament ${id} (${format}, ${entrants.length} entrants, ${String(t.config['seats'])} seats): ${out.status}, ${counts} (${secs} s this run)\n\n${formatStandings(standings)}${health ? `\n${health}` : ''}`);
    }
    // Exit 3 (EXIT.degraded) unless something worse is reported below.
    const done = degraded.length ? EXIT.degraded : EXIT.ok;
    if (degraded.length) {
      const rated = t.config['rate_degraded'] === true;
      io.err(`tiltyard: tournament ${id}: ${degraded.length} game${degraded.length === 1 ? '' : 's'} degraded (an LLM seat ran out of budget; the engine's fallback played for it): ${rated ? 'rated anyway (--rate-degraded)' : 'left out of the ratings'}; \`tiltyard games <id>\` says which seat and round (${degraded.slice(0, 5).map((g) => g.game_id).join(', ')}${degraded.length > 5 ? ', …' : ''})\n`);
    }
    if (where?.lease.lost.aborted) {
      io.err(`tiltyard: tournament ${id}: another coordinator took it over (this one could not renew its lease); stopped here\n`);
      return EXIT.failure;
    }
    if (out.status === 'stopped_by_budget') {
      io.err(`tiltyard: tournament ${id} stopped at its cost cap: $${(out.cost_usd ?? 0).toFixed(4)} spent of $${out.max_cost_usd ?? 0} (the largest call's worst case: $${(out.worst_call_usd ?? 0).toFixed(4)}); ${out.done} of ${out.planned} planned games played, ${out.stopped} stopped; go on with \`tiltyard tournament resume ${id} --max-cost-usd <more>\`\n`);
      return done;
    }
    if (out.failed > 0) {
      // Failed games are not losses (they do not enter the ratings), but a run with them did not do what was asked.
      const errors = (await store.tournaments.games(id)).filter((g) => g.state === 'failed');
      const why = [...new Set(errors.map((g) => g.error ?? 'no reason recorded'))].slice(0, 5);
      io.err(`tiltyard: tournament ${id}: ${out.failed} game${out.failed === 1 ? '' : 's'} failed (not counted in the ratings): ${why.join('; ')}\n`);
      return EXIT.failure;
    }
    if (out.status === 'stopped') {
      io.err(`tiltyard: tournament ${id} stopped before its end; continue it with \`tiltyard tournament resume ${id}\`\n`);
      return EXIT.failure;
    }
    return done;
  } finally {
    process.removeListener('SIGINT', onSigint);
    await where?.close();
  }
}

/**
 * Where the tournament's games run: in this process (null; no REDIS_URL), or on `tiltyard worker`
 * processes through the queue (REDIS_URL set), this process only scheduling, following each game
 * in the store and rating. Games in flight are then bounded by the workers, not by --concurrency.
 */
async function gamesRunWhere(io: CliIo, store: EventStore, id: string, clock: InputClockName, commit: CommitPolicy, stop: AbortController): Promise<Queued | LeaseRefusal | null> {
  const { scaleSettings, ScaleConfigError } = await import('../../scale/settings.js');
  let settings;
  try {
    settings = scaleSettings();
  } catch (e) {
    if (e instanceof ScaleConfigError) throw new UsageError(e.message);
    throw e;
  }
  if (!settings) return null;
  if (store.backend !== 'postgres') throw new UsageError('REDIS_URL is set, so games run on workers, but the store is the embedded PGlite database, which workers cannot share: set DATABASE_URL to the PostgreSQL the workers use (or unset REDIS_URL to play in this process)');
  const { GameQueue } = await import('../../scale/game-queue.js');
  const { queuedPlay } = await import('../../scale/queued-play.js');
  const { acquireLease, leaseKey } = await import('../../scale/coordinator-lease.js');
  const { connectRedis } = await import('../../scale/connection.js');
  // Redis away: games keep playing on the workers and are followed in the store; said once per streak.
  const queue = new GameQueue(settings, { onProblem: (what, f) => io.err(`tiltyard: ${what}${typeof f['error'] === 'string' ? ` (${f['error']})` : ''}\n`) });
  // Reached now, or said so: a command waits on a Redis that goes away later, not one never there.
  await connectRedis(queue.redis, settings).catch(async (e: unknown) => {
    await queue.close();
    throw e;
  });
  const lease = await acquireLease(queue.redis, leaseKey(settings.prefix, id), `tiltyard tournament (pid ${process.pid} on ${hostname()})`).catch(async (e: unknown) => {
    await queue.close();
    throw e;
  });
  if ('held_by' in lease) {
    await queue.close();
    return lease;
  }
  lease.lost.addEventListener('abort', () => stop.abort(), { once: true });
  // The lease's fencing token, from the store: a coordinator that outlived its lease cannot write.
  const fence = await store.tournaments.takeFence(id).catch(async (e: unknown) => {
    await lease.release();
    await queue.close();
    throw e;
  });
  // The step that ends a game (or the notice of a game stored whole), heard on the bus, tells the
  // coordinator to read the store; without
  // it (a lost message) the store is read every few seconds anyway.
  const { RedisGameBus } = await import('../../scale/redis-bus.js');
  const bus = new RedisGameBus(settings, { listen: true });
  await bus.start().catch(async (e: unknown) => {
    await lease.release();
    await Promise.all([queue.close(), bus.close()]);
    throw e;
  });
  const wake = (gameId: string, w: () => void) => {
    const steps = bus.subscribe(gameId, (step) => step.events.some((e) => e.type === 'game_ended') && w());
    // A game stored whole is announced without its events: nothing to parse here but the notice.
    const stored = bus.onStored(gameId, (batch) => batch.ended && w());
    return () => {
      steps();
      stored();
    };
  };
  io.err(`tiltyard: REDIS_URL is set: the games are queued for \`tiltyard worker\` processes (prefix ${settings.prefix})\n`);
  const close = async () => {
    await lease.release();
    await Promise.all([queue.close(), bus.close()]);
  };
  // The cost cap lives in Redis, where the workers reserve on it too; a new run clears an old stop.
  const { RedisSpendLedger } = await import('../../scale/redis-spend-ledger.js');
  const openLedger = (capUsd: number, spentUsd: number) => RedisSpendLedger.open(queue.redis, settings.prefix, id, { capUsd, spentUsd, reset: true });
  return { play: queuedPlay(queue, store, { clock, commit, signal: stop.signal, wake }), concurrency: QUEUED_IN_FLIGHT, lease, fence, close, openLedger };
}

type Queued = { play: NonNullable<TournamentRunnerOptions['play']>; concurrency: number; lease: Lease; fence: number; close: () => Promise<void>; openLedger: NonNullable<TournamentRunnerOptions['openLedger']> };

/** Games a coordinator keeps queued at once: enough to keep many workers busy; each costs one store read per poll. */
const QUEUED_IN_FLIGHT = 256;

/**
 * The spectator options a CLI tournament was created with, for its games still to come: stored
 * with it, or (created before they were) those its first game was stored with.
 */
async function shownAsBefore(store: EventStore, id: string): Promise<Record<string, unknown> | undefined> {
  const { options } = await store.tournaments.get(id);
  if (options?.['spectators'] !== undefined) return { spectators: options['spectators'], broadcast_held: options['broadcast_held'] };
  const [first] = await store.tournaments.games(id);
  if (!first) return undefined;
  const { spectators, broadcast_held } = (await store.getGame(first.game_id)).options;
  return spectators === undefined ? undefined : { spectators, broadcast_held };
}
