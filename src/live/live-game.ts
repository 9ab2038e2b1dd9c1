import type { GameEvent } from '../protocol/index.js';
import { keepsParentDeck, lineageIn } from '../research/fork-lineage.js';
import { resumePersistent, type RunOutcome } from '../runner/persistent-runner.js';
import { DivergenceError } from '../runner/runner-errors.js';
import type { EventStore } from '../store/index.js';
import type { JsonLogger } from '../lib/json-logger.js';
import type { GameBus } from './game-bus.js';
import type { CostLedger } from '../providers/spend-ledger.js';
import { DEFAULT_HUMAN_TIMEOUT_MS, optionsOf } from './game-options.js';
import type { HumanDesk } from '../agents/seat/human-desk.js';

/** What playing a game live needs: the ports, and the pace for games that stored none. */
export type LiveDeps = { store: EventStore; bus: GameBus; logger: JsonLogger; defaultPaceMs: number; /** Where human seats' requests wait (none: a game with one fails to seat it). */ desk?: HumanDesk };

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

/**
 * Plays (or resumes) one stored game to its end, or until the signal stops it between steps:
 * every committed step goes on the bus, the lobby hears it start and end, and each of those is a
 * structured log line with the game's id. Returns the runner's outcome, or null when it failed
 * (logged; a diverged game is marked aborted, since resuming it can only diverge again; any other
 * failure was counted by the runner, which marks the game failed at MAX_RUN_FAILURES in a row, and
 * the lobby hears of that). Never throws: this is the fault boundary around one game.
 */
export async function playLive(deps: LiveDeps, gameId: string, signal: AbortSignal, spend?: CostLedger): Promise<RunOutcome | null> {
  try {
    return await playGuarded(deps, gameId, signal, spend);
  } catch (e) {
    // Reading the game before the run (a database hiccup): nothing was counted, the next start retries.
    deps.logger.emit('error', 'game failed before it ran', { game_id: gameId, error: message(e) });
    return null;
  }
}

async function playGuarded(deps: LiveDeps, gameId: string, signal: AbortSignal, spend?: CostLedger): Promise<RunOutcome | null> {
  const { store, bus, logger } = deps;
  const game = await store.getGame(gameId);
  if (game.status === 'ended' || game.status === 'aborted' || game.status === 'failed' || signal.aborted) return null;
  const options = optionsOf(game, deps.defaultPaceMs);
  const agents = game.seats.map((s) => s.agent);
  let where = { turn: 0, phase: 'setup' };
  const started = Date.now();
  logger.emit('info', game.last_seq > 0 ? 'game resumed' : 'game started', {
    game_id: gameId,
    agents,
    from_seq: game.last_seq,
    pace_ms: options.pace_ms,
    demo: options.demo,
  });
  // A fork that kept its parent's deck is hidden from all but admins until it ends (server/games/hidden-fork.ts).
  const fork = lineageIn(game);
  const hidden = { adminOnly: fork !== null && keepsParentDeck(fork) };
  bus.announce({ type: 'game_started', game_id: gameId, agents, at: new Date().toISOString() }, hidden);
  bus.commits.retain(gameId, options.spectator_delay_ms);
  try {
    const out = await resumePersistent(store, gameId, {
      signal,
      paceMs: options.pace_ms,
      // A tournament's cost cap, shared with its other games (tournaments.service.ts).
      seats: {
        ...(spend ? { spend } : {}),
        ...(deps.desk ? { human: { desk: deps.desk, gameId, timeoutMs: options.human_timeout_ms ?? DEFAULT_HUMAN_TIMEOUT_MS, signal } } : {}),
      },
      onDecision: (player, answer) => {
        const t = answer.trace;
        const fields = { game_id: gameId, ...where, player_id: player, window: t?.window, agent: t?.agent, latency_ms: t?.latency_ms };
        // Every decision at debug; an agent that failed (the engine's fallback applies) at warn.
        if (t && !t.ok) logger.emit('warn', 'agent gave no usable answer; the rules fallback applies', { ...fields, failure: t.failure, fallback: t.fallback, health: t.health });
        else logger.emit('debug', 'decision', fields);
      },
      onCommit: (seq, state, events) => {
        where = { turn: state.turn, phase: state.phase };
        try {
          // The runner's state moves on in place and may share objects with these events, while
          // listeners queue them for later: hand them a copy of their own.
          bus.publish({ game_id: gameId, events: structuredClone(events) as GameEvent[], last_seq: seq, committed_at: Date.now() });
        } catch (e) {
          // A broken listener must not fail a game whose step is already committed.
          logger.emit('error', 'a game bus listener failed', { game_id: gameId, ...where, seq, error: message(e) });
        }
      },
    });
    const fields = { game_id: gameId, ...where, last_seq: out.lastSeq, appended: out.appended, duration_ms: Date.now() - started };
    if (out.status === 'ended') {
      logger.emit('info', 'game ended', { ...fields, placements: out.placements });
      bus.announce({ type: 'game_ended', game_id: gameId, placements: out.placements, at: new Date().toISOString() });
    } else if (out.status === 'stopped') {
      logger.emit('info', 'game paused for shutdown; it resumes at the next start', fields);
    } else {
      logger.emit('warn', 'game superseded: another runner is writing it', fields);
    }
    return out;
  } catch (e) {
    logger.emit('error', 'game failed', { game_id: gameId, ...where, error: message(e), ...(e instanceof Error && e.stack ? { stack: e.stack } : {}) });
    if (e instanceof DivergenceError) {
      await store.setStatus(gameId, 'aborted').catch(() => {});
      logger.emit('warn', 'game aborted: its log and its agents disagree, so it cannot be resumed', { game_id: gameId, ...where });
      return null;
    }
    const after = await store.getGame(gameId).catch(() => null);
    if (after?.status === 'failed') {
      const reason = after.failure_reason ?? message(e);
      logger.emit('warn', `game failed: its runner failed ${after.run_failures} times in a row; it is not resumed again`, { game_id: gameId, reason });
      bus.announce({ type: 'game_failed', game_id: gameId, reason, at: new Date().toISOString() }, hidden);
    }
    return null;
  } finally {
    bus.commits.release(gameId);
  }
}
