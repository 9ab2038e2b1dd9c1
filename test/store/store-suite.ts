import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fold, initialState, type GameState } from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';
import {
  ConcurrencyConflictError,
  EventIdConflictError,
  GameExistsError,
  GameNotFoundError,
  InvalidInputError,
  SeqOutOfRangeError,
  stateHash,
  type EventStore,
} from '../../src/store/index.js';
import { MIGRATIONS_DIR } from '../../src/store/migrations.js';
import { freshGameId, persist, playGame, type Played, type TestStore } from './support.js';

/** Small enough that a full game crosses many boundaries. */
const SNAPSHOT_EVERY = 50;

/** The state after each seq of a game, folded by the engine directly from its events. */
function statesBySeq(game: Played): GameState[] {
  const states = [initialState(game.config, game.seed)];
  for (const e of game.events) states.push(fold(states[states.length - 1]!, [e]));
  return states;
}

const json = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

/**
 * The event store's contract, run as is against each database. `open` gives a fresh, migrated
 * store on its own database; games get unique ids, so the tests share it.
 */
export function storeSuite(open: (options: { snapshotEvery: number }) => Promise<TestStore>): void {
  let t: TestStore;
  let store: EventStore;
  let game: Played;

  beforeAll(async () => {
    t = await open({ snapshotEvery: SNAPSHOT_EVERY });
    store = t.store;
    game = playGame(11, { tag: 'main' });
    await persist(store, game);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  describe('migrations', () => {
    it('given an opened store, then every migration is recorded in _prisma_migrations with its file checksum', async () => {
      const rows = await store.prisma.$queryRaw<
        {
          migration_name: string;
          checksum: string;
          finished_at: Date | null;
          rolled_back_at: Date | null;
        }[]
      >`
        SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY migration_name`;
      const local = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort();
      expect(local.length).toBeGreaterThan(0);
      expect(rows.map((r) => r.migration_name)).toEqual(local);
      for (const r of rows) {
        const sql = readFileSync(join(MIGRATIONS_DIR, r.migration_name, 'migration.sql'));
        expect(r.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
        expect(r.finished_at).not.toBeNull();
        expect(r.rolled_back_at).toBeNull();
      }
    });

    it('given the migrated database, when the schema engine diffs it live against schema.prisma, then there is no drift', async () => {
      // On PostgreSQL this introspects through adapter-pg, which needs the "char" fix to work.
      expect(await store.schemaDrift()).toBeNull();
    });
  });

  describe('append and read', () => {
    it('given a game appended step by step, when read back, then the events are byte-identical', async () => {
      const back: GameEvent[] = [];
      for (let after = 0; ;) {
        const page = await store.read(game.gameId, after, 500);
        if (page.length === 0) break;
        back.push(...page);
        after = page[page.length - 1]!.seq;
      }
      expect(JSON.stringify(back)).toBe(JSON.stringify(game.events));
      expect(await store.lastSeq(game.gameId)).toBe(game.events.length);
    });

    it('given a finished game, then its row carries status, head and placements', async () => {
      const g = await store.getGame(game.gameId);
      expect(g).toMatchObject({
        game_id: game.gameId,
        seed: 11,
        status: 'ended',
        last_seq: game.events.length,
        rules_version: game.final.rules.rules_version,
      });
      expect(g.placements).toEqual(game.final.placements);
      expect(g.ended_at).not.toBeNull();
    });

    it('given a stale expectedSeq, when appending, then ConcurrencyConflictError names both seqs and nothing is written', async () => {
      const g = playGame(12, { tag: 'stale', rules: { round_cap: 2 } });
      await store.createGame({ seed: g.seed, config: g.config });
      const [s0, s1, s2] = g.steps;
      await store.append(g.gameId, s0!.expected, s0!.events);
      await store.append(g.gameId, s1!.expected, s1!.events);
      const err = await store
        .append(
          g.gameId,
          s1!.expected,
          s2!.events.map((e) => ({ ...e, seq: e.seq - s1!.events.length })),
        )
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConcurrencyConflictError);
      expect(err).toMatchObject({ expectedSeq: s1!.expected, actualSeq: s2!.expected });
      expect(await store.lastSeq(g.gameId)).toBe(s2!.expected);
    });

    it('given two writers appending different events at the same expectedSeq concurrently, then exactly one wins', async () => {
      const g = playGame(13, { tag: 'race', rules: { round_cap: 2 } });
      await store.createGame({ seed: g.seed, config: g.config });
      const s0 = g.steps[0]!;
      await store.append(g.gameId, s0.expected, s0.events);
      const s1 = g.steps[1]!;
      // Same seqs and (engine-derived) event ids, different content: two runners racing.
      const rival = s1.events.map((e) => ({ ...e, ts: '2030-01-01T00:00:00.000Z' }));
      const results = await Promise.allSettled([
        store.append(g.gameId, s1.expected, s1.events),
        store.append(g.gameId, s1.expected, rival),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(ConcurrencyConflictError);
      expect(await store.lastSeq(g.gameId)).toBe(s1.expected + s1.events.length);
      expect(await store.verifyChain(g.gameId)).toBeNull();
    });

    it('given many writers racing on one game, then the log stays contiguous with one winner per seq', async () => {
      const g = playGame(14, { tag: 'race2', rules: { round_cap: 2 } });
      await store.createGame({ seed: g.seed, config: g.config });
      const s0 = g.steps[0]!;
      await store.append(g.gameId, s0.expected, s0.events);
      const s1 = g.steps[1]!;
      const writers = [0, 1, 2, 3].map((w) =>
        s1.events.map((e) => ({ ...e, ts: new Date(Date.UTC(2030, 0, 1, 0, 0, w)).toISOString() })),
      );
      const results = await Promise.allSettled(
        writers.map((events) => store.append(g.gameId, s1.expected, events)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(await store.verifyChain(g.gameId)).toBeNull();
    });

    it('given the same batch appended twice, then the second is a no-op success; a different event under a stored event_id is refused', async () => {
      const g = playGame(15, { tag: 'idem', rules: { round_cap: 2 } });
      await store.createGame({ seed: g.seed, config: g.config });
      const [s0, s1] = g.steps;
      const first = await store.append(g.gameId, s0!.expected, s0!.events);
      expect(first.appended).toBe(s0!.events.length);
      const again = await store.append(g.gameId, s0!.expected, s0!.events);
      expect(again).toMatchObject({
        appended: 0,
        last_seq: first.last_seq,
        last_hash: first.last_hash,
      });
      // Same head, but one event reuses an id the log already holds at an earlier seq.
      const reused = s1!.events.map((e, i) =>
        i === 0 ? { ...e, event_id: s0!.events[0]!.event_id } : e,
      );
      await expect(store.append(g.gameId, s1!.expected, reused)).rejects.toBeInstanceOf(
        EventIdConflictError,
      );
      expect(JSON.stringify(await store.read(g.gameId))).toBe(JSON.stringify(s0!.events));
      // The real next step still goes through after the refusal.
      await expect(store.append(g.gameId, s1!.expected, s1!.events)).resolves.toMatchObject({
        appended: s1!.events.length,
      });
    });

    it('given malformed batches, then InvalidInputError and nothing written', async () => {
      const g = playGame(16, { tag: 'bad', rules: { round_cap: 2 } });
      await store.createGame({ seed: g.seed, config: g.config });
      const s0 = g.steps[0]!;
      await expect(store.append(g.gameId, 1, s0.events)).rejects.toBeInstanceOf(InvalidInputError);
      await expect(store.append(g.gameId, 0, s0.events.slice(1))).rejects.toBeInstanceOf(
        InvalidInputError,
      );
      await expect(
        store.append(
          g.gameId,
          0,
          s0.events.map((e) => ({ ...e, ts: '2026-01-01T00:00:00Z' })),
        ),
      ).rejects.toBeInstanceOf(InvalidInputError);
      await expect(
        store.append(g.gameId, 0, [{ ...s0.events[0]!, redacted: ['deck'] }]),
      ).rejects.toBeInstanceOf(InvalidInputError);
      await expect(
        store.append(freshGameId('nobody'), 0, [{ ...s0.events[0]!, game_id: 'game_nobody' }]),
      ).rejects.toBeInstanceOf(InvalidInputError);
      expect(await store.lastSeq(g.gameId)).toBe(0);
    });

    it('given an unknown game, then GameNotFoundError', async () => {
      const id = freshGameId('ghost');
      await expect(store.lastSeq(id)).rejects.toBeInstanceOf(GameNotFoundError);
      await expect(store.getGame(id)).rejects.toBeInstanceOf(GameNotFoundError);
      await expect(store.stateAt(id, 0)).rejects.toBeInstanceOf(GameNotFoundError);
      await expect(store.append(id, 0, [])).rejects.toBeInstanceOf(GameNotFoundError);
      expect(await store.read(id)).toEqual([]);
    });
  });

  describe('hash chain', () => {
    it('given an intact log, then verifyChain finds nothing; given an edited payload, then it names that seq', async () => {
      const g = playGame(17, { tag: 'tamper', rules: { round_cap: 3 } });
      await persist(store, g);
      expect(await store.verifyChain(g.gameId)).toBeNull();
      const victim = g.events[Math.floor(g.events.length / 2)]!;
      await store.prisma.$executeRaw`
        UPDATE events SET payload = json_build_object('forged', true) WHERE game_id = ${g.gameId} AND seq = ${victim.seq}`;
      expect(await store.verifyChain(g.gameId)).toBe(victim.seq);
    });

    it('given a log whose tail was deleted, then verifyChain names the first missing seq', async () => {
      const g = playGame(18, { tag: 'trunc', rules: { round_cap: 2 } });
      await persist(store, g);
      const cut = g.events.length - 3;
      await store.prisma
        .$executeRaw`DELETE FROM events WHERE game_id = ${g.gameId} AND seq > ${cut}`;
      expect(await store.verifyChain(g.gameId)).toBe(cut + 1);
    });
  });

  describe('snapshots and stateAt', () => {
    it('given a persisted game, then a snapshot exists at seq 0 and wherever an append crossed a multiple of N, with the state hash', async () => {
      const rows = await store.prisma.snapshot.findMany({
        where: { gameId: game.gameId },
        orderBy: { seq: 'asc' },
      });
      const expected = [
        0,
        ...game.steps
          .filter(
            (s) =>
              Math.floor((s.expected + s.events.length) / SNAPSHOT_EVERY) >
              Math.floor(s.expected / SNAPSHOT_EVERY),
          )
          .map((s) => s.expected + s.events.length),
      ];
      expect(rows.map((r) => r.seq)).toEqual(expected);
      const states = statesBySeq(game);
      for (const r of rows) {
        expect(r.stateHash).toBe(stateHash(states[r.seq]!));
        expect(r.rng).toEqual(states[r.seq]!.rng);
      }
    });

    it('given many seqs, then stateAt equals the engine folding the events directly', async () => {
      const states = statesBySeq(game);
      const seqs = [
        0,
        1,
        SNAPSHOT_EVERY - 1,
        SNAPSHOT_EVERY,
        SNAPSHOT_EVERY + 1,
        game.events.length,
      ];
      for (let s = 3; s < game.events.length; s += 37) seqs.push(s);
      for (const seq of seqs)
        expect(json(await store.stateAt(game.gameId, seq)), `seq ${seq}`).toEqual(
          json(states[seq]),
        );
      expect(json(await store.stateAt(game.gameId))).toEqual(json(game.final));
    });

    it('given appends without the state, then the store folds the snapshot itself, identically', async () => {
      const g = playGame(19, { tag: 'fold', rules: { round_cap: 4 } });
      await persist(store, g, { passState: false });
      const rows = await store.prisma.snapshot.findMany({
        where: { gameId: g.gameId, seq: { gt: 0 } },
      });
      expect(rows.length).toBeGreaterThan(0);
      const states = statesBySeq(g);
      for (const r of rows) expect(r.stateHash).toBe(stateHash(states[r.seq]!));
    });

    it('given a seq past the head, then SeqOutOfRangeError', async () => {
      await expect(store.stateAt(game.gameId, game.events.length + 1)).rejects.toBeInstanceOf(
        SeqOutOfRangeError,
      );
      await expect(store.stateAt(game.gameId, -1)).rejects.toBeInstanceOf(SeqOutOfRangeError);
    });

    it('property: any small game persisted, stateAt at random seqs equals the live engine state', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 2 ** 31 }),
          fc.integer({ min: 2, max: 4 }),
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
          async (seed, seats, picks) => {
            const g = playGame(seed, { seats, rules: { round_cap: 5 }, tag: 'prop' });
            await persist(store, g);
            for (const p of picks) {
              const step = g.steps[Math.min(g.steps.length - 1, Math.floor(p * g.steps.length))]!;
              const seq = step.expected + step.events.length;
              expect(json(await store.stateAt(g.gameId, seq))).toEqual(json(step.state));
            }
          },
        ),
        { numRuns: 20 },
      );
    });
  });

  describe('games and actions', () => {
    it('given the same game created twice, then it is returned; with another seed, GameExistsError', async () => {
      const id = freshGameId('twice');
      const seats = [1, 2].map((i) => ({ seat: i - 1, player_id: `plr_${i}`, agent: 'random' }));
      const a = await store.createGame({ seed: 5, config: { game_id: id, seats: 2 }, seats });
      const b = await store.createGame({ seed: 5, config: { game_id: id, seats: 2 }, seats });
      expect(b).toEqual(a);
      expect(a).toMatchObject({ status: 'created', last_seq: 0, seats });
      await expect(
        store.createGame({ seed: 6, config: { game_id: id, seats: 2 } }),
      ).rejects.toBeInstanceOf(GameExistsError);
    });

    it('given seats stored without agent versions, then registering them with versions is the same game; another version is not', async () => {
      const id = freshGameId('versions');
      const bare = [1, 2].map((i) => ({ seat: i - 1, player_id: `plr_${i}`, agent: 'trickster' }));
      const a = await store.createGame({ seed: 5, config: { game_id: id, seats: 2 }, seats: bare });
      const versioned = bare.map((s) => ({ ...s, agent_version: 'trickster@2' }));
      expect(await store.createGame({ seed: 5, config: { game_id: id, seats: 2 }, seats: versioned })).toEqual(a);

      const id2 = freshGameId('versions');
      const b = await store.createGame({ seed: 5, config: { game_id: id2, seats: 2 }, seats: versioned });
      expect(b.seats).toEqual(versioned);
      const other = versioned.map((s) => ({ ...s, agent_version: 'trickster@3' }));
      await expect(store.createGame({ seed: 5, config: { game_id: id2, seats: 2 }, seats: other })).rejects.toBeInstanceOf(GameExistsError);
    });

    it('given a parent with forks, then forksOf lists them oldest first, counts them, and keeps those at or before a seq', async () => {
      const parent = freshGameId('parent');
      await store.createGame({ seed: 3, config: { game_id: parent, seats: 2 } });
      const hash = 'a'.repeat(64);
      const forks = [];
      for (const seq of [30, 10, 20]) {
        const id = freshGameId('fork');
        forks.push(await store.createGame({ seed: 3, config: { game_id: id, seats: 2 }, options: { fork: { parent_game_id: parent, seq, parent_hash: hash } } }));
      }
      // Another parent's fork, and a game that is no fork.
      await store.createGame({ seed: 3, config: { game_id: freshGameId('fork'), seats: 2 }, options: { fork: { parent_game_id: freshGameId('other'), seq: 10, parent_hash: hash } } });
      await store.createGame({ seed: 3, config: { game_id: freshGameId('plain'), seats: 2 } });
      const oldestFirst = [...forks].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.game_id.localeCompare(b.game_id));
      const all = await store.forksOf(parent);
      expect(all.total).toBe(3);
      expect(all.forks).toEqual(oldestFirst);
      const two = await store.forksOf(parent, { limit: 2 });
      expect({ total: two.total, ids: two.forks.map((f) => f.game_id) }).toEqual({ total: 3, ids: oldestFirst.slice(0, 2).map((f) => f.game_id) });
      const early = await store.forksOf(parent, { upToSeq: 20 });
      expect(early.total).toBe(2);
      expect(early.forks.map((f) => (f.options['fork'] as { seq: number }).seq).sort()).toEqual([10, 20]);
      expect(await store.forksOf(forks[0]!.game_id)).toEqual({ forks: [], total: 0 });
      // Without kept decks (what non-admins get): none of these (no secret, not ended), but a fork with a secret, and one that ended.
      const secret = await store.createGame({ seed: 3, config: { game_id: freshGameId('fork'), seats: 2 }, options: { fork: { parent_game_id: parent, seq: 40, parent_hash: hash, secret: 9 } } });
      await store.setStatus(forks[1]!.game_id, 'ended');
      const shown = await store.forksOf(parent, { withoutKeptDecks: true });
      expect({ total: shown.total, ids: shown.forks.map((f) => f.game_id).sort() }).toEqual({ total: 2, ids: [forks[1]!.game_id, secret.game_id].sort() });
    });

    it('given several games, then listGames pages newest first without overlaps and filters by status', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push(
          (
            await store.createGame({
              seed: 100 + i,
              config: { game_id: freshGameId('list'), seats: 2 },
            })
          ).game_id,
        );
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await store.listGames(
          { status: 'created' },
          { limit: 2, ...(cursor ? { cursor } : {}) },
        );
        seen.push(...page.games.map((g) => g.game_id));
        expect(page.games.every((g) => g.status === 'created')).toBe(true);
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.filter((id) => ids.includes(id))).toEqual(ids.slice().reverse());
      const ended = await store.listGames({ status: ['ended'] }, { limit: 500 });
      expect(ended.games.map((g) => g.game_id)).toContain(game.gameId);
    });

    it('given games with different agents, one of them in a tournament, then listGames filters by agent and by tournament (or none)', async () => {
      const tag = freshGameId('filt').slice(-8);
      const seatsOf = (...agents: string[]) => agents.map((agent, i) => ({ seat: i, player_id: `plr_${i + 1}`, agent }));
      const make = async (agents: string[]) => (await store.createGame({ seed: 7, config: { game_id: freshGameId('filt'), seats: agents.length }, seats: seatsOf(...agents) })).game_id;
      const solo = await make([`a-${tag}`, 'turtle']);
      const both = await make([`b-${tag}`, `a-${tag}`]);
      const inT = await make([`a-${tag}`, `c-${tag}`]);
      const t = await store.tournaments.create({ config: { seed: 1, format: 'round-robin', entrants: ['x', 'y'] } });
      await store.tournaments.linkGame(t.tournament_id, { game_id: inT, key: 'r0000-t0000-d0000-p0', round: 0, table: 0, seats: ['x', 'y'] });
      // As sets: games made within one millisecond order by their (random) ids.
      const ids = async (filter: Parameters<typeof store.listGames>[0]) => (await store.listGames(filter, { limit: 500 })).games.map((g) => g.game_id).sort();
      expect(await ids({ agent: `a-${tag}` })).toEqual([inT, both, solo].sort());
      expect(await ids({ agent: `b-${tag}` })).toEqual([both]);
      expect(await ids({ agent: `nobody-${tag}` })).toEqual([]);
      expect(await ids({ agent: `a-${tag}`, tournament_id: null })).toEqual([both, solo].sort());
      expect(await ids({ agent: `a-${tag}`, tournament_id: t.tournament_id })).toEqual([inT]);
      expect(await ids({ tournament_id: t.tournament_id })).toEqual([inT]);
    });

    it('given decisions, then append records them in the same statement and recordActions adds refused ones idempotently', async () => {
      const g = playGame(20, { tag: 'acts', rules: { round_cap: 2 } });
      await store.createGame({ seed: g.seed, config: g.config });
      const s0 = g.steps[0]!;
      const ts = s0.events[0]!.ts;
      const base = { seq_before: 0, turn: 1, phase: 'intent', window: 'intent', ts };
      await store.append(g.gameId, 0, s0.events, {
        actions: [
          {
            ...base,
            player_id: 'plr_1',
            raw: { tactical_intent: 'defend' },
            validated: { tactical_intent: 'defend' },
            accepted: true,
          },
        ],
      });
      const refused = [
        {
          ...base,
          player_id: 'plr_2',
          raw: null,
          accepted: false,
          rejection_code: 'input/malformed',
        },
        {
          ...base,
          player_id: 'plr_3',
          raw: undefined,
          accepted: false,
          rejection_code: 'agent/timeout',
        },
      ];
      expect(await store.recordActions(g.gameId, refused)).toBe(2);
      expect(await store.recordActions(g.gameId, refused)).toBe(0);
      const rows = await store.prisma.$queryRaw<
        {
          player_id: string;
          raw_is_sql_null: boolean;
          raw: unknown;
          accepted: boolean;
          rejection_code: string | null;
        }[]
      >`
        SELECT player_id, raw IS NULL AS raw_is_sql_null, raw, accepted, rejection_code FROM actions WHERE game_id = ${g.gameId} ORDER BY player_id`;
      expect(rows).toEqual([
        {
          player_id: 'plr_1',
          raw_is_sql_null: false,
          raw: { tactical_intent: 'defend' },
          accepted: true,
          rejection_code: null,
        },
        {
          player_id: 'plr_2',
          raw_is_sql_null: false,
          raw: null,
          accepted: false,
          rejection_code: 'input/malformed',
        },
        {
          player_id: 'plr_3',
          raw_is_sql_null: true,
          raw: null,
          accepted: false,
          rejection_code: 'agent/timeout',
        },
      ]);
    });
  });

  describe('U+0000, which jsonb cannot hold', () => {
    it('given a trace holding U+0000, then it is stored with U+FFFD; given a decision holding it, then InvalidInputError and nothing written', async () => {
      const g = playGame(34, { tag: 'nul', rules: { round_cap: 2 } });
      await store.createGame({ seed: g.seed, config: g.config });
      await store.recordTraces(g.gameId, [{ player_id: 'plr_1', turn: 1, window: 'intent', request_id: 'req_nul', entries: { log: 'a\u0000b', 'k\u0000': ['\u0000'], literal: '\\u0000' } }]);
      const [trace] = await store.readTraces(g.gameId);
      expect(trace!.entries).toEqual({ log: 'a\uFFFDb', 'k\uFFFD': ['\uFFFD'], literal: '\\u0000' });
      const ts = g.steps[0]!.events[0]!.ts;
      const decision = { seq_before: 0, player_id: 'plr_1', turn: 1, phase: 'intent', window: 'intent', raw: { note: 'a\u0000b' }, accepted: false, rejection_code: 'input/malformed', ts };
      await expect(store.recordActions(g.gameId, [decision])).rejects.toThrow(/raw and validated cannot hold U\+0000/);
      // A literal backslash-u0000 (six characters) is no NUL.
      expect(await store.recordActions(g.gameId, [{ ...decision, raw: { note: '\\u0000' } }])).toBe(1);
    });
  });

  describe('whole games (appendGame)', () => {
    /** A played game's decisions as a runner records them: one per step after the start, with an unsent one and a JSON null. */
    const actionsOf = (g: Played) =>
      g.steps.slice(1, 4).map((s, i) => ({
        seq_before: s.expected,
        player_id: `plr_${i + 1}`,
        turn: s.events[0]!.turn,
        phase: s.events[0]!.phase,
        window: 'intent',
        raw: [{ tactical_intent: 'defend', note: 'tab\there, newline\nthere' }, null, undefined][i],
        validated: i === 0 ? { tactical_intent: 'defend' } : null,
        accepted: i === 0,
        rejection_code: i === 0 ? null : 'input/malformed',
        ts: s.events[0]!.ts,
      }));
    /** The states a whole-game append snapshots: right after each step that crossed a multiple of SNAPSHOT_EVERY. */
    const snapshotsOf = (g: Played) =>
      g.steps.filter((s) => Math.floor(s.state.seq / SNAPSHOT_EVERY) > Math.floor(s.expected / SNAPSHOT_EVERY)).map((s) => s.state);

    it('given a game stored whole, then its events read back byte-identical and its snapshots, actions and head are what per-step appends store', async () => {
      const g = playGame(31, { tag: 'whole' });
      await store.createGame({ seed: g.seed, config: g.config });
      const actions = actionsOf(g);
      const snapshots = snapshotsOf(g);
      expect(snapshots.length).toBeGreaterThan(2);
      const out = await store.appendGame(g.gameId, { events: g.events, actions, snapshots });
      expect(out).toMatchObject({ last_seq: g.events.length, appended: g.events.length, snapshot_seq: snapshots[snapshots.length - 1]!.seq });
      expect(JSON.stringify(await store.read(g.gameId, 0, g.events.length))).toBe(JSON.stringify(g.events));
      expect(await store.verifyChain(g.gameId)).toBeNull();
      const row = await store.getGame(g.gameId);
      expect(row).toMatchObject({ status: 'ended', last_seq: g.events.length });
      expect(row.placements).toEqual(g.final.placements);

      // The same game appended step by step (under its own id, which the states hold): snapshots at the same seqs with the same PRNG states.
      const twin = playGame(31, { tag: 'whole-twin' });
      await persist(store, twin);
      const snaps = (id: string) =>
        store.prisma.$queryRaw<{ seq: number; state: GameState; state_hash: string; rng: unknown }[]>`
          SELECT seq, state, state_hash, rng FROM snapshots WHERE game_id = ${id} AND seq > 0 ORDER BY seq`;
      const subjects = (id: string) => store.prisma.$queryRaw<{ seq: number; player_id: string | null }[]>`SELECT seq, player_id FROM events WHERE game_id = ${id} ORDER BY seq`;
      const mySubjects = await subjects(g.gameId);
      expect(mySubjects).toEqual(await subjects(twin.gameId));
      expect(mySubjects.some((r) => r.player_id === null) && mySubjects.some((r) => r.player_id !== null)).toBe(true);
      const mine = await snaps(g.gameId);
      const theirs = await snaps(twin.gameId);
      expect(mine.map((r) => r.seq)).toEqual(theirs.map((r) => r.seq));
      expect(mine.map((r) => r.rng)).toEqual(theirs.map((r) => r.rng));
      expect(mine.map((r) => r.state_hash)).toEqual(snapshots.map(stateHash));
      expect(mine.map((r) => r.state)).toEqual(snapshots.map(json));
      expect(json(await store.stateAt(g.gameId, g.events.length))).toEqual(json(g.final));

      const rows = await store.prisma.$queryRaw<{ player_id: string; raw_is_sql_null: boolean; raw: unknown; validated: unknown; accepted: boolean; rejection_code: string | null }[]>`
        SELECT player_id, raw IS NULL AS raw_is_sql_null, raw, validated, accepted, rejection_code FROM actions WHERE game_id = ${g.gameId} ORDER BY player_id`;
      expect(rows).toEqual([
        { player_id: 'plr_1', raw_is_sql_null: false, raw: actions[0]!.raw, validated: { tactical_intent: 'defend' }, accepted: true, rejection_code: null },
        { player_id: 'plr_2', raw_is_sql_null: false, raw: null, validated: null, accepted: false, rejection_code: 'input/malformed' },
        { player_id: 'plr_3', raw_is_sql_null: true, raw: null, validated: null, accepted: false, rejection_code: 'input/malformed' },
      ]);
    });

    it('given the same whole game again, then it is a no-op success; another log for it is a ConcurrencyConflictError', async () => {
      const g = playGame(32, { tag: 'whole-again', rules: { round_cap: 2 } });
      await store.createGame({ seed: g.seed, config: g.config });
      await store.appendGame(g.gameId, { events: g.events, actions: [], snapshots: [] });
      expect(await store.appendGame(g.gameId, { events: g.events, actions: [], snapshots: [] })).toMatchObject({ appended: 0, last_seq: g.events.length });
      const other = g.events.slice(0, -1);
      await expect(store.appendGame(g.gameId, { events: other, actions: [], snapshots: [] })).rejects.toBeInstanceOf(ConcurrencyConflictError);
      expect(await store.lastSeq(g.gameId)).toBe(g.events.length);
    });

    it('given a tab or a newline in a text field (a whole game, a step, a decision), then InvalidInputError names it and nothing is written', async () => {
      const g = playGame(33, { tag: 'whole-bad', rules: { round_cap: 2 } });
      await store.createGame({ seed: g.seed, config: g.config });
      const tabbed = g.events.map((e, i) => (i === 3 ? { ...e, phase: `${e.phase}\tx` } : e)) as GameEvent[];
      await expect(store.appendGame(g.gameId, { events: tabbed, actions: [], snapshots: [] })).rejects.toThrow(
        new InvalidInputError(`event 4: phase ${JSON.stringify(`${g.events[3]!.phase}\tx`)} cannot be stored: it is empty or holds a tab or a newline`),
      );
      const action = { ...actionsOf(g)[0]!, window: 'intent\nx' };
      await expect(store.appendGame(g.gameId, { events: g.events, actions: [action], snapshots: [] })).rejects.toThrow(/action plr_1@\d+: window "intent\\nx" cannot be stored/);
      // Step by step and outside an append, the same rows are refused the same way.
      const first = g.steps[0]!.events.map((e, i) => (i === 0 ? { ...e, type: 'game\nstarted' } : e)) as GameEvent[];
      await expect(store.append(g.gameId, 0, first)).rejects.toThrow(/event 1: type "game\\nstarted" cannot be stored/);
      await expect(store.recordActions(g.gameId, [action])).rejects.toThrow(/window "intent\\nx" cannot be stored/);
      expect(await store.lastSeq(g.gameId)).toBe(0);
      const [n] = await store.prisma.$queryRaw<{ n: number }[]>`
        SELECT (SELECT count(*) FROM events WHERE game_id = ${g.gameId}) + (SELECT count(*) FROM actions WHERE game_id = ${g.gameId}) AS n`;
      expect(Number(n!.n)).toBe(0);
    });
  });
}
