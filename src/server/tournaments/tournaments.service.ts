import { hostname } from 'node:os';
import { Inject, Injectable, Optional, type BeforeApplicationShutdown } from '@nestjs/common';
import { acquireLease, leaseKey, LEASE_MS } from '../../scale/coordinator-lease.js';
import type { GameQueue } from '../../scale/game-queue.js';
import { RedisSpendLedger } from '../../scale/redis-spend-ledger.js';
import { describeChain, isTransient, StoreUnavailableError, type EventStore, type TournamentRecord } from '../../store/index.js';
import type { GameOutcome } from '../../tournament/play-scheduled.js';
import { ratedResultsOf } from '../../tournament/results.js';
import { runTournament, type PlayCap } from '../../tournament/runner.js';
import type { TournamentEvent } from '../../tournament/runner-events.js';
import type { TournamentConfig } from '../../tournament/types.js';
import { DEFAULT_RESAMPLES } from '../../tournament/bootstrap.js';
import { headToHead, LIVE_RESAMPLES, standings } from '../../tournament/standings.js';
import type { ServerSettings } from '../config.js';
import { freshSeed } from '../../lib/fresh-seed.js';
import { GameBus } from '../../live/game-bus.js';
import { optionsOf, type GameOptions } from '../../live/game-options.js';
import { spectatorOptions } from '../games/broadcast-mode.js';
import { GameService, GameServiceClosedError } from '../games/game.service.js';
import type { JsonLogger } from '../../lib/json-logger.js';
import { GAME_QUEUE_PORT, LOGGER, SETTINGS, STORE } from '../tokens.js';
import type { TournamentRequest } from './tournament-request.js';
import { tournamentPage } from './tournament-page.js';
import { reportOf, type TournamentReportView } from './tournament-report.js';
import { attacksOf, type TournamentAttacksView } from './tournament-attacks.js';
import { standingsAsSeen } from './tournament-wpa.js';
import type { AttackRow } from '../../tournament/attacks.js';
import { progressOf, tournamentSummary, tournamentView, type TournamentSummaryView, type TournamentView } from './tournament-view.js';
import { gamesAsSeenBy, mayHoldBack, recordAsSeen } from './delayed-games.js';
import { delayed, type Role } from '../auth/roles.js';

type Running = { controller: AbortController; done: Promise<void>; games: Set<string> };

/** A tournament whose runner failed (its database stayed away past the store's wait) starts again this much later. */
const RESTART_MS = 30_000;

/** A resume of a tournament that is running (409), or that cannot run again (aborted). */
export class TournamentBusyError extends Error {
  override readonly name = 'TournamentBusyError';
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

/**
 * Owns the tournaments this server runs: registers new ones, runs each with the TournamentRunner
 * while its games play through GameService like any other game (the same TILTYARD_MAX_GAMES
 * limit, pace, bus and /spectate), tells the lobby when a tournament starts, when one of its
 * games ends and when it ends, resumes unfinished tournaments at boot, and stops them on shutdown
 * between games (they resume at the next start).
 */
@Injectable()
export class TournamentsService implements BeforeApplicationShutdown {
  private readonly running = new Map<string, Running>();
  private closed = false;
  /** Scaled out: looks for tournaments whose coordinator died (its lease expired) to take over. */
  private sweep: NodeJS.Timeout | null = null;
  /** Manipulation attempts of ended games (they never change), by game id. */
  private readonly attackRows = new Map<string, AttackRow[]>();

  constructor(
    @Inject(STORE) private readonly store: EventStore,
    @Inject(SETTINGS) private readonly settings: ServerSettings,
    @Inject(LOGGER) private readonly logger: JsonLogger,
    private readonly games: GameService,
    private readonly bus: GameBus,
    @Optional() @Inject(GAME_QUEUE_PORT) private readonly queue: GameQueue | null = null,
  ) {}

  /**
   * Registers a validated tournament (a fresh 53-bit seed unless it names one) and starts it.
   *
   * @example const t = await tournaments.create({ config, seed: undefined, name: undefined, pace_ms: 0, spectator_delay_ms: undefined, spectators: 'broadcast' })
   */
  async create(request: TournamentRequest): Promise<TournamentRecord> {
    if (this.closed || this.games.closing) throw new GameServiceClosedError();
    const config = { ...request.config, seed: request.seed ?? freshSeed() };
    const options: GameOptions = {
      pace_ms: request.pace_ms ?? this.settings.paceMs,
      spectator_delay_ms: request.spectator_delay_ms ?? 0,
      demo: false,
      // One entrant that could act on a broadcast holds the broadcast of every game until its end.
      ...spectatorOptions(request, config.entrants),
    };
    // Stored with the tournament, so a restarted server resumes it at the same pace, delay and spectator
    // mode. The cost limit rides with the options: the runner reads it there, on every resume too.
    const stored = { ...options, ...(request.max_cost_usd === undefined ? {} : { max_cost_usd: request.max_cost_usd }) };
    const t = await this.store.tournaments.create({ ...(request.name ? { name: request.name } : {}), config, options: stored });
    this.logger.emit('info', 'tournament created', { tournament_id: t.tournament_id, format: config.format, entrants: config.entrants, seats: config.seats, seed_given: request.seed !== undefined, ...options });
    this.start(t, options);
    return t;
  }

  /**
   * One tournament for a caller: standings from its ended games only, and its games with links.
   * A delayed caller sees a game end only once its spectator delay has passed (gamesAsSeenBy).
   */
  async view(tournamentId: string, role: Role): Promise<TournamentView> {
    const t = await this.store.tournaments.get(tournamentId);
    const stored = await this.store.tournaments.games(tournamentId);
    const games = await gamesAsSeenBy(this.store, stored, role, Date.now(), this.bus.commits);
    // Only entrants and seed matter here; no need to resolve the agents again just to read.
    const entrants = (t.config as Pick<TournamentConfig, 'entrants'>).entrants;
    const results = ratedResultsOf(games, (t.config as Partial<Pick<TournamentConfig, 'rate_degraded'>>).rate_degraded === true);
    // A running tournament's table is redrawn as games end: live resamples; an ended one's is final.
    const resamples = t.status === 'ended' ? DEFAULT_RESAMPLES : LIVE_RESAMPLES;
    const table = await standingsAsSeen(this.store, t, entrants, games, results, standings({ entrants, seed: t.seed }, results, { resamples }), role, resamples);
    return tournamentView(recordAsSeen(t, stored, games), games, table, role, headToHead(entrants, results));
  }

  /** The who-manipulated-whom matrix of a tournament's ended games, as `role` may see it (see attacksOf). */
  async attacks(tournamentId: string, role: Role): Promise<TournamentAttacksView> {
    return attacksOf(this.store, await this.store.tournaments.get(tournamentId), role, Date.now(), this.bus.commits, this.attackRows);
  }

  /** The research report of a tournament's ended games (see reportOf). */
  async report(tournamentId: string, role: Role): Promise<TournamentReportView> {
    return reportOf(this.store, await this.store.tournaments.get(tournamentId), role);
  }

  /**
   * A page of tournaments as `role` may see them: a delayed caller's progress and status of a
   * tournament whose games have a spectator delay come from its games as seen (gamesAsSeenBy), as
   * on GET /tournaments/:id; every other row from the stored counters.
   */
  async list(role: Role, filter: { status?: string[] }, page: { limit?: number; cursor?: string }): Promise<{ tournaments: TournamentSummaryView[]; next_cursor: string | null }> {
    const { tournaments, next_cursor } = await tournamentPage(this.store, filter, page);
    const now = Date.now();
    const rows = await Promise.all(
      tournaments.map(async (t) => {
        if (!delayed(role) || !mayHoldBack(t, now)) return tournamentSummary(t, role, progressOf(t, undefined, this.runningGames(t.tournament_id)));
        const stored = await this.store.tournaments.games(t.tournament_id);
        const seen = await gamesAsSeenBy(this.store, stored, role, now, this.bus.commits);
        return tournamentSummary(recordAsSeen(t, stored, seen), role, progressOf(t, seen));
      }),
    );
    return { tournaments: rows, next_cursor };
  }

  /** How many of a tournament's games are being played in this process now (not waiting for a slot). */
  runningGames(tournamentId: string): number {
    const mine = this.running.get(tournamentId)?.games;
    return mine ? this.games.activity().running.filter((g) => mine.has(g)).length : 0;
  }

  /** Resumes every tournament no runner finished (oldest first). Called once the server listens (createServer). */
  async afterListen(): Promise<void> {
    const unfinished = await this.resumeUnfinished();
    if (unfinished.length) this.logger.emit('info', `resuming ${unfinished.length} unfinished tournament(s)`, { tournament_ids: unfinished });
    // Scaled out, a tournament whose coordinating node died is taken over by whichever node finds
    // its lease expired first. Only the servers' own (stored with options): a CLI tournament keeps
    // its own clock and commit policy, and is resumed with `tiltyard tournament resume`.
    if (this.queue) {
      this.sweep = setInterval(() => void this.resumeUnfinished(true).catch((e: unknown) => this.logger.emit('warn', 'cannot look for unfinished tournaments', { error: message(e) })), LEASE_MS);
      this.sweep.unref();
    }
  }

  private async resumeUnfinished(serversOwn = false): Promise<string[]> {
    const unfinished = (await tournamentPage(this.store, { status: ['created', 'running'] }, { limit: 500 })).tournaments
      .reverse()
      // A server's own tournament stores its games' options (pace_ms…); a CLI one at most a cost limit.
      .filter((t) => !this.running.has(t.tournament_id) && (!serversOwn || typeof t.options?.['pace_ms'] === 'number'));
    for (const t of unfinished) this.start(t, await this.optionsOfResumed(t));
    return unfinished.map((t) => t.tournament_id);
  }

  /** Stops starting games and waits for every runner to return (its games stop with GameService). */
  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.sweep) clearInterval(this.sweep);
    for (const r of this.running.values()) r.controller.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /**
   * How a resumed tournament's games are shown: with the options stored with it; for one created
   * before they were stored, as its first game was (every game of a tournament is created with the
   * same options), or the server's defaults when it had none yet.
   */
  private async optionsOfResumed(t: TournamentRecord): Promise<GameOptions> {
    if (t.options) return optionsOf({ options: t.options }, this.settings.paceMs);
    const [first] = await this.store.tournaments.games(t.tournament_id);
    if (first) return optionsOf(await this.store.getGame(first.game_id), this.settings.paceMs);
    return optionsOf({ options: {} }, this.settings.paceMs);
  }

  /**
   * `POST /tournaments/:id/resume`: plays the failed games of the batch being played again (each a
   * new attempt) and runs the tournament on. Refused (TournamentBusyError) while this node runs it:
   * its runner is playing that batch now, and a runner elsewhere holds the lease.
   */
  async resume(tournamentId: string, maxCostUsd?: number | null): Promise<TournamentRecord> {
    const t = await this.store.tournaments.get(tournamentId);
    if (t.status === 'aborted') throw new TournamentBusyError(`tournament ${tournamentId} was aborted; it cannot be resumed`);
    if (this.running.has(tournamentId)) throw new TournamentBusyError(`tournament ${tournamentId} is running on this server; resume it once it ends or stops`);
    this.start(t, await this.optionsOfResumed(t), { retryFailed: true, ...(maxCostUsd === undefined ? {} : { maxCostUsd }) });
    return t;
  }

  private start(t: TournamentRecord, options: GameOptions, how: { retryFailed?: boolean; maxCostUsd?: number | null } = {}): void {
    if (this.closed || this.running.has(t.tournament_id)) return;
    const controller = new AbortController();
    const games = new Set<string>();
    const id = t.tournament_id;
    const done = (async () => {
      const lease = await this.lease(id);
      if (lease === 'elsewhere') return;
      lease?.lost.addEventListener('abort', () => controller.abort(), { once: true });
      try {
        // Scaled out, the lease's fencing token from the store guards every write of this runner.
        const fence = lease ? await this.store.tournaments.takeFence(id) : undefined;
        const out = await runTournament(id, {
          store: this.store,
          ...(fence === undefined ? {} : { fence }),
          ...(how.retryFailed ? { retryFailed: true } : {}),
          ...(how.maxCostUsd === undefined ? {} : { maxCostUsd: how.maxCostUsd }),
          // The server's game limit is the real bound: let the runner offer it every game it may play.
          concurrency: this.games.capacity,
          signal: controller.signal,
          gameOptions: options,
          play: (gameId, cap) => this.play(gameId, games, controller.signal, cap),
          // Scaled out, the cost cap lives in Redis, shared with the workers that play the games.
          ...(lease && this.queue && this.settings.scale ? { openLedger: this.sharedLedger(this.queue.redis, this.settings.scale.prefix, id) } : {}),
          onEvent: (e) => this.announce(t, e, options.spectator_delay_ms),
        });
        if (lease?.lost.aborted) this.logger.emit('warn', 'tournament taken over by another coordinator (this node could not renew its lease); stopped here', { tournament_id: id });
        else if (out.status === 'stopped_by_budget') this.logger.emit('warn', 'tournament stopped at its cost limit; resume it with a higher max_cost_usd', { tournament_id: id, played: out.done, cost_usd: out.cost_usd, max_cost_usd: out.max_cost_usd });
        else this.logger.emit('info', out.status === 'ended' ? 'tournament ended' : 'tournament paused for shutdown; it resumes at the next start', { tournament_id: id, played: out.done, failed: out.failed });
      } finally {
        await lease?.release();
      }
    })()
      .catch((e: unknown) => {
        // A database away for longer than the store waits: try again later, not only at the next start.
        const again = !this.closed && !controller.signal.aborted && (e instanceof StoreUnavailableError || isTransient(e));
        this.logger.emit('error', again ? `tournament runner failed; it is started again in ${RESTART_MS / 1000} s` : 'tournament runner failed; it resumes at the next start', { tournament_id: id, error: describeChain(e) });
        if (again) setTimeout(() => this.start(t, options), RESTART_MS).unref();
      })
      .finally(() => this.running.delete(id));
    this.running.set(id, { controller, done, games });
  }

  /** Opens the tournament's RedisSpendLedger for a run (a new run clears an earlier run's stop). */
  private sharedLedger(redis: GameQueue['redis'], prefix: string, id: string) {
    return (capUsd: number, spentUsd: number) => RedisSpendLedger.open(redis, prefix, id, { capUsd, spentUsd, reset: true });
  }

  /**
   * Scaled out, the lease that makes this node the tournament's only coordinator: null in-process
   * (one process, `running` already keeps it single), 'elsewhere' while another node or a
   * `tiltyard tournament` holds it (the sweep tries again later).
   */
  private async lease(id: string) {
    if (!this.queue || !this.settings.scale) return null;
    const lease = await acquireLease(this.queue.redis, leaseKey(this.settings.scale.prefix, id), `api node (pid ${process.pid} on ${hostname()})`);
    if ('lost' in lease) return lease;
    this.logger.emit('debug', 'tournament coordinated elsewhere', { tournament_id: id, held_by: lease.held_by });
    return 'elsewhere' as const;
  }

  /**
   * One game of a tournament, played by GameService. A game the server stopped for shutdown is
   * `pending` (resumed later); one that stopped otherwise failed (GameService logged why) and
   * counts for no one — throwing is how the runner records that.
   */
  private async play(gameId: string, inFlight: Set<string>, signal: AbortSignal, cap: PlayCap): Promise<GameOutcome> {
    inFlight.add(gameId);
    // On shutdown the runner must not wait for its games: GameService stops them (whichever of
    // the two shutdown hooks runs first), and they resume at the next start like any game.
    let onAbort = () => {};
    const aborted = new Promise<void>((resolve) => (onAbort = resolve));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race([this.games.play(gameId, cap), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
      inFlight.delete(gameId);
    }
    if (signal.aborted) return { status: 'pending' };
    const game = await this.store.getGame(gameId);
    if (game.status === 'ended') return { status: 'ended', placements: game.placements ?? [] };
    // Cut by the tournament's cost cap at a step boundary: resumable, not failed.
    if (this.games.closing || cap.signal?.aborted) return { status: 'pending' };
    throw new Error(`game ${gameId} did not finish (${game.status}); the server log says why`);
  }

  /** Runner events → lobby notices: public facts only, game ends as late as the games' spectators. */
  private announce(t: TournamentRecord, e: TournamentEvent, delayMs: number): void {
    const at = new Date().toISOString();
    const id = t.tournament_id;
    const config = t.config as Pick<TournamentConfig, 'format' | 'entrants' | 'seats'>;
    if (e.type === 'tournament_started') {
      this.logger.emit('info', e.resumed ? 'tournament resumed' : 'tournament started', { tournament_id: id, scheduled: e.scheduled, played: e.done });
      this.bus.announce({ type: 'tournament_started', tournament_id: id, name: t.name, format: config.format, entrants: config.entrants, seats: config.seats, resumed: e.resumed, at });
    } else if (e.type === 'game_ended') {
      if (!e.placements) {
        this.logger.emit('warn', 'a tournament game failed; it counts for no one', { tournament_id: id, game_id: e.game_id, error: e.error });
        return;
      }
      const running = this.runningGames(id);
      this.bus.announce(
        { type: 'tournament_game_ended', tournament_id: id, game_id: e.game_id, key: e.key, agents: e.seats, placements: e.placements, progress: { played: e.done, scheduled: e.scheduled, running }, at },
        { publicDelayMs: delayMs },
      );
    } else if (e.status === 'ended') {
      this.bus.announce({ type: 'tournament_ended', tournament_id: id, status: 'ended', played: e.done, leader: e.done > 0 ? (e.standings[0]?.agent ?? null) : null, at }, { publicDelayMs: delayMs });
    }
  }
}
