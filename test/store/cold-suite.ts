import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { stateHash, type ActionRecord, type EventStore } from '../../src/store/index.js';
import { coldSealSuite } from './cold-seal-suite.js';
import { persist, playGame, type Played, type TestStore } from './support.js';

/** Small segments' worth of snapshots, so stateAt crosses segment and snapshot boundaries. */
const SNAPSHOT_EVERY = 50;

/** Every event, paged with `limit` (as GET /games/:id/events?after= pages). */
async function pages(store: EventStore, gameId: string, limit: number): Promise<string[]> {
  const out: string[] = [];
  for (let after = 0; ; ) {
    const page = await store.read(gameId, after, limit);
    out.push(JSON.stringify(page));
    if (page.length < limit) return out;
    after = page[page.length - 1]!.seq;
  }
}

/** One decision per step that asked a seat, some refused, one sent nothing (raw SQL NULL), one sent null. */
function decisions(game: Played): ActionRecord[] {
  return game.steps.slice(1).map((s, i) => {
    const e = s.events[0]!;
    return {
      seq_before: s.expected,
      player_id: `plr_${(i % 4) + 1}`,
      turn: e.turn,
      phase: e.phase,
      window: 'action',
      raw: i === 3 ? undefined : i === 4 ? null : { n: i, text: 'a\u00e9"\\', nested: [1.5, { b: true }] },
      ...(i % 5 === 0 ? { validated: { n: i } } : {}),
      accepted: i % 7 !== 0,
      rejection_code: i % 7 === 0 ? 'action/invalid' : null,
      ts: e.ts,
    };
  });
}

/** What every read of a game says, to compare hot against cold. */
async function reads(store: EventStore, game: Played, everySeq = true) {
  const last = game.events.length;
  const states: string[] = [];
  for (let seq = 0; seq <= last; seq += everySeq ? 1 : 37) states.push(stateHash(await store.stateAt(game.gameId, seq)));
  return {
    all: JSON.stringify(await store.read(game.gameId, 0, 100_000)),
    pages7: await pages(store, game.gameId, 7),
    pages1000: await pages(store, game.gameId, 1000),
    tail: JSON.stringify(await store.read(game.gameId, last - 3)),
    beyond: JSON.stringify(await store.read(game.gameId, last)),
    states,
    latest: stateHash(await store.stateAt(game.gameId)),
    actions: JSON.stringify(await store.readActions(game.gameId)),
    verify: await store.verifyChain(game.gameId),
    head: await store.lastSeq(game.gameId),
  };
}

async function persistWithActions(store: EventStore, game: Played): Promise<void> {
  await persist(store, game);
  await store.recordActions(game.gameId, decisions(game));
}

/**
 * Cold storage's contract (compact.ts): a compacted game reads exactly as it did hot, verifies,
 * and fails verify once any stored byte of it is altered.
 */
export function coldSuite(open: (options: { snapshotEvery: number }) => Promise<TestStore>): void {
  let t: TestStore;
  let store: EventStore;
  beforeAll(async () => {
    t = await open({ snapshotEvery: SNAPSHOT_EVERY });
    store = t.store;
  });
  afterAll(async () => {
    await t?.dispose();
  });

  describe('compaction', () => {
    it('given random ended games, when compacted, then pages, stateAt at every seq, actions and verify read as hot', async () => {
      await fc.assert(
        // Round caps keep most games short (stateAt runs at every seq, hot and cold); 30 is the default.
        fc.asyncProperty(fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(2, 3, 4), fc.constantFrom(2, 5, 30), async (seed, seats, cap) => {
          const game = playGame(seed, { seats, tag: 'cold', rules: { round_cap: cap } });
          await persistWithActions(store, game);
          const hot = await reads(store, game);
          expect(hot.verify).toBeNull();
          expect(await store.compact(game.gameId)).toBe('compacted');
          const cold = await reads(store, game);
          expect(cold).toEqual(hot);
          const [n] = await store.prisma.$queryRawUnsafe<Array<{ n: number }>>(
            `SELECT (SELECT count(*) FROM events WHERE game_id = $1)::int + (SELECT count(*) FROM actions WHERE game_id = $1)::int AS n`,
            game.gameId,
          );
          expect(n!.n).toBe(0);
        }),
        { numRuns: 5 },
      );
    });

    it('given a compacted game, when compacted again or its last step re-appended, then nothing changes', async () => {
      const game = playGame(7, { tag: 'cold_again' });
      await persistWithActions(store, game);
      expect(await store.compact(game.gameId)).toBe('compacted');
      const before = await reads(store, game, false);
      expect(await store.compact(game.gameId)).toBe('already');
      const step = game.steps[game.steps.length - 1]!;
      expect((await store.append(game.gameId, step.expected, step.events)).appended).toBe(0);
      expect(await reads(store, game, false)).toEqual(before);
    });

    it('given a decision recorded after compaction, then readActions has it among the cold ones, in order', async () => {
      const game = playGame(9, { tag: 'cold_late' });
      await persistWithActions(store, game);
      const late: ActionRecord = { seq_before: 2, player_id: 'plr_4', attempt: 2, turn: 1, phase: 'action', window: 'action', raw: 'late', accepted: false, rejection_code: 'late', ts: game.events[0]!.ts };
      await store.compact(game.gameId);
      await store.recordActions(game.gameId, [late]);
      const cold = await store.readActions(game.gameId);
      expect(cold).toHaveLength(decisions(game).length + 1);
      const hot = playGame(9, { tag: 'cold_late_hot' });
      await persistWithActions(store, hot);
      await store.recordActions(hot.gameId, [late]);
      const strip = (rows: Array<{ ts: string }>) => JSON.stringify(rows.map((r) => ({ ...r, ts: '' })));
      expect(strip(cold)).toBe(strip(await store.readActions(hot.gameId)));
    });

    it('given a running game, when compacted, then it stays hot', async () => {
      const game = playGame(8, { tag: 'cold_running' });
      await store.createGame({ seed: game.seed, config: game.config });
      const first = game.steps[0]!;
      await store.append(game.gameId, first.expected, first.events, { state: first.state });
      expect(await store.compact(game.gameId)).toBe('not_ended');
      expect(JSON.stringify(await store.read(game.gameId))).toBe(JSON.stringify(first.events satisfies GameEvent[]));
    });
  });

  describe('tamper evidence', () => {
    let game: Played;
    beforeAll(async () => {
      game = playGame(21, { tag: 'cold_tamper' });
      await persistWithActions(store, game);
      await store.compact(game.gameId);
    });

    const segments = () =>
      store.prisma.$queryRawUnsafe<Array<{ first_seq: number; len: number }>>(
        `SELECT first_seq, length(data) AS len FROM cold_segments WHERE game_id = $1 ORDER BY first_seq`,
        game.gameId,
      );

    it('given any byte of any segment altered, then verify fails at that segment, and passes once restored', async () => {
      const segs = await segments();
      await fc.assert(
        fc.asyncProperty(fc.nat(segs.length - 1), fc.nat(1e6), fc.integer({ min: 1, max: 255 }), async (i, at, xor) => {
          const seg = segs[i]!;
          const pos = (at % seg.len) + 1; // SQL byte positions count from 1
          const flip = `UPDATE cold_segments SET data = overlay(data PLACING set_byte('\\x00'::bytea, 0, get_byte(data, $3 - 1) # $4) FROM $3 FOR 1)
            WHERE game_id = $1 AND first_seq = $2`;
          await store.prisma.$executeRawUnsafe(flip, game.gameId, seg.first_seq, pos, xor);
          expect(await store.verifyChain(game.gameId)).toBe(seg.first_seq);
          await store.prisma.$executeRawUnsafe(flip, game.gameId, seg.first_seq, pos, xor);
          expect(await store.verifyChain(game.gameId)).toBeNull();
        }),
        { numRuns: 25 },
      );
    });

    it('given a seal, a seq range, a missing segment or the cold actions altered, then verify fails', async () => {
      const g = game.gameId;
      const cases: Array<[string, string]> = [
        [`UPDATE cold_segments SET seal = md5(seal) || md5(seal) WHERE game_id = $1 AND first_seq = 1`, `UPDATE cold_segments SET seal = $2 WHERE game_id = $1 AND first_seq = 1`],
        [`UPDATE cold_segments SET last_turn = last_turn + 1 WHERE game_id = $1 AND first_seq = 1`, `UPDATE cold_segments SET last_turn = last_turn - 1 WHERE game_id = $1 AND first_seq = 1`],
        [`UPDATE cold_actions SET data = data || '\\x00'::bytea WHERE game_id = $1`, `UPDATE cold_actions SET data = substring(data FROM 1 FOR length(data) - 1) WHERE game_id = $1`],
      ];
      const [seal] = await store.prisma.$queryRawUnsafe<Array<{ seal: string }>>(`SELECT seal FROM cold_segments WHERE game_id = $1 AND first_seq = 1`, g);
      for (const [alter, restore] of cases) {
        await store.prisma.$executeRawUnsafe(alter, g);
        expect(await store.verifyChain(g), alter).not.toBeNull();
        await (restore.includes('$2') ? store.prisma.$executeRawUnsafe(restore, g, seal!.seal) : store.prisma.$executeRawUnsafe(restore, g));
        expect(await store.verifyChain(g), restore).toBeNull();
      }
      await store.prisma.$executeRawUnsafe(`DELETE FROM cold_segments WHERE game_id = $1 AND first_seq = (SELECT max(first_seq) FROM cold_segments WHERE game_id = $1)`, g);
      expect(await store.verifyChain(g)).not.toBeNull();
    });
  });

  coldSealSuite(() => store);
}
