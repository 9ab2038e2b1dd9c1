import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionRecord, EventStore } from '../../src/store/index.js';
import { openPgliteStore, openPostgresStore, persist, playGame, postgresAvailable, type Played, type TestStore } from './support.js';

// Every column as text, so json values, timestamps and NULLs compare exactly.
const EVENT_COLUMNS = `seq, event_id, schema_version, turn, phase, type, player_id, ts::text, payload::text, visibility::text,
  rng::text, annotations::text, prev_hash, hash`;
const ACTION_COLUMNS = `seq_before, player_id, attempt, turn, phase, "window", raw::text, validated::text, accepted, rejection_code, ts::text`;

async function rows(store: EventStore, table: string, columns: string, gameId: string, order: string): Promise<unknown[]> {
  return store.prisma.$queryRawUnsafe(`SELECT ${columns} FROM ${table} WHERE game_id = $1 ORDER BY ${order}`, gameId);
}
const eventRows = (s: EventStore, table: string, id: string) => rows(s, table, EVENT_COLUMNS, id, 'seq');
const actionRows = (s: EventStore, table: string, id: string) => rows(s, table, ACTION_COLUMNS, id, 'seq_before, attempt, player_id');

function decisions(game: Played): ActionRecord[] {
  return game.steps.slice(1, 40).map((s, i) => ({
    seq_before: s.expected,
    player_id: `plr_${(i % 4) + 1}`,
    turn: s.events[0]!.turn,
    phase: s.events[0]!.phase,
    window: 'action',
    raw: i === 3 ? undefined : i === 4 ? null : { n: i, text: 'a\u00e9"\\' },
    ...(i % 5 === 0 ? { validated: { n: i } } : {}),
    accepted: i % 7 !== 0,
    rejection_code: i % 7 === 0 ? 'action/invalid' : null,
    ts: s.events[0]!.ts,
  }));
}

/** `tiltyard store thaw` (thaw.ts): a compacted game's rows come back exactly as events/actions held them. */
function thawSuite(open: () => Promise<TestStore>): void {
  let t: TestStore;
  let store: EventStore;
  let game: Played;
  let hotEvents: unknown[];
  let hotActions: unknown[];
  beforeAll(async () => {
    t = await open();
    store = t.store;
    game = playGame(11, { tag: 'thaw', rules: { round_cap: 6 } });
    await persist(store, game);
    await store.recordActions(game.gameId, decisions(game));
    hotEvents = await eventRows(store, 'events', game.gameId);
    hotActions = await actionRows(store, 'actions', game.gameId);
    expect(await store.compact(game.gameId)).toBe('compacted');
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('given a compacted game, when thawed, then events_all and actions_all hold its rows byte for byte as they were hot', async () => {
    expect(await eventRows(store, 'events_all', game.gameId)).toEqual([]);
    const r = await store.thaw({ game_ids: [game.gameId] });
    expect(r).toEqual({ thawed: 1, total: 1, failed: [] });
    expect(await eventRows(store, 'events_all', game.gameId)).toEqual(hotEvents);
    expect(await actionRows(store, 'actions_all', game.gameId)).toEqual(hotActions);
    expect(hotEvents.length).toBe(game.events.length);
  });

  it('given a thawed game, when thawed again, then it is "already" and nothing doubles; reads still come from cold storage', async () => {
    const progress: string[] = [];
    await store.thaw({ all: true }, { onProgress: (p) => progress.push(`${p.game_id} ${p.outcome}`) });
    expect(progress).toContain(`${game.gameId} already`);
    expect(await eventRows(store, 'events_all', game.gameId)).toEqual(hotEvents);
    expect(JSON.stringify(await store.read(game.gameId, 0, 100_000))).toBe(JSON.stringify(game.events));
    expect(await store.verifyChain(game.gameId)).toBeNull();
  });

  it('given a hot game and an unknown id, then thaw says "hot" and "missing" and writes nothing', async () => {
    const hot = playGame(12, { tag: 'thaw_hot', rules: { round_cap: 2 } });
    await persist(store, hot);
    const outcomes: string[] = [];
    const r = await store.thaw({ game_ids: [hot.gameId, 'game_nope'] }, { onProgress: (p) => outcomes.push(p.outcome) });
    expect(outcomes).toEqual(['hot', 'missing']);
    expect(r.thawed).toBe(0);
    expect(await eventRows(store, 'thawed_events', hot.gameId)).toEqual([]);
    expect((await eventRows(store, 'events_all', hot.gameId)).length).toBe(hot.events.length);
  });

  it('given the view, then a query by (game_id, turn, phase) and by (game_id, player_id, turn) uses the thawed indexes', async () => {
    const plan = async (where: string) => {
      const out = await store.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
        return tx.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(`EXPLAIN SELECT * FROM events_all WHERE ${where}`);
      });
      return out.map((r) => r['QUERY PLAN']).join('\n');
    };
    // Either index serves both (each leads with game_id); which one the planner takes depends on its statistics.
    const thawedIndex = /Scan (using|on) thawed_events_game_id_(turn_phase|player_id_turn)_idx/;
    expect(await plan(`game_id = '${game.gameId}' AND turn = 2 AND phase = 'action'`)).toMatch(thawedIndex);
    expect(await plan(`game_id = '${game.gameId}' AND player_id = 'plr_1' AND turn = 2`)).toMatch(thawedIndex);
  });

  it('given thawed rows, when dropped, then they are gone and the game still reads and verifies', async () => {
    expect(await store.dropThawed({ game_ids: [game.gameId] })).toEqual({ games: 1 });
    expect(await eventRows(store, 'events_all', game.gameId)).toEqual([]);
    expect(await actionRows(store, 'actions_all', game.gameId)).toEqual([]);
    expect(await store.verifyChain(game.gameId)).toBeNull();
    expect((await store.readActions(game.gameId)).length).toBe(hotActions.length);
  });
}

describe('thawing cold games for SQL on PGlite (embedded)', () => {
  thawSuite(() => openPgliteStore());
});

describe.skipIf(!(await postgresAvailable()))('thawing cold games for SQL on PostgreSQL', () => {
  thawSuite(() => openPostgresStore());
});
