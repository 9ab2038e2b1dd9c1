import type { PlayCap } from '../../tournament/runner.js';
import { Inject, Injectable, Optional, type BeforeApplicationShutdown } from '@nestjs/common';
import { bootMark } from '../../lib/boot-marks.js';
import { GameJobFailedError } from '../../scale/game-job-failed.js';
import type { GameQueue } from '../../scale/game-queue.js';
import { MAX_RUN_FAILURES, createPersistentGame, newGameId } from '../../runner/persistent-runner.js';
import { InvalidInputError, type EventStore, type GamePage, type GameRecord, type ListGamesFilter, type Page } from '../../store/index.js';
import type { ServerSettings } from '../config.js';
import type { JsonLogger } from '../../lib/json-logger.js';
import { GAME_QUEUE_PORT, LOGGER, SETTINGS, STORE } from '../tokens.js';
import { demoAgents, demoProblem } from './demo-lineup.js';
import { freshSeed } from '../../lib/fresh-seed.js';
import { spectatorOptions } from './broadcast-mode.js';
import type { ForkGameBody } from './fork-request.js';
import { forkOptions } from './fork-options.js';
import { forkGame } from '../../research/fork-game.js';
import { GameBus } from '../../live/game-bus.js';
import type { GameOptions } from '../../live/game-options.js';
import { optionsOf } from '../../live/game-options.js';
import type { GameRequest } from './game-request.js';
import { GameCompactor } from './game-compactor.js';
import { GameScheduler } from './game-scheduler.js';
import { playLive } from '../../live/live-game.js';
import { HumanDesk } from '../../agents/seat/human-desk.js';
import { DEFAULT_HUMAN_TIMEOUT_MS, HUMAN_PACE_MS } from '../../live/game-options.js';
import { humanSeatIds, humansRefused, issueSeatTokens, type HumanSeatTicket } from './seat-tokens.js';

/** The server is shutting down and takes no new games (HTTP 503). */
export class GameServiceClosedError extends Error {
  override readonly name = 'GameServiceClosedError';
  constructor() {
    super('the server is shutting down and takes no new games');
  }
}

/** Human seats need the games played in this process (no REDIS_URL workers): HTTP 400. */
export class HumanSeatsUnavailableError extends Error {
  override readonly name = 'HumanSeatsUnavailableError';
  constructor() {
    super('human seats are answered on the server that plays the game; with REDIS_URL games run on workers, so this server takes no human seats');
  }
}

/** After a demo game failed, wait this long before dealing the next (no tight failure loop). */
const DEMO_RETRY_MS = 5_000;
/** A failed game is tried again after this, doubling per failure in a row, until it is `failed`. */
const RUN_RETRY_MS = 1_000;
/** With REDIS_URL: games this server follows at once on the workers (each costs a store read per poll). */
const QUEUED_GAMES = 1_000;

/**
 * Owns the games this server plays: registers new ones, runs up to settings.maxGames at once (a
 * queue beyond), publishes every committed step on the GameBus, resumes unfinished games at boot,
 * keeps the demo table playing, and on shutdown stops every runner between steps and waits for it,
 * so nothing is lost: an unfinished game simply resumes at the next start.
 */
@Injectable()
export class GameService implements BeforeApplicationShutdown {
  private readonly scheduler: GameScheduler;
  /** Ended games to cold storage, in the background (null: TILTYARD_COMPACT=off). */
  private readonly compactor: GameCompactor | null;
  /** The demo table's current game (null: none yet, or the demo is off). */
  private demoGameId: string | null = null;
  private demoCount = 0;
  private demoTimer: NodeJS.Timeout | null = null;
  /** Callers of play() waiting for a game's run to finish, by game id. */
  private readonly waiters = new Map<string, Array<() => void>>();
  /** Games whose job has started and not yet returned (the scheduler forgets them a tick later). */
  private readonly playing = new Set<string>();
  /** The cost cap of a tournament's game, for as long as the tournament waits on it (see play). */
  private readonly caps = new Map<string, PlayCap>();

  constructor(
    @Inject(STORE) private readonly store: EventStore,
    @Inject(SETTINGS) private readonly settings: ServerSettings,
    @Inject(LOGGER) private readonly logger: JsonLogger,
    readonly bus: GameBus,
    readonly desk: HumanDesk,
    @Optional() @Inject(GAME_QUEUE_PORT) private readonly queue: GameQueue | null = null,
  ) {
    const deps = { store, bus, logger, defaultPaceMs: settings.paceMs, desk };
    this.compactor = settings.compact ? new GameCompactor(store, logger) : null;
    const capped = (id: string, signal: AbortSignal) => {
      const cap = this.caps.get(id);
      return { cap, signal: cap?.signal ? AbortSignal.any([signal, cap.signal]) : signal };
    };
    const run = queue
      ? (id: string, signal: AbortSignal) => {
          const { cap, signal: s } = capped(id, signal);
          return this.onWorkers(queue, id, s, cap?.tournament_id);
        }
      : (id: string, signal: AbortSignal) => {
          const { cap, signal: s } = capped(id, signal);
          return playLive(deps, id, s, cap?.spend);
        };
    this.scheduler = new GameScheduler(
      this.capacity,
      async (id, signal) => {
        this.playing.add(id);
        try {
          const out = await run(id, signal);
          // Off the game's path: the job returns now, the compactor takes it when it is free.
          if (out?.status === 'ended') this.compactor?.enqueue(id);
          if (id === this.demoGameId && out?.status !== 'stopped') void this.nextDemo(out ? 0 : DEMO_RETRY_MS);
          else if (out === null && !signal.aborted) await this.retryLater(id);
        } finally {
          this.playing.delete(id);
          this.release(id);
        }
      },
      (id, e) => logger.emit('error', 'game runner failed', { game_id: id, error: String(e) }),
    );
  }

  /**
   * Registers a validated game request (a fresh 53-bit seed unless it names one) and queues it.
   *
   * @example const game = await games.create({ agents: ['balanced', 'turtle'], pace_ms: 0 })
   */
  async create(request: GameRequest, extra: { demo?: boolean } = {}): Promise<GameRecord & { human_seats: HumanSeatTicket[] }> {
    if (this.scheduler.isClosed) throw new GameServiceClosedError();
    const humans = humanSeatIds(request.agents).length > 0;
    // The desk where a person's answers arrive lives in this process; workers could not reach it.
    if (humans && this.queue) throw new HumanSeatsUnavailableError();
    const options: GameOptions = {
      // A person follows the agents' moves as they come: a step at least every 1.5 s by default.
      pace_ms: request.pace_ms ?? (humans ? Math.max(HUMAN_PACE_MS, this.settings.paceMs) : this.settings.paceMs),
      spectator_delay_ms: request.spectator_delay_ms ?? 0,
      demo: extra.demo === true,
      ...spectatorOptions(request, request.agents),
      ...(humans ? { human_timeout_ms: request.human_timeout_ms ?? DEFAULT_HUMAN_TIMEOUT_MS } : {}),
    };
    const gameId = await createPersistentGame(this.store, {
      gameId: newGameId(),
      seed: request.seed ?? freshSeed(),
      agents: request.agents,
      ...(request.rules ? { rules: request.rules } : {}),
      options,
    });
    // Before the game is queued, so its first request already has a token that may answer it.
    const human_seats = await issueSeatTokens(this.store, gameId, request.agents);
    const game = await this.store.getGame(gameId);
    // The tokens are never logged: a log line is read by more people than a seat is given to.
    this.logger.emit('info', 'game created', { game_id: gameId, agents: request.agents, ...options, seed_given: request.seed !== undefined });
    this.scheduler.enqueue(gameId);
    return { ...game, human_seats };
  }

  /**
   * Forks a stored game (see research/fork-game.ts) and queues the fork like any new game: it
   * plays on from the fork point at this server's pace and on its bus.
   *
   * @example const fork = await games.fork('game_ab12', { at: { round: 3 }, reseed: 7 })
   */
  async fork(parentId: string, body: ForkGameBody): Promise<GameRecord> {
    if (this.scheduler.isClosed) throw new GameServiceClosedError();
    const parent = await this.store.getGame(parentId);
    const agents = body.agents ?? [...parent.seats].sort((a, b) => a.seat - b.seat).map((s) => s.agent);
    // A fork's seats get no tokens, so a human seat there could never answer.
    const humans = humansRefused(agents, 'a fork');
    if (humans) throw new InvalidInputError(`${humans}; name its seats' agents with "agents"`);
    const options = forkOptions(parent, agents, body.pace_ms ?? this.settings.paceMs);
    const game = await forkGame(this.store, parentId, { at: body.at, ...(body.agents ? { agents: body.agents } : {}), ...(body.reseed !== undefined ? { reseed: body.reseed } : {}), ...(body.same_deck ? { sameDeck: true } : {}), options });
    // The secret is not logged: logs are read by more people than admin tokens are given to.
    this.logger.emit('info', 'game forked', { game_id: game.game_id, parent_game_id: parentId, fork_seq: game.last_seq, draws: body.same_deck ? 'same_deck' : body.reseed !== undefined ? 'chosen_secret' : 'fresh_secret' });
    this.scheduler.enqueue(game.game_id);
    return game;
  }

  /**
   * Plays a stored game (one registered elsewhere, e.g. by a tournament) under this server's limit
   * and on its bus, like any other: queues it unless it is queued or running already, and resolves
   * once this server is done with it — ended, failed, or stopped by shutdown. The caller reads the
   * store to tell which. Resolves at once when the server is closed or nothing runs it any more.
   *
   * @example await games.play(gameId); (await store.getGame(gameId)).status // 'ended'
   */
  play(gameId: string, cap: PlayCap = {}): Promise<void> {
    if (this.scheduler.isClosed) return Promise.resolve();
    // In-process the game's seats reserve on `cap.spend`; queued, the worker joins the tournament's
    // shared ledger in Redis (the job names the tournament) and the cap's stop ends the following.
    if (cap.spend) this.caps.set(gameId, cap);
    const done = new Promise<void>((resolve) => this.waiters.set(gameId, [...(this.waiters.get(gameId) ?? []), resolve]));
    const pending = this.scheduler.enqueue(gameId) || this.playing.has(gameId) || this.scheduler.activity().queued.includes(gameId);
    if (!pending) this.release(gameId);
    return done;
  }

  /**
   * Games this server has in flight at once: its own limit when it plays them, or (REDIS_URL) a
   * bound on how many it follows while workers play them (the workers' concurrency is the real one).
   */
  get capacity(): number {
    return this.queue ? QUEUED_GAMES : this.settings.maxGames;
  }

  /**
   * Where a game runs with REDIS_URL set: queued for the workers, and followed in the store (woken
   * early by the lobby notice of its end on the bus) until it settles or this server shuts down.
   */
  private async onWorkers(queue: GameQueue, gameId: string, signal: AbortSignal, tournamentId?: string): Promise<{ status: 'ended' | 'stopped' } | null> {
    const wake = (id: string, w: () => void) => this.bus.onLobby((n) => (n.type === 'game_ended' || n.type === 'game_failed') && n.game_id === id && w());
    try {
      const game = await queue.follow(this.store, { game_id: gameId, mode: 'live', ...(tournamentId ? { tournament_id: tournamentId } : {}) }, { signal, wake });
      if (!game) return { status: 'stopped' };
      return game.status === 'ended' ? { status: 'ended' } : null;
    } catch (e) {
      if (!(e instanceof GameJobFailedError)) throw e;
      this.logger.emit('error', 'game failed on a worker', { game_id: gameId, error: e.message });
      return null;
    }
  }

  /** True once shutdown began: no game starts any more, and unfinished ones wait for the next start. */
  get closing(): boolean {
    return this.scheduler.isClosed;
  }

  get(gameId: string): Promise<GameRecord> {
    return this.store.getGame(gameId);
  }

  list(filter: ListGamesFilter, page: Page): Promise<GamePage> {
    return this.store.listGames(filter, page);
  }

  /** The games playing in this process and those waiting for a slot. */
  activity(): { running: string[]; queued: string[]; demo: string | null } {
    return { ...this.scheduler.activity(), demo: this.demoGameId };
  }

  /**
   * Resumes every unfinished game (oldest first); `dealDemo` then makes sure the demo table is
   * playing. Called once the server listens (createServer), not at Nest's bootstrap: /health
   * answers first, and a server that cannot listen has created nothing.
   */
  async afterListen(): Promise<void> {
    const unfinished = await this.unfinished();
    bootMark('unfinished games read');
    for (const g of unfinished) this.scheduler.enqueue(g.game_id);
    // Games that ended while hot (a crash mid-compaction, compaction off last time, an older store).
    this.compactor?.sweep();
    if (unfinished.length) this.logger.emit('info', `resuming ${unfinished.length} unfinished game(s)`, { game_ids: unfinished.map((g) => g.game_id) });
    this.unfinishedDemo = unfinished.filter((g) => optionsOf(g, this.settings.paceMs).demo).pop()?.game_id ?? null;
  }

  /** The demo game the last process left unfinished (read by afterListen): the table's game again. */
  private unfinishedDemo: string | null = null;

  /**
   * Makes sure the demo table is playing (after afterListen, once the server has answered its
   * first request: see createServer). Resolves once the demo game is dealt (or found).
   */
  async dealDemo(): Promise<void> {
    if (!this.settings.demo || this.scheduler.isClosed) return;
    const problem = demoProblem(this.settings.demoAgents);
    if (problem) {
      this.logger.emit('error', `the demo table is off: ${problem}`);
      return;
    }
    // A demo game the last process left unfinished is the table's game again: no second one.
    if (this.unfinishedDemo) this.demoGameId = this.unfinishedDemo;
    else await this.nextDemo(0);
    bootMark('demo game ready');
  }

  /** Takes no more work, stops the runners between steps and waits for them. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.demoTimer) clearTimeout(this.demoTimer);
    const { running, queued } = this.scheduler.activity();
    await this.scheduler.close();
    await this.compactor?.close();
    // Queued games were dropped (they resume at the next start): nobody will finish them here.
    for (const id of [...this.waiters.keys()]) this.release(id);
    this.logger.emit('info', 'games stopped; unfinished ones resume at the next start', { running: running.length, queued: queued.length });
  }

  /**
   * A game whose runner failed (and was counted) is queued again after a backoff, so a passing
   * hiccup costs seconds, not a restart; the runner marks it failed at MAX_RUN_FAILURES in a row.
   */
  private async retryLater(gameId: string): Promise<void> {
    const game = await this.store.getGame(gameId).catch(() => null);
    if (!game || (game.status !== 'created' && game.status !== 'running')) return;
    if (game.run_failures === 0 || game.run_failures >= MAX_RUN_FAILURES) return;
    const delayMs = RUN_RETRY_MS * 2 ** (game.run_failures - 1);
    this.logger.emit('info', `game runner failed; retrying in ${delayMs} ms`, { game_id: gameId, run_failures: game.run_failures, reason: game.failure_reason });
    setTimeout(() => this.scheduler.enqueue(gameId), delayMs).unref();
  }

  /** Deals the demo table's next game after `delayMs` (unless the server is closing); resolves once dealt when delayMs is 0. */
  private async nextDemo(delayMs: number): Promise<void> {
    if (!this.settings.demo || this.scheduler.isClosed) return;
    this.demoGameId = null;
    const deal = async () => {
      this.demoTimer = null;
      try {
        // Broadcast by default, so anyone opening the visualizer sees the whole story a round late;
        // a demo seat that could act on it holds the broadcast to the game's end (never refused).
        const request = { agents: demoAgents(this.settings.demoAgents, this.demoCount++), pace_ms: this.settings.paceMs, spectators: this.settings.demoSpectators };
        const game = await this.create(request, { demo: true });
        this.demoGameId = game.game_id;
      } catch (e) {
        if (e instanceof GameServiceClosedError) return;
        this.logger.emit('error', 'cannot deal a demo game', { error: e instanceof Error ? e.message : String(e) });
        void this.nextDemo(DEMO_RETRY_MS);
      }
    };
    if (delayMs === 0) await deal();
    else (this.demoTimer = setTimeout(() => void deal(), delayMs)).unref();
  }

  private release(gameId: string): void {
    const waiting = this.waiters.get(gameId);
    this.waiters.delete(gameId);
    this.caps.delete(gameId);
    for (const resolve of waiting ?? []) resolve();
  }

  /** Games no runner finished (created or running), oldest first. */
  private async unfinished(): Promise<GameRecord[]> {
    const games: GameRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.store.listGames({ status: ['created', 'running'] }, { limit: 500, ...(cursor ? { cursor } : {}) });
      games.push(...page.games);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return games.reverse();
  }
}
