import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkGame } from '../../src/research/fork-game.js';
import { forkOf, renamedJson } from '../../src/research/fork-lineage.js';
import { runCounterfactual } from '../../src/research/counterfactual-run.js';
import { logicalInputClock } from '../../src/runner/input-clock.js';
import { resumePersistent, runPersistent } from '../../src/runner/persistent-runner.js';
import { readLog } from '../../src/runner/stored-game.js';
import { verifyGame } from '../../src/runner/verify-game.js';
import type { EventStore } from '../../src/store/index.js';
import { openPgliteStore, type TestStore } from '../store/support.js';

const AGENTS = ['balanced', 'aggressor', 'turtle'];
let t: TestStore;
let store: EventStore;
let parentId: string;

beforeAll(async () => {
  t = await openPgliteStore();
  store = t.store;
  parentId = (await runPersistent(store, { seed: 11, agents: AGENTS, rules: { windows: 'compact', round_cap: 6 } }, { clock: logicalInputClock })).gameId;
});
afterAll(() => t.dispose());

const passes = async (id: string) => (await verifyGame(store, id)).assertions.filter((a) => a.status !== 'pass');

describe('stored forks', () => {
  it('a fork with the same agents and no reseed stores the parent again, and verifies', async () => {
    const fork = await forkGame(store, parentId, { at: { round: 2 } });
    const out = await resumePersistent(store, fork.game_id, { clock: logicalInputClock });
    expect(out.status).toBe('ended');
    const [mine, theirs] = [await readLog(store, fork.game_id), await readLog(store, parentId)];
    expect(mine.map((e) => renamedJson(e, fork.game_id, parentId))).toEqual(theirs.map((e) => JSON.stringify(e)));
    expect(await passes(fork.game_id)).toEqual([]);
    expect((await verifyGame(store, fork.game_id)).assertions.map((a) => a.name)).toContain('fork prefix equals the parent');
  });

  it('a reseeded fork with other agents, interrupted and resumed, verifies (prefix against the parent, the rest re-simulated)', async () => {
    const fork = await forkGame(store, parentId, { at: { seq: 60 }, agents: ['random', 'aggressor', 'trickster'], reseed: 42 });
    const lineage = forkOf(fork)!;
    expect(lineage).toMatchObject({ parent_game_id: parentId, reseed: 42 });
    expect(lineage.seq).toBeGreaterThanOrEqual(60);
    const stop = new AbortController();
    let commits = 0;
    const first = await resumePersistent(store, fork.game_id, { clock: logicalInputClock, signal: stop.signal, onCommit: () => ++commits === 5 && stop.abort() });
    expect(first.status).toBe('stopped');
    // Resume rebuilds the fork from its seed: the reseed must be applied again at the fork point.
    expect((await resumePersistent(store, fork.game_id, { clock: logicalInputClock })).status).toBe('ended');
    expect(await passes(fork.game_id)).toEqual([]);
    const [mine, theirs] = [await readLog(store, fork.game_id), await readLog(store, parentId)];
    expect(mine.slice(0, lineage.seq).map((e) => renamedJson(e, fork.game_id, parentId))).toEqual(theirs.slice(0, lineage.seq).map((e) => JSON.stringify(e)));
    expect(mine.map((e) => renamedJson(e, fork.game_id, parentId))).not.toEqual(theirs.map((e) => JSON.stringify(e)));
  });

  it('verify notices a fork whose recorded parent hash no longer matches', async () => {
    const fork = await forkGame(store, parentId, { at: { seq: 30 } });
    const options = { ...fork.options, fork: { ...forkOf(fork)!, parent_hash: 'f'.repeat(64) } };
    await store.prisma.game.update({ where: { gameId: fork.game_id }, data: { options } });
    const failed = await passes(fork.game_id);
    expect(failed.map((a) => a.name)).toEqual(['fork prefix equals the parent']);
  });

  it('stored counterfactual runs are forks that verify, and report as the in-memory runs do', async () => {
    const spec = { at: { seq: 80 }, runs: 2, reseedFrom: 5 };
    const [stored, memory] = [await runCounterfactual(store, parentId, { ...spec, store: true }), await runCounterfactual(store, parentId, spec)];
    for (const r of stored.results) expect(await passes(r.game_id!)).toEqual([]);
    const strip = (r: typeof stored) => JSON.stringify({ ...r, results: r.results.map((x) => ({ ...x, game_id: null })) });
    expect(strip(stored)).toBe(strip(memory));
  });
});
