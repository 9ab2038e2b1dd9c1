import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateHash, type ActionRecord, type EventStore } from '../../src/store/index.js';
import { openPgliteStore, playGame, type Played, type TestStore } from './support.js';

/** Decisions of every kind the actions table holds: nested and escaped raw, sent nothing, sent null, refused, a duplicate. */
function decisions(game: Played, salt: number): ActionRecord[] {
  const out: ActionRecord[] = game.steps.slice(1, 30).map((s, i) => ({
    seq_before: s.expected,
    player_id: `plr_${((i + salt) % 2) + 1}`,
    turn: s.events[0]!.turn,
    phase: s.events[0]!.phase,
    window: 'action',
    raw: i === 3 ? undefined : i === 4 ? null : { zz: i, text: 'a\u00e9"\\\n\u0001', nested: [1.5, { b: true, a: -0.000001 }], big: 1e21 },
    ...(i % 5 === 0 ? { validated: { n: i, longer_key: [salt] } } : {}),
    accepted: i % 7 !== 0,
    rejection_code: i % 7 === 0 ? 'action/invalid' : null,
    ts: s.events[0]!.ts,
  }));
  return [...out, { ...out[1]!, raw: 'a duplicate is dropped, as ON CONFLICT DO NOTHING drops it' }];
}

const SQL_COLD = `SELECT first_seq, last_seq, last_turn, seal, last_hash, encode(data, 'base64') AS data FROM cold_segments WHERE game_id = $1 ORDER BY first_seq`;
const SQL_ACTIONS = `SELECT count, seal, encode(data, 'base64') AS data FROM cold_actions WHERE game_id = $1`;
const SQL_GAME = `SELECT status, last_seq, last_hash, placements::text, compacted_at IS NOT NULL AS cold FROM games WHERE game_id = $1`;

async function seen(store: EventStore, game: Played) {
  const last = game.events.length;
  const states: string[] = [];
  for (let seq = 0; seq <= last; seq += 13) states.push(stateHash(await store.stateAt(game.gameId, seq)));
  return {
    events: JSON.stringify(await store.read(game.gameId, 0, 100_000)),
    states,
    actions: JSON.stringify(await store.readActions(game.gameId)),
    verify: await store.verifyChain(game.gameId),
    segments: await store.ctx.sql.rows(SQL_COLD, [game.gameId]),
    coldActions: await store.ctx.sql.rows(SQL_ACTIONS, [game.gameId]),
    game: await store.ctx.sql.rows(SQL_GAME, [game.gameId]),
  };
}

describe('a whole ended game stored cold at once (cold-game.ts)', () => {
  let hot: TestStore;
  let cold: TestStore;
  beforeAll(async () => {
    [hot, cold] = await Promise.all([openPgliteStore(), openPgliteStore()]);
  });
  afterAll(async () => {
    await Promise.all([hot?.dispose(), cold?.dispose()]);
  });

  it('given random ended games, then storing one cold at once gives the very rows compaction gives it, and every read alike', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(2, 3, 4), fc.constantFrom(2, 6), async (seed, seats, cap) => {
        const game = playGame(seed, { seats, tag: 'cold_append', rules: { round_cap: cap } });
        const whole = { events: game.events, actions: decisions(game, seed), snapshots: [game.final] };
        for (const t of [hot, cold]) await t.store.createGame({ seed: game.seed, config: game.config });
        await hot.store.appendGame(game.gameId, whole);
        expect(await hot.store.compact(game.gameId)).toBe('compacted');
        const r = await cold.store.appendGame(game.gameId, whole, { cold: true });
        expect(r).toMatchObject({ last_seq: game.events.length, appended: game.events.length });
        const [a, b] = [await seen(hot.store, game), await seen(cold.store, game)];
        expect(b).toEqual(a);
        expect(b.verify).toBeNull();
        expect(b.game).toEqual([expect.objectContaining({ status: 'ended', cold: true })]);
        // The same game again is a success that changes nothing; compacting it is 'already'.
        expect((await cold.store.appendGame(game.gameId, whole, { cold: true })).appended).toBe(0);
        expect(await cold.store.compact(game.gameId)).toBe('already');
      }),
      { numRuns: 6 },
    );
  });

  it('given a game that did not end, then it is stored hot even when asked cold', async () => {
    const game = playGame(5, { tag: 'cold_append_short', rules: { round_cap: 2 } });
    const cut = game.events.slice(0, 10);
    await cold.store.createGame({ seed: game.seed, config: game.config });
    await cold.store.appendGame(game.gameId, { events: cut, actions: [], snapshots: [] }, { cold: true });
    const [row] = await cold.store.ctx.sql.rows<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE game_id = $1', [game.gameId]);
    expect(row!.n).toBe(10);
  });
});
