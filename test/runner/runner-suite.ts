import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NAMES, agentVersion, type AgentName } from '../../src/agents/builtin/index.js';
import type { GameState } from '../../src/game/index.js';
import { logicalInputClock } from '../../src/runner/input-clock.js';
import { buildAgents, seatConfigs } from '../../src/runner/lineup.js';
import {
  createPersistentGame,
  resumePersistent,
  runPersistent,
  type NewGame,
} from '../../src/runner/persistent-runner.js';
import { runGame } from '../../src/runner/run-game.js';
import { DivergenceError } from '../../src/runner/runner-errors.js';
import { readDecisions, readLog } from '../../src/runner/stored-game.js';
import { verifyGame } from '../../src/runner/verify-game.js';
import type { EventStore } from '../../src/store/index.js';
import { freshGameId, type TestStore } from '../store/support.js';

const json = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;
const SMALL = { round_cap: 5 };

/** The same game played in memory by runGame (its logical clock equals logicalInputClock). */
function inMemory(
  game: Required<Pick<NewGame, 'seed' | 'agents' | 'gameId'>> & { rules?: object },
) {
  const config = { game_id: game.gameId, seats: seatConfigs(game.agents), rules: game.rules ?? {} };
  return runGame(config, game.seed, buildAgents(game.agents, game.seed));
}

const statusOf = async (store: EventStore, id: string) =>
  Object.fromEntries((await verifyGame(store, id)).assertions.map((a) => [a.name, a.status]));

/** A crash right after a commit: the runner's process "dies" there. */
class Crash extends Error {}

/**
 * The persistent runner's contract, run as is against each database. `open` gives a fresh store
 * on its own database; `openAnother` a second store on the same database when the backend allows
 * one (PostgreSQL), for runners in separate connections.
 */
export function runnerSuite(
  open: () => Promise<TestStore & { openAnother?: () => Promise<TestStore> }>,
): void {
  let t: Awaited<ReturnType<typeof open>>;
  let store: EventStore;
  beforeAll(async () => {
    t = await open();
    store = t.store;
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('given a seed and agents, when run persistently, then the stored log equals runGame in memory with the same clock, one action per decision', async () => {
    const game = {
      seed: 21,
      agents: ['random', 'balanced', 'aggressor'],
      gameId: freshGameId('eq'),
      rules: { round_cap: 8 },
    };
    const out = await runPersistent(store, game, { clock: logicalInputClock });
    const mem = inMemory(game);
    expect(out).toMatchObject({
      status: 'ended',
      fromSeq: 0,
      lastSeq: mem.events.length,
      appended: mem.events.length,
    });
    expect(json(out.placements)).toEqual(json(mem.state.placements));
    expect(JSON.stringify(await readLog(store, game.gameId))).toBe(JSON.stringify(mem.events));
    const decisions = await readDecisions(store, game.gameId);
    expect(decisions.map((d) => [d.seq_before, d.player_id, d.window, d.ts])).toEqual(
      mem.decisions.map((d) => [d.seq, d.player_id, d.window, d.ts]),
    );
    expect(decisions.map((d) => json(d.raw))).toEqual(mem.decisions.map((d) => json(d.decision)));
    const stored = await store.getGame(game.gameId);
    expect(stored.status).toBe('ended');
    // Which behaviour played each built-in seat (AGENT_VERSIONS), kept with the game.
    expect(stored.seats.map((s) => s.agent_version)).toEqual(game.agents.map((a) => `${a}@${agentVersion(a as AgentName)}`));
  });

  it('given the wall clock, then every decision keeps its real ts and re-simulation from the record reproduces the log', async () => {
    const before = new Date().toISOString();
    const out = await runPersistent(store, {
      seed: 22,
      agents: ['turtle', 'random'],
      rules: SMALL,
    });
    const decisions = await readDecisions(store, out.gameId);
    expect(decisions.length).toBeGreaterThan(0);
    const stamps = decisions.map((d) => d.ts);
    expect(stamps.every((ts) => ts >= before && ts <= new Date().toISOString())).toBe(true);
    expect([...stamps].sort()).toEqual(stamps);
    const verdict = await verifyGame(store, out.gameId);
    expect(verdict.events_checked).toBe(out.lastSeq);
    expect(verdict.assertions.filter((a) => a.status === 'fail')).toEqual([]);
  });

  it('property: random games persisted; stateAt at random committed seqs equals the live engine state, and verify passes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.array(fc.constantFrom(...AGENT_NAMES), { minLength: 2, maxLength: 4 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (seed, agents, picks, compact) => {
          const live = new Map<number, GameState>();
          const rules = compact ? { ...SMALL, windows: 'compact' as const } : SMALL;
          const out = await runPersistent(
            store,
            { seed, agents, rules },
            { onCommit: (seq, s) => live.set(seq, structuredClone(s)) },
          );
          expect(out.status).toBe('ended');
          const seqs = [...live.keys()];
          for (const p of picks) {
            const seq = seqs[Math.min(seqs.length - 1, Math.floor(p * seqs.length))]!;
            expect(json(await store.stateAt(out.gameId, seq)), `seq ${seq}`).toEqual(
              json(live.get(seq)),
            );
          }
          const verdict = await verifyGame(store, out.gameId);
          expect(verdict.assertions.filter((a) => a.status === 'fail')).toEqual([]);
        },
      ),
      // Whole persisted games, each a few hundred commits: the store's own property
      // (store-suite.ts) covers stateAt over 20 games; these runs cover the runner's commits.
      { numRuns: 5 },
    );
  });

  it("given one event's payload altered in the database, then verify fails on the hash chain and on re-simulation", async () => {
    const out = await runPersistent(store, {
      seed: 23,
      agents: ['balanced', 'random', 'trickster'],
      rules: SMALL,
    });
    expect(Object.values(await statusOf(store, out.gameId)).every((s) => s === 'pass')).toBe(true);
    const victim = Math.floor(out.lastSeq / 2);
    await store.prisma.$executeRaw`
      UPDATE events SET payload = json_build_object('forged', true) WHERE game_id = ${out.gameId} AND seq = ${victim}`;
    const status = await statusOf(store, out.gameId);
    expect(status['hash chain intact']).toBe('fail');
    expect(status['re-simulation reproduces the log']).toBe('fail');
    expect(status['seq contiguous from 1']).toBe('pass');
    const resim = (await verifyGame(store, out.gameId)).assertions.find(
      (a) => a.name === 're-simulation reproduces the log',
    );
    expect(resim?.details).toContain(`seq ${victim}`);
  });

  it('given a recorded decision altered, then re-simulation fails although the event chain holds, and resuming diverges', async () => {
    const game = { seed: 24, agents: ['random', 'aggressor'], rules: SMALL };
    const id = await createPersistentGame(store, game);
    let commits = 0;
    const crashAt = 12;
    const crashed = await resumePersistent(store, id, {
      onCommit: () => {
        if (++commits === crashAt) throw new Crash();
      },
    }).catch((e: unknown) => e);
    expect(crashed).toBeInstanceOf(Crash);
    const head = await store.lastSeq(id);
    await store.prisma.$executeRaw`
      UPDATE actions SET raw = '{"tampered":true}'::jsonb
      WHERE game_id = ${id} AND seq_before = (SELECT min(seq_before) FROM actions WHERE game_id = ${id} AND "window" = 'intent')`;
    const status = await statusOf(store, id);
    expect(status['hash chain intact']).toBe('pass');
    expect(status['re-simulation reproduces the log']).toBe('fail');
    await expect(resumePersistent(store, id)).rejects.toBeInstanceOf(DivergenceError);
    expect(await store.lastSeq(id)).toBe(head);
  });

  it('given a runner that dies after random commits, when resumed each time, then the log equals an uninterrupted run', async () => {
    const game = {
      seed: 25,
      agents: ['manipulator', 'turtle', 'random'],
      gameId: freshGameId('crash'),
      rules: { round_cap: 6 },
    };
    const mem = inMemory(game);
    await createPersistentGame(store, game);
    const kills = [1, 2, 7, 3];
    const heads: number[] = [];
    for (const k of kills) {
      let commits = 0;
      const err = await resumePersistent(store, game.gameId, {
        clock: logicalInputClock,
        onCommit: () => {
          if (++commits === k) throw new Crash();
        },
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Crash);
      heads.push(await store.lastSeq(game.gameId));
    }
    expect(heads[0]).toBeGreaterThan(0);
    expect([...heads].sort((a, b) => a - b)).toEqual(heads);
    const last = await resumePersistent(store, game.gameId, { clock: logicalInputClock });
    expect(last).toMatchObject({
      status: 'ended',
      fromSeq: heads.at(-1),
      lastSeq: mem.events.length,
    });
    expect(JSON.stringify(await readLog(store, game.gameId))).toBe(JSON.stringify(mem.events));
    expect(Object.values(await statusOf(store, game.gameId)).every((s) => s === 'pass')).toBe(true);
  });

  describe('two runners on one game', () => {
    for (const clocks of [
      ['logical', 'logical'],
      ['logical', 'wall'],
    ] as const) {
      it(`given two runners (${clocks.join(' and ')} clocks) resuming the same game at once, then exactly one keeps writing and the other stops cleanly`, async () => {
        const id = await createPersistentGame(store, {
          seed: 26,
          agents: ['balanced', 'random', 'turtle'],
          rules: SMALL,
        });
        const other = t.openAnother ? await t.openAnother() : null;
        try {
          const stores = [store, other?.store ?? store];
          const outs = await Promise.all(
            clocks.map((c, i) =>
              resumePersistent(stores[i]!, id, c === 'logical' ? { clock: logicalInputClock } : {}),
            ),
          );
          const ended = outs.filter((o) => o.status === 'ended');
          const stopped = outs.filter((o) => o.status === 'superseded');
          expect(ended).toHaveLength(1);
          expect(stopped).toHaveLength(1);
          const head = await store.lastSeq(id);
          expect(ended[0]!.lastSeq).toBe(head);
          expect(stopped[0]!.lastSeq).toBeLessThan(head);
          expect(stopped[0]!.placements).toBeNull();
          // Every stored event was appended by exactly one of them.
          expect(ended[0]!.appended + stopped[0]!.appended).toBe(head);
          expect(Object.values(await statusOf(store, id)).every((s) => s === 'pass')).toBe(true);
        } finally {
          await other?.dispose();
        }
      });
    }
  });

  it('given a skill seat, when the runner dies and resumes, then its traces are stored, its memory continues from the last trace, and verify passes without calling it', async () => {
    const game = { seed: 31, agents: ['skill:test/agents/fixtures/skills/counter', 'random', 'balanced'], gameId: freshGameId('skill'), rules: { round_cap: 4 } };
    let commits = 0;
    const crashed = await runPersistent(store, game, {
      clock: logicalInputClock,
      onCommit: () => {
        if (++commits === 40) throw new Crash();
      },
    }).catch((e: unknown) => e);
    expect(crashed).toBeInstanceOf(Crash);
    const before = await store.readTraces(game.gameId, 'plr_1');
    expect(before.length).toBeGreaterThan(0);
    const lastCalls = (before[before.length - 1]!.entries as { memory: { calls: number } }).memory.calls;
    expect(lastCalls).toBe(before.length);
    const seen: number[] = [];
    const out = await resumePersistent(store, game.gameId, {
      clock: logicalInputClock,
      onDecision: (player, answer) => {
        if (player === 'plr_1') seen.push((answer.trace?.memory as { calls: number }).calls);
      },
    });
    expect(out.status).toBe('ended');
    expect(seen[0]).toBe(lastCalls + 1);
    const after = await store.readTraces(game.gameId, 'plr_1');
    expect(after.length).toBe(before.length + seen.length);
    expect(after[0]).toMatchObject({ player_id: 'plr_1', entries: { agent: game.agents[0], ok: true, stages: expect.any(Array) } });
    // The built-in seats beside it store none: seed + decisions reproduce theirs (issue 29).
    expect((await store.readTraces(game.gameId)).map((t) => t.player_id)).toEqual(after.map(() => 'plr_1'));
    // The usage it reported in its logs, one provider_calls row per decision.
    const calls = await store.readProviderCalls(game.gameId);
    expect(calls).toHaveLength(after.length);
    expect(calls[0]).toMatchObject({ provider: 'external', model: 'counter', status: 'reported', input_tokens: 10, output_tokens: 5, cost_usd: 0.001, player_id: 'plr_1' });
    expect(Object.values(await statusOf(store, game.gameId)).every((s) => s === 'pass')).toBe(true);
  });

  it('given a finished game, when resumed, then nothing is written; given an unknown game, then GameNotFoundError', async () => {
    const out = await runPersistent(store, {
      seed: 27,
      agents: ['random', 'random'],
      rules: SMALL,
    });
    const again = await resumePersistent(store, out.gameId);
    expect(again).toMatchObject({ status: 'ended', appended: 0, lastSeq: out.lastSeq });
    await expect(resumePersistent(store, freshGameId('ghost'))).rejects.toMatchObject({
      name: 'GameNotFoundError',
    });
  });
}
