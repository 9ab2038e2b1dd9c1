import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fold, initialState } from '../../src/game/index.js';
import { forkGame, readParent } from '../../src/research/fork-game.js';
import { applyLegacyReseed, forkOf, renamedJson } from '../../src/research/fork-lineage.js';
import { forkPoint } from '../../src/research/fork-point.js';
import { planFork } from '../../src/research/fork-replay.js';
import { runCounterfactual } from '../../src/research/counterfactual-run.js';
import { logicalInputClock } from '../../src/runner/input-clock.js';
import { resumePersistent, runPersistent } from '../../src/runner/persistent-runner.js';
import { configOf, readLog } from '../../src/runner/stored-game.js';
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
  it('a fork with the same agents and the same deck stores the parent again, and verifies', async () => {
    const fork = await forkGame(store, parentId, { at: { round: 2 }, sameDeck: true });
    expect(forkOf(fork)!.secret).toBeUndefined();
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
    expect(lineage).toMatchObject({ parent_game_id: parentId, secret: 42 });
    expect(lineage.seq).toBeGreaterThanOrEqual(60);
    const stop = new AbortController();
    let commits = 0;
    const first = await resumePersistent(store, fork.game_id, { clock: logicalInputClock, signal: stop.signal, onCommit: () => ++commits === 5 && stop.abort() });
    expect(first.status).toBe('stopped');
    // Resume rebuilds the fork from its seed: the reseed must be replayed at the fork point.
    expect((await resumePersistent(store, fork.game_id, { clock: logicalInputClock })).status).toBe('ended');
    expect(await passes(fork.game_id)).toEqual([]);
    const [mine, theirs] = [await readLog(store, fork.game_id), await readLog(store, parentId)];
    expect(mine.slice(0, lineage.seq).map((e) => renamedJson(e, fork.game_id, parentId))).toEqual(theirs.slice(0, lineage.seq).map((e) => JSON.stringify(e)));
    expect(mine.map((e) => renamedJson(e, fork.game_id, parentId))).not.toEqual(theirs.map((e) => JSON.stringify(e)));
    // A fork of this fork, past its reseed, re-simulates the reseed in its prefix and adds its own.
    const grandchild = await forkGame(store, fork.game_id, { at: { seq: lineage.seq + 10 } });
    expect((await resumePersistent(store, grandchild.game_id, { clock: logicalInputClock })).status).toBe('ended');
    expect(await passes(grandchild.game_id)).toEqual([]);
  });

  it('a fork stored before secrets (a PRNG-only reseed, in no event) still resumes, replays and verifies', async () => {
    const parent = await store.getGame(parentId);
    const game = await readParent(store, parent);
    const plan = planFork(game, 'game_legacy1', forkPoint({ seq: 90 }, game.log, game.decisions)!);
    applyLegacyReseed(plan.state, { reseed: 5 });
    await store.createGame({ seed: parent.seed, config: plan.config, seats: parent.seats, options: { fork: { ...plan.lineage, reseed: 5 } } });
    const actions = (await store.readActions(parentId)).filter((a) => a.seq_before < plan.lineage.seq).map((a) => ({ ...a, raw: a.raw === null ? undefined : (JSON.parse(a.raw) as unknown), validated: a.validated === null ? null : (JSON.parse(a.validated) as unknown) }));
    await store.appendGame('game_legacy1', { events: plan.events, actions, snapshots: [plan.state] });
    expect((await resumePersistent(store, 'game_legacy1', { clock: logicalInputClock })).status).toBe('ended');
    expect(await passes('game_legacy1')).toEqual([]);
  });

  it("a default fork draws what the parent's public seed cannot predict: re-simulating the parent gives another deck and other draws", async () => {
    // The same agents and no option: before forks kept secrets, this replayed the parent exactly.
    const fork = await forkGame(store, parentId, { at: { round: 2 } });
    expect((await resumePersistent(store, fork.game_id, { clock: logicalInputClock })).status).toBe('ended');
    const { seq } = forkOf(fork)!;
    // The attacker: the parent has ended, so its seed is public; folding its log (stronger than any
    // outsider, who has only the public one) to the fork point gives the deck a leaky fork draws from.
    const parent = await store.getGame(parentId);
    const [parentLog, forkLog] = [await readLog(store, parentId), await readLog(store, fork.game_id)];
    const derived = fold(initialState(configOf(parent), parent.seed), parentLog.slice(0, seq));
    const drawsAfter = (log: typeof forkLog) => log.filter((e) => e.seq > seq && e.type === 'cards_drawn').flatMap((e) => (e.payload as { cards: string[] }).cards);
    const [mine, theirs] = [drawsAfter(forkLog), drawsAfter(parentLog)];
    expect(mine.length).toBeGreaterThanOrEqual(6);
    // Six cards in the derived order by chance: about one in 120·119·…·115 (3·10^12).
    expect(mine.slice(0, 6)).not.toEqual(derived.deck.slice(0, 6));
    expect(mine.slice(0, 6)).not.toEqual(theirs.slice(0, 6));
    expect(forkLog.find((e) => e.seq > seq && e.rng)?.rng).not.toEqual(parentLog.find((e) => e.seq > seq && e.rng)?.rng);
    expect(await passes(fork.game_id)).toEqual([]);
  });

  it('verify notices a fork whose recorded parent hash no longer matches', async () => {
    const fork = await forkGame(store, parentId, { at: { seq: 30 }, sameDeck: true });
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
