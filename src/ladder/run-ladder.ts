import { wallClock, type InputClock } from '../runner/input-clock.js';
import { registerPersistentGame } from '../runner/persistent-runner.js';
import { SpendLedger } from '../providers/spend-ledger.js';
import { FencedWriteError, isDiskFull, StoreUnavailableError, type DealRecord, type EventStore, type GameRecord, type LadderRecord } from '../store/index.js';
import { tournamentGameId } from '../tournament/game-id.js';
import { playScheduled, type CommitPolicy, type GameOutcome, type GamePorts } from '../tournament/play-scheduled.js';
import { runPool } from '../tournament/pool.js';
import { deriveSeed } from '../tournament/seeds.js';
import type { Standing } from '../tournament/types.js';
import { admitAgent, type Admission } from './admission.js';
import { headroom } from './caps.js';
import { suspensionCause } from './health.js';
import { CHECKPOINT, ladderResults, ladderStandings, resultKey } from './ladder-standings.js';
import { dealRandom, matchDeals, matchEntrants, matchmaker as defaultMatchmaker, type Matchmaker } from './schedule.js';
import { rotation } from '../tournament/duplicate.js';

export type LadderEvent =
  | { type: 'deal_started'; ladder_id: string; deal: number; lineup: string[]; resumed: boolean; reason: string }
  | { type: 'deal_ended'; ladder_id: string; deal: number; status: 'done' | 'void'; cause: string | null; games: number; standings: Standing[] | null }
  | { type: 'entrant_suspended'; ladder_id: string; agent: string; cause: string }
  | { type: 'entrant_benched'; ladder_id: string; agent: string; cause: string };

export type LadderRunOptions = {
  store: EventStore;
  /** Stop after this many games this run (whole deals: the deal that reaches it is finished). Default: one deal. */
  games?: number;
  /** Keep choosing deals until the signal; `games` is then ignored. */
  forever?: boolean;
  /** Once aborted, no game starts; games in flight stop at a step boundary and the deal is resumed next run. */
  signal?: AbortSignal;
  clock?: InputClock;
  commit?: CommitPolicy;
  /** Games of a deal in flight at once (default 1). */
  concurrency?: number;
  /** Between deals (a server's rate): resolves after the pause, or early on the signal. Default: none. */
  pause?: () => Promise<void>;
  /** The time for the daily caps (default: the wall clock). */
  now?: () => Date;
  admit?: Admission;
  matchmaker?: Matchmaker;
  /**
   * Plays one stored game of a deal elsewhere instead of in this process (a server's GameService:
   * on `tiltyard worker`s with REDIS_URL). Not used for a deal with a capped LLM entrant: its
   * ledger lives in this process, so such a deal is played here.
   */
  play?: (gameId: string, created: GameRecord) => Promise<GameOutcome>;
  onEvent?: (event: LadderEvent) => void;
};

/** Why a run stopped: its games were played, the signal, or no deal can be formed (too few entrants may play). */
export type LadderRunOutcome = { ladder_id: string; status: 'done' | 'stopped' | 'waiting'; games: number; deals: number; reason: string | null };

/**
 * Runs a ladder: finishes the deal a killed run left `playing` (its games found by id: a game
 * stored whole is played again from its seed, one stored step by step resumes), then chooses and
 * plays deals until `games` games were played this run (or the signal, with `forever`). A deal is
 * saved before its games exist and counts only once all are stored, when one statement marks it
 * done with the standings it led to; a deal with a failed, degraded or capped game is void (counts
 * for no one). Everything is a function of the ladder's seed and the stored deals, so a run killed
 * at any point and resumed ends with the standings an uninterrupted run has.
 *
 * @example await runLadder('lad_1a2b', { store, games: 40, onEvent: console.log })
 */
export async function runLadder(ladderId: string, options: LadderRunOptions): Promise<LadderRunOutcome> {
  const { store, signal } = options;
  const emit = (e: LadderEvent) => options.onEvent?.(e);
  const limit = options.forever ? Infinity : (options.games ?? 1);
  let played = 0;
  let dealsPlayed = 0;
  const outcome = (status: LadderRunOutcome['status'], reason: string | null = null): LadderRunOutcome => ({ ladder_id: ladderId, status, games: played, deals: dealsPlayed, reason });
  for (;;) {
    if (signal?.aborted) return outcome('stopped');
    const ladder = await store.ladders.get(ladderId);
    const deals = await store.ladders.deals(ladderId);
    let deal = deals.find((d) => d.status === 'playing');
    let reason = 'resumed';
    if (!deal) {
      if (played >= limit) return outcome('done');
      if (dealsPlayed > 0 && options.pause) {
        await options.pause();
        if (signal?.aborted) return outcome('stopped');
      }
      const chosen = await chooseDeal(ladder, deals, options);
      if (!chosen.ok) return outcome('waiting', chosen.message);
      deal = { deal: deals.length, seed: deriveSeed(ladder.seed, 'deal', deals.length), lineup: chosen.lineup, status: 'playing', cause: null, games: [] };
      reason = chosen.reason;
      await store.ladders.startDeal(ladderId, deal);
    }
    emit({ type: 'deal_started', ladder_id: ladderId, deal: deal.deal, lineup: deal.lineup, resumed: reason === 'resumed', reason });
    const end = await playDeal(ladder, deal, options);
    if (end === 'stopped') return outcome('stopped');
    const after = await store.ladders.deals(ladderId);
    let table: Standing[] | null = null;
    if (end.status === 'done') {
      // The fit over every done deal with this one: exact at checkpoints, live intervals between.
      const done = after.map((d) => (d.deal === deal.deal ? { ...d, status: 'done' as const } : d));
      table = ladderStandings(ladder, ladderResults(done), (deal.deal + 1) % CHECKPOINT === 0);
      await store.ladders.finishDeal(ladderId, deal.deal, { status: 'done', standings: table });
    } else {
      await store.ladders.finishDeal(ladderId, deal.deal, { status: 'void', cause: end.cause });
      // Its cap could not cover the next call's worst case: out until an admin raises it (ladder add).
      if (end.capped) {
        const cause = `stopped at its cap: its next LLM call could have passed it (raise it with \`ladder add\`)`;
        await store.ladders.setEntrantStatus(ladderId, end.capped, 'suspended', cause);
        emit({ type: 'entrant_suspended', ladder_id: ladderId, agent: end.capped, cause });
      }
    }
    played += deal.lineup.length;
    dealsPlayed++;
    emit({ type: 'deal_ended', ladder_id: ladderId, deal: deal.deal, status: end.status, cause: end.status === 'void' ? end.cause : null, games: deal.lineup.length, standings: table });
    for (const agent of deal.lineup) {
      const cause = suspensionCause(after, agent);
      const entrant = ladder.entrants.find((e) => e.agent === agent);
      if (cause && entrant?.status === 'active') {
        await store.ladders.setEntrantStatus(ladderId, agent, 'suspended', cause);
        emit({ type: 'entrant_suspended', ladder_id: ladderId, agent, cause });
      }
    }
  }
}

/**
 * The next line-up: admits the active entrants not yet admitted (a refusal suspends with the cause),
 * benches LLM entrants at their caps, and asks the matchmaker with the rest.
 */
async function chooseDeal(ladder: LadderRecord, deals: readonly DealRecord[], options: LadderRunOptions) {
  const { store } = options;
  const id = ladder.ladder_id;
  const admit = options.admit ?? admitAgent;
  const benched = new Set<string>();
  for (const e of ladder.entrants) {
    if (e.status !== 'active' || e.admitted_at !== null) continue;
    const refused = await admit(e.agent);
    if (refused === null) await store.ladders.admit(id, e.agent);
    else {
      await store.ladders.setEntrantStatus(id, e.agent, 'suspended', `admission: ${refused}`);
      e.status = 'suspended';
      options.onEvent?.({ type: 'entrant_suspended', ladder_id: id, agent: e.agent, cause: `admission: ${refused}` });
    }
  }
  for (const h of await headroom(store.ladders, id, ladder.entrants.filter((e) => e.status === 'active'), (options.now ?? (() => new Date()))())) {
    if ('capped' in h) {
      benched.add(h.agent);
      options.onEvent?.({ type: 'entrant_benched', ladder_id: id, agent: h.agent, cause: h.capped });
    }
  }
  const pick = options.matchmaker ?? defaultMatchmaker;
  return pick({ entrants: matchEntrants(ladder.entrants, benched), deals: matchDeals(deals), seats: ladder.seats, next: dealRandom(ladder.seed, deals.length) });
}

/**
 * Plays (or finishes) every rotation of a deal. `stopped`: the signal came first (the deal stays
 * `playing`); otherwise how it ends: done, or void with why (a game failed, degraded, or an LLM
 * entrant's cap stopped it — the ledger reserves each call's worst case first, so none overspends).
 */
async function playDeal(ladder: LadderRecord, deal: DealRecord, options: LadderRunOptions): Promise<'stopped' | { status: 'done' } | { status: 'void'; cause: string; capped?: string }> {
  const { store, signal } = options;
  const id = ladder.ladder_id;
  // One ledger for the deal, as large as the tightest capped entrant in it has left: whoever spends
  // it, no entrant of the deal can pass its cap.
  const room = (await headroom(store.ladders, id, ladder.entrants.filter((e) => deal.lineup.includes(e.agent)), (options.now ?? (() => new Date()))())).map((h) => ({ agent: h.agent, usd: 'usd' in h ? h.usd : 0 }));
  const tightest = room.sort((a, b) => a.usd - b.usd)[0];
  const ledger = tightest ? new SpendLedger(tightest.usd, 0) : null;
  const gameSignal = ledger ? (signal ? AbortSignal.any([signal, ledger.stopped]) : ledger.stopped) : signal;
  const ports: GamePorts = { store, clock: options.clock ?? wallClock, commit: options.commit ?? 'auto', ...(gameSignal ? { signal: gameSignal } : {}), ...(ledger ? { seats: { spend: ledger } } : {}) };
  const rules = ladder.compact ? { windows: 'compact' as const } : {};
  let fatal: Error | null = null;
  const rotations = deal.lineup.map((_, p) => p);
  await runPool(rotations, options.concurrency ?? 1, async (p) => {
    const seats = rotation(deal.lineup, p);
    const gameId = tournamentGameId(id, resultKey(deal.deal, p));
    try {
      const created = await registerPersistentGame(store, { seed: deal.seed, agents: seats, rules, gameId });
      await store.ladders.linkGame(id, { game_id: gameId, deal: deal.deal, rotation: p, seats });
      if (created.status !== 'created' && created.status !== 'running') return;
      const out = options.play && !ledger ? await options.play(gameId, created) : await playScheduled(ports, gameId, created);
      if (out.status === 'ended' && out.degraded) await store.ladders.markGame(id, gameId, { degraded: true });
    } catch (e) {
      if (e instanceof StoreUnavailableError || e instanceof FencedWriteError || isDiskFull(e)) {
        fatal ??= e instanceof Error ? e : new Error(String(e));
        return;
      }
      await store.ladders.markGame(id, gameId, { error: (e instanceof Error ? e.message : String(e)).split('\n')[0]! });
    }
  }, () => signal?.aborted === true || fatal !== null);
  // Set by the pool's workers (closures), which the compiler's narrowing does not see.
  const lost = fatal as Error | null;
  if (lost) throw lost;
  // Judged from what is stored, so a resumed deal is judged as an uninterrupted one would be.
  const stored = (await store.ladders.deals(id, deal.deal))[0]?.games ?? [];
  const settled = stored.filter((g) => g.status !== 'created' && g.status !== 'running');
  if (settled.length < deal.lineup.length) {
    if (signal?.aborted || !ledger?.stopped.aborted) return 'stopped';
    // Cut by a cap: the games left unfinished count for no one, and are not resumed.
    const capped = `${tightest!.agent} reached its cap`;
    for (const g of stored) if (!settled.includes(g)) await store.ladders.markGame(id, g.game_id, { error: capped });
    return { status: 'void', cause: capped, capped: tightest!.agent };
  }
  const problems = settled.flatMap((g) => (g.error !== null ? [`game ${g.game_id} failed: ${g.error}`] : g.status !== 'ended' ? [`game ${g.game_id} ${g.status}`] : g.degraded ? [`game ${g.game_id} degraded`] : []));
  return problems.length ? { status: 'void', cause: problems.join('; ').slice(0, 1000) } : { status: 'done' };
}
