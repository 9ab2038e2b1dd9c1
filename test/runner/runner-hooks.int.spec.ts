import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { logicalInputClock } from '../../src/runner/input-clock.js';
import { buildAgents, seatConfigs } from '../../src/runner/lineup.js';
import { resumePersistent, runPersistent } from '../../src/runner/persistent-runner.js';
import { runGame } from '../../src/runner/run-game.js';
import { readLog } from '../../src/runner/stored-game.js';
import { verifyGame } from '../../src/runner/verify-game.js';
import type { EventStore } from '../../src/store/index.js';
import { freshGameId, openPgliteStore, type TestStore } from '../store/support.js';

/** The server's hooks into the persistent runner: each step's events, a stop signal, a pace. */
describe('persistent runner hooks (onCommit events, signal, pace)', () => {
  let t: TestStore;
  let store: EventStore;
  beforeAll(async () => {
    t = await openPgliteStore();
    store = t.store;
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const game = (tag: string) => ({ seed: 77, agents: ['balanced', 'trickster', 'random'], rules: { round_cap: 3 }, gameId: freshGameId(tag) });
  const fails = async (id: string) => (await verifyGame(store, id)).assertions.filter((a) => a.status === 'fail');

  it('given onCommit, then it gets every committed step with its events, contiguous and equal to the stored log', async () => {
    const steps: Array<{ seq: number; events: readonly GameEvent[] }> = [];
    const out = await runPersistent(store, game('events'), { onCommit: (seq, _s, events) => steps.push({ seq, events: structuredClone(events) }) });
    expect(out.status).toBe('ended');
    for (const s of steps) expect(s.events.at(-1)!.seq).toBe(s.seq);
    const delivered = steps.flatMap((s) => s.events);
    expect(JSON.stringify(delivered)).toBe(JSON.stringify(await readLog(store, out.gameId)));
  });

  it('given a signal aborted mid-game, then the runner stops after a whole step ("stopped"), and a resume ends in the same log as an uninterrupted run', async () => {
    const g = game('stop');
    const controller = new AbortController();
    let commits = 0;
    const stopped = await runPersistent(store, g, {
      clock: logicalInputClock,
      signal: controller.signal,
      onCommit: () => {
        if (++commits === 5) controller.abort();
      },
    });
    expect(stopped).toMatchObject({ status: 'stopped', placements: null });
    const head = await store.getGame(g.gameId);
    expect(head.status).toBe('running');
    expect(stopped.lastSeq).toBe(head.last_seq);
    expect(await store.verifyChain(g.gameId)).toBeNull();

    const resumed = await resumePersistent(store, g.gameId, { clock: logicalInputClock });
    expect(resumed).toMatchObject({ status: 'ended', fromSeq: stopped.lastSeq });
    expect(await fails(g.gameId)).toEqual([]);
    const mem = runGame({ game_id: g.gameId, seats: seatConfigs(g.agents), rules: g.rules }, g.seed, buildAgents(g.agents, g.seed));
    expect(JSON.stringify(await readLog(store, g.gameId))).toBe(JSON.stringify(mem.events));
  });

  it('given an already aborted signal, then nothing is appended', async () => {
    const out = await runPersistent(store, game('pre'), { signal: AbortSignal.abort() });
    expect(out).toMatchObject({ status: 'stopped', appended: 0, lastSeq: 0 });
  });

  it('given paceMs, then the runner pauses that long before every decision, and not before the start', async () => {
    const pauses: number[] = [];
    let commits = 0;
    const out = await runPersistent(store, game('pace'), {
      paceMs: 7,
      pause: (ms) => {
        pauses.push(ms);
        return Promise.resolve();
      },
      onCommit: () => commits++,
    });
    expect(out.status).toBe('ended');
    // One commit starts the game; every other one follows a decision, each after one pause.
    expect(pauses).toEqual(Array(commits - 1).fill(7));
  });

  it('given a long pace, when the signal aborts during a pause, then the runner stops at once', async () => {
    const controller = new AbortController();
    // A pause of 10 minutes that the abort did not cut would outlast the test's own timeout.
    const out = await runPersistent(store, game('cut'), {
      paceMs: 600_000,
      signal: controller.signal,
      onCommit: () => setTimeout(() => controller.abort(), 30),
    });
    expect(out).toMatchObject({ status: 'stopped' });
    expect(out.lastSeq).toBeGreaterThan(0);
  });
});
