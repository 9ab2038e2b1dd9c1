import { beforeAll, describe, expect, it } from 'vitest';
import type { ActionRecord, EventStore } from '../../src/store/index.js';
import { flipSegmentByte, persist, playGame, type Played } from './support.js';

type Segment = { first_seq: number; last_seq: number; len: number };

/** Flips one byte (xor 0x5a) of the cold actions at a 1-based position; applying it twice restores it. */
const FLIP_ACTIONS = `UPDATE cold_actions SET data = overlay(data PLACING set_byte('\\x00'::bytea, 0, get_byte(data, $2 - 1) # 90) FROM $2 FOR 1)
  WHERE game_id = $1`;
/** Swaps the first hex digit of a hash column for another (and back, applied twice: 0↔1, …, e↔f). */
const flipHash = (table: string, column: string, where: string) =>
  `UPDATE ${table} SET ${column} = translate(left(${column}, 1), '0123456789abcdef', '1032547698badcfe') || substr(${column}, 2) WHERE ${where}`;

/**
 * Reads check the seal (cold-reads.ts): one byte altered in any cold segment — its data or a hash
 * column — or in the cold actions, and every read of the game refuses it with an IntegrityError
 * naming the game and the seqs, never the altered data; restored, it reads as before. Runs inside
 * coldSuite, on its store.
 */
export function coldSealSuite(store: () => EventStore): void {
  describe('every read checks the seal', () => {
    let game: Played;
    let segs: Segment[];
    let before: Awaited<ReturnType<typeof everyRead>>;

    /** What each read path gives for a segment (or refuses): a read from 0, a page inside it, stateAt in it, a re-append. */
    const readers = (s: Segment): Array<[string, () => Promise<unknown>]> => {
      const id = game.gameId;
      const last = game.steps.at(-1)!;
      return [
        ['read from 0', () => store().read(id, 0, 100_000)],
        ['a page inside the segment', () => store().read(id, s.first_seq, 3)],
        // Never a snapshot seq (those are multiples of 50): folding reaches into the segment.
        ['stateAt inside the segment', () => store().stateAt(id, Math.min(s.first_seq + 1, s.last_seq))],
        ['re-appending the last step', () => store().append(id, last.expected, last.events)],
        // A state straight from a snapshot reads no segment: the game is refused all the same.
        ['stateAt a snapshot seq', () => store().stateAt(id, 50)],
        ['checkSeals', () => store().checkSeals(id)],
      ];
    };

    async function everyRead() {
      const s = store();
      return {
        events: JSON.stringify(await s.read(game.gameId, 0, 100_000)),
        pages: await Promise.all(segs.map((x) => s.read(game.gameId, x.first_seq, 3).then((p) => JSON.stringify(p)))),
        actions: JSON.stringify(await s.readActions(game.gameId)),
        verify: await s.verifyChain(game.gameId),
      };
    }

    async function refusedEverywhere(seg: Segment, what: string): Promise<void> {
      for (const [name, read] of readers(seg)) {
        const err = await read().then(
          (v) => ({ name: 'resolved', value: JSON.stringify(v).slice(0, 80) }),
          (e: unknown) => e,
        );
        expect(err, `${what}: ${name}`).toMatchObject({ name: 'IntegrityError', gameId: game.gameId });
        const e = err as { firstSeq: number; lastSeq: number; message: string };
        expect(e.message, `${what}: ${name}`).toContain(game.gameId);
        expect(e.firstSeq).toBeGreaterThanOrEqual(1);
        expect(e.lastSeq).toBeGreaterThanOrEqual(e.firstSeq);
      }
    }

    beforeAll(async () => {
      game = playGame(33, { tag: 'cold_seal', rules: { round_cap: 30 } });
      await persist(store(), game);
      const actions: ActionRecord[] = game.steps.slice(1, 20).map((st, i) => ({
        seq_before: st.expected, player_id: `plr_${(i % 4) + 1}`, turn: st.events[0]!.turn, phase: st.events[0]!.phase,
        window: 'action', raw: { i }, accepted: true, ts: st.events[0]!.ts,
      }));
      await store().recordActions(game.gameId, actions);
      expect(await store().compact(game.gameId)).toBe('compacted');
      segs = await store().prisma.$queryRawUnsafe<Segment[]>(
        `SELECT first_seq, last_seq, length(data) AS len FROM cold_segments WHERE game_id = $1 ORDER BY first_seq`,
        game.gameId,
      );
      expect(segs.length).toBeGreaterThanOrEqual(3);
      before = await everyRead();
      expect(before.verify).toBeNull();
    });

    it('given one byte of the first, a middle or the last segment flipped (after its bytes were cached), then every read refuses the game, twice; restored, it reads as before', async () => {
      const picks = [segs[0]!, segs[Math.floor(segs.length / 2)]!, segs.at(-1)!];
      for (const seg of picks) {
        for (const pos of [1, Math.ceil(seg.len / 2), seg.len]) {
          await store().read(game.gameId, 0, 100_000); // every segment's text now in the cache
          await flipSegmentByte(store(), game.gameId, seg.first_seq, pos);
          await refusedEverywhere(seg, `segment ${seg.first_seq} byte ${pos}`);
          await refusedEverywhere(seg, `segment ${seg.first_seq} byte ${pos}, again`); // nothing cached from the failure
          await flipSegmentByte(store(), game.gameId, seg.first_seq, pos);
          expect(await everyRead()).toEqual(before);
        }
      }
    });

    it('given a segment\'s seal, its last hash, its seq range or the game\'s head hash altered, then every read refuses it; restored, it reads as before', async () => {
      const mid = segs[Math.floor(segs.length / 2)]!;
      const last = segs.at(-1)!;
      const cases: Array<[string, Segment, string]> = [
        ['the seal of a middle segment', mid, flipHash('cold_segments', 'seal', `game_id = $1 AND first_seq = ${mid.first_seq}`)],
        ['the last hash of the first segment', segs[0]!, flipHash('cold_segments', 'last_hash', `game_id = $1 AND first_seq = 1`)],
        ['the last hash of the last segment', last, flipHash('cold_segments', 'last_hash', `game_id = $1 AND first_seq = ${last.first_seq}`)],
        ['the head hash in games', last, flipHash('games', 'last_hash', `game_id = $1`)],
      ];
      for (const [what, seg, flip] of cases) {
        await store().prisma.$executeRawUnsafe(flip, game.gameId);
        await refusedEverywhere(seg, what);
        await store().prisma.$executeRawUnsafe(flip, game.gameId);
        expect(await everyRead(), what).toEqual(before);
      }
      const shift = (by: number) =>
        store().prisma.$executeRawUnsafe(`UPDATE cold_segments SET last_seq = last_seq + $2 WHERE game_id = $1 AND first_seq = $3`, game.gameId, by, mid.first_seq);
      await shift(-1);
      await refusedEverywhere(mid, 'a seq range one short');
      await shift(1);
      expect(await everyRead()).toEqual(before);
    });

    it('given one byte of the cold actions or their seal flipped, then readActions refuses them naming the game; restored, they read as before', async () => {
      const [{ len }] = await store().prisma.$queryRawUnsafe<Array<{ len: number }>>(`SELECT length(data) AS len FROM cold_actions WHERE game_id = $1`, game.gameId) as [{ len: number }];
      const flips: Array<[string, () => Promise<unknown>]> = [
        ['a data byte', () => store().prisma.$executeRawUnsafe(FLIP_ACTIONS, game.gameId, Math.ceil(len / 2))],
        ['the seal', () => store().prisma.$executeRawUnsafe(flipHash('cold_actions', 'seal', 'game_id = $1'), game.gameId)],
      ];
      for (const [what, flip] of flips) {
        await flip();
        await expect(store().readActions(game.gameId), what).rejects.toMatchObject({ name: 'IntegrityError', gameId: game.gameId, part: 'actions' });
        await flip();
        expect(JSON.stringify(await store().readActions(game.gameId))).toBe(before.actions);
      }
    });

    it('given a hot game whose row links are altered (a hash, a prev_hash, a missing row), then reads that span it refuse it; restored, it reads as before', async () => {
      const hot = playGame(34, { tag: 'hot_seal', rules: { round_cap: 3 } });
      await persist(store(), hot);
      const all = JSON.stringify(await store().read(hot.gameId, 0, 100_000));
      // [what, the page after which a read of 20 spans it, alter, restore]
      const cases: Array<[string, number, string, string]> = [
        ['the hash of seq 10', 5, flipHash('events', 'hash', 'game_id = $1 AND seq = 10'), flipHash('events', 'hash', 'game_id = $1 AND seq = 10')],
        ['the prev_hash of seq 1', 0, flipHash('events', 'prev_hash', 'game_id = $1 AND seq = 1'), flipHash('events', 'prev_hash', 'game_id = $1 AND seq = 1')],
        ['seq 12 gone', 5, `UPDATE events SET seq = -12 WHERE game_id = $1 AND seq = 12`, `UPDATE events SET seq = 12 WHERE game_id = $1 AND seq = -12`],
      ];
      for (const [what, after, alter, restore] of cases) {
        await store().prisma.$executeRawUnsafe(alter, hot.gameId);
        await expect(store().read(hot.gameId, 0, 100_000), what).rejects.toMatchObject({ name: 'IntegrityError', gameId: hot.gameId });
        await expect(store().read(hot.gameId, after, 20), what).rejects.toMatchObject({ name: 'IntegrityError', gameId: hot.gameId });
        await store().prisma.$executeRawUnsafe(restore, hot.gameId);
        expect(JSON.stringify(await store().read(hot.gameId, 0, 100_000))).toBe(all);
      }
    });

    it('given segments sealed before their last hash was stored (last_hash NULL), then reads check them from genesis, fill it in, and refuse a flipped byte', async () => {
      const unseal = () => store().prisma.$executeRawUnsafe(`UPDATE cold_segments SET last_hash = NULL WHERE game_id = $1`, game.gameId);
      const filled = async () =>
        (await store().prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(last_hash)::int AS n FROM cold_segments WHERE game_id = $1`, game.gameId))[0]!.n;
      await unseal();
      expect(await everyRead()).toEqual(before);
      expect(await filled()).toBe(segs.length);

      const seg = segs[1]!;
      await unseal();
      await flipSegmentByte(store(), game.gameId, seg.first_seq, 7);
      await refusedEverywhere(seg, 'an old segment with a flipped byte');
      expect(await filled()).toBe(0); // nothing filled in from a log that does not verify
      await flipSegmentByte(store(), game.gameId, seg.first_seq, 7);
      expect(await everyRead()).toEqual(before);
    });
  });
}
