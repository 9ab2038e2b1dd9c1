import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logicalInputClock } from '../../src/runner/input-clock.js';
import { storedSeatSummaries } from '../../src/runner/seat-summary.js';
import { readLog } from '../../src/runner/stored-game.js';
import { verifyGame } from '../../src/runner/verify-game.js';
import { FencedWriteError, InvalidInputError, TournamentNotFoundError, type EventStore } from '../../src/store/index.js';
import { createTournament } from '../../src/tournament/create.js';
import { tournamentGameId } from '../../src/tournament/game-id.js';
import { playScheduled } from '../../src/tournament/play-scheduled.js';
import { resultsOf } from '../../src/tournament/results.js';
import { runTournament, storedConfig, type TournamentRunnerOptions } from '../../src/tournament/runner.js';
import type { TournamentEvent } from '../../src/tournament/runner-events.js';
import { standings } from '../../src/tournament/standings.js';
import type { TestStore } from '../store/support.js';

/** Short games (compact windows, a low round cap) so a tournament of many fits a loaded machine. */
const SMALL = { seats: 2, seeds: 1, compact: true, rules: { round_cap: 4 } };
const ENTRANTS = ['balanced', 'aggressor', 'turtle'];

async function create(store: EventStore, input: Record<string, unknown>): Promise<string> {
  const r = await createTournament(store, { entrants: ENTRANTS, seed: 3, ...SMALL, ...input });
  if (!r.ok) throw new Error(r.message);
  return r.tournament.tournament_id;
}

async function run(store: EventStore, id: string, options: Partial<TournamentRunnerOptions> = {}) {
  const events: TournamentEvent[] = [];
  const out = await runTournament(id, { store, ratingsEveryMs: 0, onEvent: (e) => events.push(e), ...options });
  return { out, events };
}

/** Every stored game of a tournament passes every verifyGame assertion. */
async function expectAllVerify(store: EventStore, id: string): Promise<number> {
  const games = await store.tournaments.games(id);
  for (const g of games) {
    const { assertions } = await verifyGame(store, g.game_id);
    expect(assertions.filter((a) => a.status !== 'pass'), `${g.game_id} (${g.key})`).toEqual([]);
  }
  return games.length;
}

/** The stored ratings equal the standings recomputed from the stored games, bit for bit. */
async function expectRatingsRecomputable(store: EventStore, id: string): Promise<void> {
  const config = storedConfig(await store.tournaments.get(id));
  const recomputed = standings(config, resultsOf(await store.tournaments.games(id)));
  const stored = (await store.tournaments.ratings(id)).map((r) => r.standing);
  // Same rows in the same order (ties in entrant order, both ways).
  expect(JSON.stringify(stored)).toBe(JSON.stringify(recomputed));
}

/**
 * The tournament store and runner, as is, on each database. `open` gives a fresh store.
 */
export function tournamentSuite(open: () => Promise<TestStore>): void {
  let t: TestStore;
  let store: EventStore;
  beforeAll(async () => {
    t = await open();
    store = t.store;
  });
  afterAll(async () => {
    await t?.dispose();
  });

  describe('store', () => {
    it('creates a tournament idempotently, refuses another config under its id, lists newest first, and knows unknown ids', async () => {
      const a = await store.tournaments.create({ tournament_id: 'trn_store_a', config: { seed: 1, format: 'swiss' } });
      expect(a).toMatchObject({ tournament_id: 'trn_store_a', seed: 1, status: 'created', batch: null, progress: { games: 0, ended: 0, failed: 0, pending: 0 } });
      expect((await store.tournaments.create({ tournament_id: 'trn_store_a', config: { seed: 1, format: 'swiss' } })).created_at).toBe(a.created_at);
      await expect(store.tournaments.create({ tournament_id: 'trn_store_a', config: { seed: 2, format: 'swiss' } })).rejects.toBeInstanceOf(InvalidInputError);
      expect(a.options).toBeNull();
      // The server's options (pace, spectator delay) are kept with the tournament for its resume.
      const withOptions = await store.tournaments.create({ tournament_id: 'trn_store_o', config: { seed: 3 }, options: { pace_ms: 250, spectator_delay_ms: 4000, demo: false } });
      expect(withOptions.options).toEqual({ pace_ms: 250, spectator_delay_ms: 4000, demo: false });
      expect((await store.tournaments.get('trn_store_o')).options).toEqual({ pace_ms: 250, spectator_delay_ms: 4000, demo: false });
      await store.tournaments.create({ tournament_id: 'trn_store_b', config: { seed: 1 } });
      const ids = (await store.tournaments.list()).map((x) => x.tournament_id);
      expect(ids.indexOf('trn_store_b')).toBeLessThan(ids.indexOf('trn_store_a'));
      await expect(store.tournaments.get('trn_nope')).rejects.toBeInstanceOf(TournamentNotFoundError);
      await expect(store.tournaments.setStatus('trn_nope', 'running')).rejects.toBeInstanceOf(TournamentNotFoundError);
    });

    it('reads stored ratings in the standings order: best rating first, equal ratings in entrant order (not by name)', async () => {
      const config = { seed: 1, format: 'round-robin', entrants: ['zeta', 'alpha', 'mid'], seats: 2 };
      await store.tournaments.create({ tournament_id: 'trn_ties', config });
      // No games: every agent has the starting rating, so the whole table is one tie.
      const table = standings(config, []);
      expect(table.map((s) => s.agent)).toEqual(['zeta', 'alpha', 'mid']);
      await store.tournaments.saveRatings('trn_ties', [...table].reverse());
      expect((await store.tournaments.ratings('trn_ties')).map((r) => r.standing.agent)).toEqual(['zeta', 'alpha', 'mid']);
      const better = { ...table[2]!, mu: table[2]!.mu + 1 };
      await store.tournaments.saveRatings('trn_ties', [table[0]!, table[1]!, better]);
      expect((await store.tournaments.ratings('trn_ties')).map((r) => r.standing.agent)).toEqual(['mid', 'zeta', 'alpha']);
    });

    it('links a game idempotently under its key and refuses a second game under that key', async () => {
      await store.tournaments.create({ tournament_id: 'trn_link', config: { seed: 1 } });
      for (const id of ['game_link_1', 'game_link_2']) await store.createGame({ seed: 1, game_id: id, config: { seats: 2 } });
      const link = { game_id: 'game_link_1', key: 'k1', round: 0, table: 0, seats: ['a', 'b'] };
      await store.tournaments.linkGame('trn_link', link);
      await store.tournaments.linkGame('trn_link', link);
      await expect(store.tournaments.linkGame('trn_link', { ...link, game_id: 'game_link_2' })).rejects.toBeInstanceOf(InvalidInputError);
      expect(await store.tournaments.games('trn_link')).toMatchObject([{ game_id: 'game_link_1', key: 'k1', seats: ['a', 'b'], status: 'created', state: 'pending', error: null }]);
      await store.setStatus('game_link_1', 'aborted');
      expect((await store.tournaments.games('trn_link'))[0]).toMatchObject({ status: 'aborted', state: 'failed' });
    });
  });

  describe('runner', () => {
    for (const [format, extra] of [
      ['round-robin', {}],
      ['swiss', { rounds: 2 }],
      ['gauntlet', {}],
    ] as const) {
      it(`plays a ${format} tournament to its end: every game verifies, the stored ratings equal the recomputed ones`, async () => {
        const id = await create(store, { format, ...extra });
        const published = new Map<string, number>();
        const { out, events } = await run(store, id, { concurrency: 2, publish: (g, es) => published.set(g, (published.get(g) ?? 0) + es.length) });
        expect(out).toMatchObject({ status: 'ended', failed: 0 });
        const n = await expectAllVerify(store, id);
        expect(out.done).toBe(n);
        expect(n).toBeGreaterThanOrEqual(4);
        await expectRatingsRecomputable(store, id);
        expect(await store.tournaments.get(id)).toMatchObject({ status: 'ended', progress: { games: n, ended: n, failed: 0, pending: 0 } });
        expect(events.map((e) => e.type)).toEqual(['tournament_started', ...Array<string>(n).fill('game_ended'), 'tournament_ended']);
        // The game bus saw every stored event of every game.
        for (const g of await store.tournaments.games(id)) expect(published.get(g.game_id)).toBe((await store.getGame(g.game_id)).last_seq);
      });
    }

    it('plays whole games on worker threads when asked: the logs this thread writes (ids aside), every game verifies', async () => {
      const here = await create(store, { format: 'round-robin' });
      const there = await create(store, { format: 'round-robin' });
      const a = await run(store, here, { clock: logicalInputClock });
      const b = await run(store, there, { clock: logicalInputClock, workers: 1, concurrency: 2 });
      expect(b.out).toMatchObject({ status: 'ended', failed: 0, done: a.out.done });
      await expectAllVerify(store, there);
      await expectRatingsRecomputable(store, there);
      expect(JSON.stringify(b.out.standings)).toBe(JSON.stringify(a.out.standings));
      // A tournament game's id (and so its event ids) ends in a digest of the tournament id.
      const logs = async (id: string) =>
        Promise.all((await store.tournaments.games(id)).map(async (g) => JSON.stringify(await readLog(store, g.game_id)).replaceAll(g.game_id.slice('game_t_'.length), 'ID')));
      expect(await logs(there)).toEqual(await logs(here));
    });

    it('commits step by step when asked: the games verify and the standings are those of whole-game commits', async () => {
      const whole = await create(store, { format: 'gauntlet' });
      const stepwise = await create(store, { format: 'gauntlet' });
      // One input clock for both, so their states (which hold the clock's ts) can be compared.
      const a = await run(store, whole, { clock: logicalInputClock });
      const b = await run(store, stepwise, { commit: 'step', clock: logicalInputClock });
      await expectAllVerify(store, stepwise);
      // Built-in seats store no trace even committed per step (seed + decisions reproduce it, issue
      // 29); their seat summaries count their decisions from the actions, every one answered at once.
      const [g] = await store.tournaments.games(stepwise);
      expect(await store.readTraces(g!.game_id)).toEqual([]);
      const actions = await store.readActions(g!.game_id);
      for (const s of await storedSeatSummaries(store, g!.game_id)) {
        const own = actions.filter((x) => x.player_id === s.player_id).length;
        expect(own).toBeGreaterThan(0);
        expect(s).toMatchObject({ decisions: own, answered_first_time: own, repaired: 0, fell_back: 0 });
      }
      expect(JSON.stringify(b.out.standings)).toBe(JSON.stringify(a.out.standings));
      // A game stored whole has the snapshots per-step appends made of it: the same seqs, states
      // and PRNG states (the whole-game statement inserts them from one JSON array; verify checks the hashes).
      const snapshots = async (id: string) =>
        Promise.all(
          (await store.tournaments.games(id)).map(async (x) =>
            (await store.prisma.snapshot.findMany({ where: { gameId: x.game_id }, orderBy: { seq: 'asc' } })).map((r) => ({ seq: r.seq, rng: r.rng, state: JSON.stringify(r.state).replaceAll(x.game_id.slice('game_t_'.length), 'ID') })),
          ),
        );
      const [wholeSnaps, stepSnaps] = [await snapshots(whole), await snapshots(stepwise)];
      expect(wholeSnaps.flat().filter((s) => s.seq > 0).length).toBeGreaterThanOrEqual(wholeSnaps.length);
      expect(wholeSnaps.map((g) => g.map((s) => s.seq))).toEqual(stepSnaps.map((g) => g.map((s) => s.seq)));
      expect(wholeSnaps.flat().map((s) => s.state)).toEqual(stepSnaps.flat().map((s) => s.state));
      expect(wholeSnaps.flat().map((s) => s.rng)).toEqual(stepSnaps.flat().map((s) => s.rng));
    });

    it('stopped by its signal and resumed (at another concurrency), ends with the standings of an uninterrupted run and each game once', async () => {
      const reference = await run(store, await create(store, { format: 'round-robin', seeds: 2 }), { concurrency: 3 });
      const id = await create(store, { format: 'round-robin', seeds: 2 });
      const stop = new AbortController();
      let ended = 0;
      const first = await runTournament(id, { store, signal: stop.signal, onEvent: (e) => e.type === 'game_ended' && ++ended === 3 && stop.abort() });
      expect(first.status).toBe('stopped');
      expect((await store.tournaments.get(id)).status).toBe('running');
      const { out, events } = await run(store, id);
      expect(events[0]).toMatchObject({ type: 'tournament_started', resumed: true, done: 3 });
      expect(out.status).toBe('ended');
      expect(out.done).toBe(reference.out.done);
      const games = await store.tournaments.games(id);
      expect(new Set(games.map((g) => g.key)).size).toBe(reference.out.done);
      expect(JSON.stringify(out.standings)).toBe(JSON.stringify(reference.out.standings));
      await expectRatingsRecomputable(store, id);
    });

    it('records a game that fails as failed and goes on; the failure counts for no one', async () => {
      const id = await create(store, { format: 'round-robin' });
      const config = storedConfig(await store.tournaments.get(id));
      // Another game already holds the id the schedule's first game derives: creating it fails.
      const first = (await import('../../src/tournament/formats.js')).nextGames(config, []);
      if (first === 'done') throw new Error('empty schedule');
      const victim = first[0]!;
      await store.createGame({ seed: victim.seed + 1, game_id: tournamentGameId(id, victim.key), config: { seats: 2 } });
      await store.tournaments.linkGame(id, { game_id: tournamentGameId(id, victim.key), key: victim.key, round: victim.round, table: victim.table, seats: victim.seats });
      const { out, events } = await run(store, id);
      expect(out).toMatchObject({ status: 'ended', failed: 1, done: first.length - 1 });
      expect(events.find((e) => e.type === 'game_ended' && e.error)).toMatchObject({ key: victim.key, placements: null, error: expect.stringMatching(/already exists/) });
      const failed = (await store.tournaments.games(id)).filter((g) => g.state === 'failed');
      expect(failed).toMatchObject([{ key: victim.key, status: 'failed' }]);
      expect(out.standings.reduce((s, x) => s + x.games, 0)).toBe((first.length - 1) * 2);
      await expectRatingsRecomputable(store, id);
    });

    it('an ended tournament run again plays nothing and reports its standings', async () => {
      const id = await create(store, { format: 'gauntlet' });
      const a = await run(store, id);
      const b = await run(store, id);
      expect(b.events.map((e) => e.type)).toEqual(['tournament_ended']);
      expect(JSON.stringify(b.out.standings)).toBe(JSON.stringify(a.out.standings));
      await expect(runTournament('trn_missing', { store })).rejects.toBeInstanceOf(TournamentNotFoundError);
    });
  });

  describe('faults', () => {
    it('given a game that failed, when the tournament is resumed with retryFailed, then it is played again as a new attempt and counted once', async () => {
      const clean = await create(store, { format: 'round-robin', seed: 41 });
      const reference = (await run(store, clean, { clock: logicalInputClock })).out;
      const id = await create(store, { format: 'round-robin', seed: 41 });
      // The same schedule as the clean run (same config and seed): its second game fails.
      const victim = tournamentGameId(id, (await store.tournaments.games(clean))[1]!.key);
      const first = await run(store, id, {
        clock: logicalInputClock,
        play: async (gameId) => {
          if (gameId === victim) throw new Error('its job failed on a worker 5 times: the database stayed away');
          return playScheduled({ store, clock: logicalInputClock, commit: 'auto' }, gameId);
        },
      });
      expect(first.out).toMatchObject({ status: 'ended', failed: 1, done: reference.done - 1 });
      expect((await store.getGame(victim)).status).toBe('failed');

      const again = await run(store, id, { clock: logicalInputClock, retryFailed: true });
      expect(again.out).toMatchObject({ status: 'ended', failed: 0, done: reference.done });
      const game = await store.getGame(victim);
      expect(game).toMatchObject({ status: 'ended', attempt: 1, failure_reason: null, run_failures: 0 });
      // Nothing counted twice: the standings are an undisturbed run's.
      expect(again.out.standings.map((r) => [r.agent, r.games, r.wins, r.mu])).toEqual(reference.standings.map((r) => [r.agent, r.games, r.wins, r.mu]));
      await expectRatingsRecomputable(store, id);
      // Resuming again finds nothing to retry and changes nothing.
      expect((await run(store, id, { retryFailed: true })).out).toMatchObject({ status: 'ended', failed: 0, done: reference.done });
      expect((await store.getGame(victim)).attempt).toBe(1);
    });

    it('given a newer fencing token, then a runner holding the older one writes nothing and stops with FencedWriteError', async () => {
      const id = await create(store, { format: 'round-robin', seed: 43 });
      const old = await store.tournaments.takeFence(id);
      const newer = await store.tournaments.takeFence(id);
      expect(newer).toBeGreaterThan(old);
      const before = await store.tournaments.get(id);
      await expect(run(store, id, { clock: logicalInputClock, fence: old })).rejects.toBeInstanceOf(FencedWriteError);
      const after = await store.tournaments.get(id);
      expect({ status: after.status, batch: after.batch, games: after.progress.games }).toEqual({ status: before.status, batch: before.batch, games: before.progress.games });
      // The holder of the newest token runs it to its end.
      expect((await run(store, id, { clock: logicalInputClock, fence: newer })).out).toMatchObject({ status: 'ended', failed: 0 });
    });
  });
}
