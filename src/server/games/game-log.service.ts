import { BadRequestException, ForbiddenException, Inject, Injectable, Optional } from '@nestjs/common';
import { GameConfig, viewEvent, viewState, type StateView, type Viewer } from '../../game/index.js';
import type { GameEvent } from '../../protocol/index.js';
import type { ReadTrace } from '../../runner/builtin-traces.js';
import { TraceCache } from './trace-cache.js';
import { SimStats } from '../../runner/sim-stats.js';
import { readDecisions, readLog } from '../../runner/stored-game.js';
import { verifyReport, type RunReport } from '../../runner/verify-game.js';
import type { EventStore, GameRecord } from '../../store/index.js';
import { heldBack, viewFor, type Role } from '../auth/roles.js';
import { optionsOf } from '../../live/game-options.js';
import { describeHoldBack, holdsBack, type HoldBack } from '../../live/hold-back.js';
import { viewHash } from '../spectate/state-hash.js';
import { refuseHeld } from '../tournaments/duplicate-hold.js';
import { SPECTATE_CLOCK, STORE } from '../tokens.js';
import { GameBus } from '../../live/game-bus.js';
import { seesFullHashes } from './game-view.js';
import { refuseHiddenFork } from './hidden-fork.js';
import type { EventsQuery, ReplayQuery, SnapshotQuery, TracesQuery, WinProbabilityQuery } from './game-log.schemas.js';
import { winCurve } from '../../eval/curve.js';
import { winReport, type WinReport } from '../../eval/win-report.js';
import { viewKey } from '../spectate/recent-log.js';
import { WinCurveCache } from './win-curve-cache.js';
import type { ReplayFile } from '../../view/replay-file.js';
import { delayedHead, holdBackOfGame } from './spectator-delay.js';
import { maskHidden, type AnalyticsFigures } from './partial-figures.js';
import { withoutManyGameFigures, type WithheldFigure } from './many-game-figures.js';
import { ReasoningIndex, withReasoning } from './stated-reasoning.js';

/** A page of a game's log as one viewer sees it. */
export type EventsPage = {
  game_id: string;
  /** Projected for the viewer, in seq order, contiguous from `after + 1`. */
  events: GameEvent[];
  /** The head this viewer may see (a delayed spectator's lags the log's). */
  last_seq: number;
  /** Pass as `after` for the next page (equal to `after` when nothing new). */
  next_after: number;
};

/** The state after one event, as one viewer sees it. */
export type SnapshotView = {
  game_id: string;
  seq: number;
  /** The head this viewer may see. */
  last_seq: number;
  /** sha256 (hex) of the canonical JSON of `state`, as the socket's snapshots carry: recompute it to detect drift. */
  state_hash: string;
  state: StateView;
};

/** A game's figures (the ones `simulate` reports, for one game), from the log as the caller may see it. */
export type GameAnalytics = {
  game_id: string;
  /** researcher: the public table while the game runs, everything once it is over; admin: everything. */
  view: 'researcher' | 'admin';
  /** Whether hidden details (face-down cards, secret plans, contest outcomes) went into the figures. */
  private_details: boolean;
  status: GameRecord['status'];
  /** Figures whose inputs this view hides are null here (unknown, not zero) and named in `unknown_figures`. */
  figures: AnalyticsFigures;
  /** Which figures are unknown from this view (empty once `private_details`). */
  unknown_figures: string[];
  /** Figures that need many games (skill share, win-rate spread): null in `figures` for one game, each with why. */
  withheld_figures: WithheldFigure[];
};

/** A caller of /events and /snapshot: a role, or a human seat by its token (seat-access.ts). */
export type Reader = Role | { seat: string };

/**
 * A reader's role and viewer: a seat token reads its own seat's view only (any other `?view=` is
 * a 403), live like the seat it plays, under the rules a researcher's read has (holds, hidden forks).
 */
function readerOr4xx(reader: Reader, view: string | undefined, game: GameRecord): { role: Role; viewer: Viewer } {
  if (typeof reader === 'string') return { role: reader, viewer: viewerOr4xx(reader, view, game) };
  if (view !== undefined && view !== reader.seat) throw new ForbiddenException(`a seat token reads its own seat's view (${reader.seat}) only`);
  return { role: 'researcher', viewer: { role: 'seat', player_id: reader.seat } };
}

/** The viewer for a role and `?view=`, or the 400/403 viewFor gives; a seat the game lacks is a 400. */
function viewerOr4xx(role: Role, view: string | undefined, game: GameRecord): Viewer {
  const v = viewFor(role, view, game.status === 'ended', optionsOf(game, 0).spectators);
  if (!v.ok) throw v.status === 400 ? new BadRequestException(`invalid query: ${v.message}`) : new ForbiddenException(v.message);
  if (v.viewer.role === 'seat') {
    const { seats } = GameConfig.parse(game.config);
    const count = typeof seats === 'number' ? seats : seats.length;
    const n = Number(v.viewer.player_id.slice('plr_'.length));
    if (!(n >= 1 && n <= count)) throw new BadRequestException(`invalid query: view: this game has seats plr_1 to plr_${count}, not ${v.viewer.player_id}`);
  }
  return v.viewer;
}

/**
 * Reads a stored game's log and states as a role may see them: every event and state goes through
 * the engine's one projection (viewEvent / viewState); anonymous spectators of a game with a
 * hold-back, and every broadcast view, see it as far behind as the hold-back says; researchers
 * and admins see it live. A fork that kept its parent's deck is not found by non-admins until it
 * ends (hiddenFork).
 */
@Injectable()
export class GameLogService {
  /** The clock the time rule reads (tests inject one; see SPECTATE_CLOCK). */
  private readonly now: () => number;
  /** Ended games' traces, remade once (trace-cache.ts). */
  private readonly traceCache: TraceCache;
  /** Win-probability curves by game, view and head (win-curve-cache.ts). */
  private readonly curves = new WinCurveCache();

  constructor(
    @Inject(STORE) private readonly store: EventStore,
    private readonly bus: GameBus,
    @Optional() @Inject(SPECTATE_CLOCK) clock?: () => number,
  ) {
    this.now = clock ?? Date.now;
    this.traceCache = new TraceCache(store);
  }

  /** @example await log.events('game_ab12', 'spectator', { after: 0, limit: 200 }) */
  async events(gameId: string, reader: Reader, q: EventsQuery): Promise<EventsPage> {
    const game = await this.gameFor(gameId, typeof reader === 'string' ? reader : 'researcher');
    const { role, viewer } = readerOr4xx(reader, q.view, game);
    await refuseHeld(this.store, gameId, role);
    const { head } = await this.visibleHead(game, role, viewer);
    const rows = q.after >= head ? [] : await this.store.read(gameId, q.after, q.limit);
    // The log may have grown since the game row was read: stop at the head that row (or the delay) allows.
    const visible = rows.filter((e) => e.seq <= head);
    // Researchers see private details once the game is over; "over" is the row read above, so a
    // page never mixes projections.
    const gameOver = game.status === 'ended';
    const reasons = await this.reasoningFor(gameId, viewer, visible.length);
    return {
      game_id: gameId,
      // Cut at the head first: an LLM seat's stated reasoning rides only on an event already released.
      events: visible.map((e) => withReasoning(viewEvent(e, viewer, gameOver), viewer, reasons)),
      last_seq: head,
      next_after: visible.at(-1)?.seq ?? q.after,
    };
  }

  /**
   * The whole game as one replay file for the caller's view: the same viewer, duplicate-set hold,
   * spectator-delayed head and projection as `/events` and `/snapshot`, read in one go — the file
   * holds exactly what paging `/events` from 0 (and the seq-0 snapshot) would have given.
   *
   * @example (await log.replay('game_ab12', 'spectator', {})).events.length
   */
  async replay(gameId: string, reader: Reader, q: ReplayQuery): Promise<ReplayFile> {
    const game = await this.gameFor(gameId, typeof reader === 'string' ? reader : 'researcher');
    const { role, viewer } = readerOr4xx(reader, q.view, game);
    await refuseHeld(this.store, gameId, role);
    const { head } = await this.visibleHead(game, role, viewer);
    const gameOver = game.status === 'ended';
    const { base, events } = await this.visibleLog(gameId, viewer, head, gameOver, await this.reasoningFor(gameId, viewer, head));
    const seats = [...game.seats].sort((a, b) => a.seat - b.seat).map((s) => ({ player_id: s.player_id, agent: s.agent, ...(s.display_name ? { display_name: s.display_name } : {}) }));
    const view = viewer.role === 'seat' ? viewer.player_id : viewer.role;
    return { format: 'tiltyard-replay', version: 1, game_id: gameId, view, game_over: gameOver, seats, last_seq: events.at(-1)?.seq ?? 0, base: base as unknown as ReplayFile['base'], events: events as unknown as ReplayFile['events'] };
  }

  /**
   * Each seat's chance to win after every event the caller may see, from the same viewer,
   * duplicate-set hold, delayed head and projection as `/replay` (the same read, visibleLog): the
   * curve is folded from the caller's projected events only, so it cannot know more than they do —
   * anonymous callers of a public game get the public model, read off the public table; the
   * broadcast, admins and researchers after the end the omniscient one (formFor). A human seat's
   * token gets its own seat's curve in the public form, even after the end: the omniscient chances
   * are read off every seat's hand. Only the points
   * where some chance moved are kept. Cached per game, view and head (WinCurveCache).
   *
   * @example (await log.winProbability('game_ab12', 'spectator', {})).points.at(-1)?.p
   */
  async winProbability(gameId: string, reader: Reader, q: WinProbabilityQuery): Promise<WinReport> {
    const game = await this.gameFor(gameId, typeof reader === 'string' ? reader : 'researcher');
    const { role, viewer } = readerOr4xx(reader, q.view, game);
    await refuseHeld(this.store, gameId, role);
    const { head } = await this.visibleHead(game, role, viewer);
    const gameOver = game.status === 'ended';
    const view = viewer.role === 'seat' ? viewer.player_id : viewer.role;
    const key = WinCurveCache.key(gameId, viewKey(view, gameOver), gameOver, head);
    const cached = this.curves.get(key);
    if (cached) return cached;
    const { base, events } = await this.visibleLog(gameId, viewer, head, gameOver, null);
    const report = winReport(gameId, view, head, winCurve({ seq: 0, view: base }, events, viewer, gameOver, { changesOnly: true }));
    this.curves.set(key, report);
    return report;
  }

  /**
   * The agents' decision traces (agent_traces: each decision's stages — the reasoning an LLM seat
   * gave —, calls, repairs, tokens and latency, and the seat's memory after it). They hold what
   * the seat saw and thought, so they follow the full-view rule: admins any time, researchers once
   * the game is over, never anonymous callers; a held duplicate set is refused like /events.
   *
   * @example await log.traces('game_ab12', 'admin', { player: 'plr_2', turn: 3 })
   */
  async traces(gameId: string, role: Role, q: TracesQuery): Promise<{ game_id: string; traces: ReadTrace[] }> {
    const game = await this.gameFor(gameId, role);
    if (!seesFullHashes(role, game.status)) throw new ForbiddenException(role === 'researcher' ? 'decision traces open to researchers once the game is over (admins: any time)' : 'decision traces need a researcher token (once the game is over) or an admin token');
    await refuseHeld(this.store, gameId, role);
    // Built-in seats' traces are made again from the seed and decisions (not stored, issue 29).
    const all = await this.traceCache.traces(game, q.player);
    return { game_id: gameId, traces: q.turn === undefined ? all : all.filter((t) => t.turn === q.turn) };
  }

  /**
   * Analytics for researchers and admins: the log folded into simulate's figures (win by seat and
   * agent, card shares, manipulation and slip rates, rejections, emotion coupling…). It folds the
   * events as the caller's projection shows them, so a researcher's figures for a running game
   * come from the public table only.
   *
   * @example await log.analytics('game_ab12', 'researcher')
   */
  async analytics(gameId: string, role: Role): Promise<GameAnalytics> {
    const game = await this.gameFor(gameId, role);
    await refuseHeld(this.store, gameId, role);
    const viewer: Viewer = role === 'admin' ? { role: 'admin' } : { role: 'researcher' };
    const gameOver = game.status === 'ended';
    const events = (await readLog(this.store, gameId)).map((e) => viewEvent(e, viewer, gameOver));
    const stats = new SimStats();
    const agents = [...game.seats].sort((a, b) => a.seat - b.seat).map((s) => s.agent);
    stats.add({ events, decisions: (await readDecisions(this.store, gameId)).length, agents });
    const masked = maskHidden(stats.figures(), events);
    const { figures, withheld } = withoutManyGameFigures(masked.figures);
    return {
      game_id: gameId,
      view: viewer.role,
      private_details: role === 'admin' || gameOver,
      status: game.status,
      figures,
      unknown_figures: masked.unknown,
      withheld_figures: withheld,
    };
  }

  /** @example await log.snapshot('game_ab12', 'admin', { seq: 40, view: 'plr_2' }) */
  async snapshot(gameId: string, reader: Reader, q: SnapshotQuery): Promise<SnapshotView> {
    const game = await this.gameFor(gameId, typeof reader === 'string' ? reader : 'researcher');
    const { role, viewer } = readerOr4xx(reader, q.view, game);
    await refuseHeld(this.store, gameId, role);
    const { head, hold } = await this.visibleHead(game, role, viewer);
    const seq = q.seq ?? head;
    // A delayed spectator learns nothing of the live head, not even from an error: past its own
    // head, every seq is "not visible yet".
    if (seq > head && head < game.last_seq)
      throw new ForbiddenException(
        `seq ${seq} is not visible yet: ${viewer.role === 'broadcast' ? 'the broadcast shows' : 'spectators watch'} this game ${describeHoldBack(hold)} (now up to seq ${head}); researcher and admin tokens watch live`,
      );
    if (seq > head) throw new BadRequestException(`invalid query: seq: ${seq} is past the head of the log (${head})`);
    const state = viewState(await this.store.stateAt(gameId, seq), viewer, game.status === 'ended');
    return { game_id: gameId, seq, last_seq: head, state_hash: viewHash(state), state };
  }

  /**
   * Checks a stored game end to end (see verifyGame). Nothing is written on the server: the
   * response is the report, so `artifacts_path` is where it can be fetched again. A report on a
   * running game is an admin's: its failure details quote hashes of full states, and re-simulating
   * uses the seed, so researchers may verify a game once it is over.
   */
  async verify(gameId: string, role: Role): Promise<RunReport> {
    const game = await this.gameFor(gameId, role);
    if (!seesFullHashes(role, game.status)) throw new ForbiddenException('verifying a game that has not ended needs an admin token (researchers may verify it once it is over)');
    await refuseHeld(this.store, gameId, role);
    return { ...(await verifyReport(this.store, gameId)), artifacts_path: `/games/${encodeURIComponent(gameId)}/verify` };
  }

  /**
   * What a viewer may see of a game up to `head`: its projected state at seq 0 and every event
   * after it, projected (and, on the broadcast view, dressed with the stated reasoning).
   */
  private async visibleLog(gameId: string, viewer: Viewer, head: number, gameOver: boolean, reasons: ReasoningIndex | null): Promise<{ base: StateView; events: GameEvent[] }> {
    const events: GameEvent[] = [];
    while (events.length < head) {
      const rows = await this.store.read(gameId, events.length, 1000);
      if (rows.length === 0) break;
      for (const e of rows) if (e.seq <= head) events.push(withReasoning(viewEvent(e, viewer, gameOver), viewer, reasons));
      if (rows.at(-1)!.seq >= head) break;
    }
    return { base: viewState(await this.store.stateAt(gameId, 0), viewer, gameOver), events };
  }

  /** The stated reasoning of LLM seats, read only for the broadcast view (the one view that shows it) when it has events to go on. */
  private async reasoningFor(gameId: string, viewer: Viewer, events: number): Promise<ReasoningIndex | null> {
    if (viewer.role !== 'broadcast' || events === 0) return null;
    const index = new ReasoningIndex(this.store, gameId);
    await index.refresh();
    return index;
  }

  /** The game's record, or a 404 as for an unknown id when it is a fork hidden from this caller (hiddenFork). */
  private async gameFor(gameId: string, role: Role): Promise<GameRecord> {
    const game = await this.store.getGame(gameId);
    refuseHiddenFork(game, role);
    return game;
  }

  /** The head a viewer may see now: the game's hold-back applies to anonymous callers and to every broadcast view. */
  private async visibleHead(game: GameRecord, role: Role, viewer: Viewer): Promise<{ head: number; hold: HoldBack }> {
    const hold = holdBackOfGame(game);
    const held = heldBack(role, viewer) && holdsBack(hold);
    return { head: held ? await delayedHead(this.store, game, hold, this.now(), this.bus.commits) : game.last_seq, hold };
  }
}
