import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '../../src/store/index.js';
import { flipSegmentByte, openPostgresStore, persist, playGame, postgresAvailable, type Played, type TestStore } from '../store/support.js';
import { bin, tiltyardWith } from './run-cli.js';

const available = await postgresAvailable();

/** What a reader sees of a game: every event, the decisions, and verify's verdict. */
async function seen(store: EventStore, game: Played) {
  return {
    events: JSON.stringify(await store.read(game.gameId, 0, 100_000)),
    actions: JSON.stringify(await store.readActions(game.gameId)),
    verify: await store.verifyChain(game.gameId),
  };
}

describe.skipIf(!available)('tiltyard store compact (PostgreSQL)', () => {
  let t: TestStore & { url: string };
  const games: Played[] = [];
  const hot = new Map<string, Awaited<ReturnType<typeof seen>>>();
  const env = () => ({ env: { DATABASE_URL: t.url } });

  beforeAll(async () => {
    t = await openPostgresStore();
    for (let seed = 1; seed <= 8; seed++) {
      const game = playGame(seed, { tag: 'compact_cli' });
      await persist(t.store, game);
      await t.store.recordActions(game.gameId, [
        { seq_before: 1, player_id: 'plr_1', turn: 1, phase: 'action', window: 'action', raw: { seed }, accepted: true, ts: game.events[0]!.ts },
      ]);
      games.push(game);
      hot.set(game.gameId, await seen(t.store, game));
    }
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('given a compaction SIGKILLed after its first game, then nothing is lost, and the next run finishes it; a third has nothing to do', async () => {
    const child = spawn(process.execPath, [bin, 'store', 'compact'], { env: { ...process.env, DATABASE_URL: t.url, TILTYARD_DEBUG: '' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (/^compact 1\/8 /m.test(stderr) && child.exitCode === null) child.kill('SIGKILL');
    });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
    expect(signal).toBe('SIGKILL');

    // Each game is wholly hot or wholly cold, and reads the same either way.
    const state = await t.store.prisma.$queryRawUnsafe<Array<{ game_id: string; cold: boolean; rows: number; segs: number }>>(
      `SELECT g.game_id, g.compacted_at IS NOT NULL AS cold,
              (SELECT count(*) FROM events e WHERE e.game_id = g.game_id)::int AS rows,
              (SELECT count(*) FROM cold_segments c WHERE c.game_id = g.game_id)::int AS segs
         FROM games g ORDER BY g.game_id`,
    );
    const coldAfterKill = state.filter((s) => s.cold).length;
    expect(coldAfterKill).toBeGreaterThanOrEqual(1);
    expect(coldAfterKill).toBeLessThan(8);
    for (const s of state) expect(s.cold ? s.rows === 0 && s.segs > 0 : s.rows > 0 && s.segs === 0, s.game_id).toBe(true);
    for (const g of games) expect(await seen(t.store, g)).toEqual(hot.get(g.gameId));

    const second = await tiltyardWith(env(), 'store', 'compact');
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(new RegExp(`^compact 1/${8 - coldAfterKill} game_\\S+ compacted$`, 'm'));
    expect(second.stdout).toBe(`compacted ${8 - coldAfterKill} of ${8 - coldAfterKill} ended games still hot\n`);
    for (const g of games) expect(await seen(t.store, g)).toEqual(hot.get(g.gameId));
    const [left] = await t.store.prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM events`);
    expect(left!.n).toBe(0);

    const third = await tiltyardWith(env(), 'store', 'compact', '--json');
    expect(third.code).toBe(0);
    expect(JSON.parse(third.stdout)).toEqual({ compacted: 0, failed: [], total: 0 });
  });

  it('given one byte flipped in the first, a middle or the last cold segment of a game, then replay, games <id>, export and verify exit 1 with one line naming the game and the seqs; restored, replay exits 0', async () => {
    const id = games[0]!.gameId;
    expect(await t.store.compact(id)).toMatch(/^(compacted|already)$/); // already, after the test above
    const segs = await t.store.prisma.$queryRawUnsafe<Array<{ first_seq: number; last_seq: number; len: number }>>(
      `SELECT first_seq, last_seq, length(data) AS len FROM cold_segments WHERE game_id = $1 ORDER BY first_seq`,
      id,
    );
    expect(segs.length).toBeGreaterThanOrEqual(3);
    const flip = (first: number, pos: number) => flipSegmentByte(t.store, id, first, pos);
    const oneLine = new RegExp(`^tiltyard: game ${id}: events \\d+–\\d+ fail their integrity check \\([^\\n]+\\); not served \\(tiltyard verify ${id} checks the whole log\\)\\n$`);
    const mid = segs[Math.floor(segs.length / 2)]!;
    for (const seg of [segs[0]!, mid, segs.at(-1)!]) {
      const pos = Math.ceil(seg.len / 2);
      await flip(seg.first_seq, pos);
      const runs = await Promise.all([tiltyardWith(env(), 'replay', id), tiltyardWith(env(), 'games', id)]);
      for (const [i, run] of runs.entries()) {
        expect(run.code, `${['replay', 'games'][i]} with segment ${seg.first_seq} flipped: ${run.stderr}`).toBe(1);
        expect(run.stderr).toMatch(oneLine);
      }
      if (seg === mid) {
        const [exported, verified] = await Promise.all([tiltyardWith(env(), 'export', '--progress'), tiltyardWith(env(), 'verify', id)]);
        expect(exported.code).toBe(1);
        expect(exported.stderr).toContain(`tiltyard: skipped ${id}: game ${id}: events ${seg.first_seq}–${seg.last_seq} fail their integrity check`);
        expect(exported.stdout).not.toContain(id);
        expect(verified.code).toBe(1);
        expect(verified.stdout).toContain(`✗ hash chain intact — the link at seq ${seg.first_seq} does not verify`);
      }
      await flip(seg.first_seq, pos);
    }
    const restored = await tiltyardWith(env(), 'replay', id);
    expect(restored.code, restored.stderr).toBe(0);
  });

  it('given a bad action, then it is a usage error', async () => {
    const run = await tiltyardWith(env(), 'store', 'squash');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown store action "squash"/);
  });

  it('given compacted games, when thawed with --all, then events_all holds every event as it was hot; --drop clears it; bad selections are usage errors', async () => {
    const thawed = await tiltyardWith(env(), 'store', 'thaw', '--all', '--json');
    expect(thawed.code, thawed.stderr).toBe(0);
    expect(JSON.parse(thawed.stdout)).toEqual({ thawed: 8, total: 8, failed: [], missing: [] });
    expect(thawed.stderr).toMatch(/^thaw 8\/8 game_\S+ thawed$/m);
    for (const g of games) {
      const rows = await t.store.prisma.$queryRawUnsafe<Array<{ payload: string }>>(
        `SELECT payload::text AS payload FROM events_all WHERE game_id = $1 ORDER BY seq`,
        g.gameId,
      );
      expect(rows.map((r) => r.payload)).toEqual(g.events.map((e) => JSON.stringify(e.payload)));
    }
    const dropped = await tiltyardWith(env(), 'store', 'thaw', '--all', '--drop');
    expect(dropped.code).toBe(0);
    expect(dropped.stdout).toBe('dropped the thawed rows of 8 games (their cold data stays)\n');
    for (const args of [['store', 'thaw'], ['store', 'thaw', games[0]!.gameId, '--all'], ['store', 'thaw', 'not-a-game']]) {
      const run = await tiltyardWith(env(), ...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/store thaw: (name games|expected game ids)/);
    }
  });
});
