import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initialState, stepInPlace } from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';
import { inMemoryRuns, playRuns } from '../../src/research/counterfactual.js';
import { counterfactualReport } from '../../src/research/counterfactual-report.js';
import { chainHead, renamedJson, seatSeed } from '../../src/research/fork-lineage.js';
import { forkPoint } from '../../src/research/fork-point.js';
import { planFork, replayWithFork, warmSeats, type ParentGame } from '../../src/research/fork-replay.js';
import { outcomeOf } from '../../src/research/outcome.js';
import { playOn } from '../../src/research/play-on.js';
import type { RecordedDecision } from '../../src/runner/decision-record.js';
import { LOGICAL_EPOCH } from '../../src/runner/input-clock.js';
import { buildSeats, seatConfigs } from '../../src/runner/lineup.js';

// Cheap built-ins only (expert's rollouts would blow the file's CPU budget).
const AGENTS = ['balanced', 'aggressor', 'turtle', 'random', 'trickster'] as const;

/** A parent game played in memory as a persistent runner with the logical clock would store it. */
async function parentGame(seed: number, agents: readonly string[]): Promise<ParentGame> {
  const game_id = `game_p${seed}`;
  const config = { game_id, seats: seatConfigs(agents), rules: { windows: 'compact' as const } };
  const state = initialState(config, seed);
  const started = stepInPlace(state, { type: 'start', ts: LOGICAL_EPOCH });
  if (!started.ok) throw new Error('start refused');
  const decisions: RecordedDecision[] = [];
  const seats = buildSeats(agents, seed, { trace: false });
  const log = [...started.events, ...(await playOn(state, seats, LOGICAL_EPOCH, undefined, (d) => decisions.push(d)))];
  return { game_id, seed, config, log, decisions };
}

const sameAs = (mine: readonly GameEvent[], forkId: string, parent: readonly GameEvent[]) =>
  mine.map((e) => renamedJson(e, forkId, parent[0]!.game_id));

const arbGame = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  agents: fc.array(fc.constantFrom(...AGENTS), { minLength: 2, maxLength: 4 }),
  /** Where to fork, as a fraction of the log. */
  at: fc.double({ min: 0, max: 0.95, noNaN: true }),
});

describe('fork (in memory)', () => {
  it("a fork's prefix is the parent's log byte for byte, read under the parent's id, and chains to its hash; a secret adds its reseed after it", async () => {
    await fc.assert(
      fc.asyncProperty(arbGame, fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: undefined }), async ({ seed, agents, at }, secret) => {
        const parent = await parentGame(seed, agents);
        const seq = forkPoint({ seq: Math.floor(at * parent.log.length) }, parent.log, parent.decisions)!;
        const plan = planFork(parent, 'game_f1', seq, secret);
        const shared = parent.log.slice(0, seq);
        expect(sameAs(plan.events.slice(0, seq), 'game_f1', parent.log)).toEqual(shared.map((e) => JSON.stringify(e)));
        expect(plan.events.slice(seq).map((e) => e.type)).toEqual(secret === undefined ? [] : ['hidden_reseeded']);
        expect(plan.events.every((e) => e.game_id === 'game_f1')).toBe(true);
        expect(plan.lineage).toEqual({ parent_game_id: parent.game_id, seq, parent_hash: chainHead(shared), ...(secret !== undefined ? { secret } : {}) });
      }),
      { numRuns: 4 },
    );
  });

  it('a reseeded fork played on re-simulates byte for byte from the seed, its decisions and its secret; the same secret plays it again', async () => {
    await fc.assert(
      fc.asyncProperty(arbGame, fc.integer({ min: -1000, max: 1000 }), async ({ seed, agents, at }, secret) => {
        const parent = await parentGame(seed, agents);
        const seq = forkPoint({ seq: Math.floor(at * parent.log.length) }, parent.log, parent.decisions)!;
        const play = async () => {
          const plan = planFork(parent, 'game_f3', seq, secret);
          const seats = buildSeats(agents, seatSeed(seed, plan.lineage), { trace: false });
          await warmSeats(seats, plan.asked);
          const own: RecordedDecision[] = [];
          const rest = await playOn(plan.state, seats, plan.lastTs, undefined, (d) => own.push(d));
          return { log: [...plan.events, ...rest], decisions: [...plan.prefix, ...own], lineage: plan.lineage };
        };
        const [a, b] = [await play(), await play()];
        expect(JSON.stringify(b.log)).toBe(JSON.stringify(a.log));
        const replayed = replayWithFork(initialState({ ...parent.config, game_id: 'game_f3' }, seed), a.log[0]!.ts, a.decisions, a.lineage);
        expect(JSON.stringify(replayed)).toBe(JSON.stringify(a.log));
      }),
      { numRuns: 3 },
    );
  });

  it('a fork with the same agents that keeps the deck (no secret) plays the parent again exactly', async () => {
    await fc.assert(
      fc.asyncProperty(arbGame, async ({ seed, agents, at }) => {
        const parent = await parentGame(seed, agents);
        const seq = forkPoint({ seq: Math.floor(at * parent.log.length) }, parent.log, parent.decisions)!;
        const plan = planFork(parent, 'game_f2', seq);
        const seats = buildSeats(agents, seed, { trace: false });
        await warmSeats(seats, plan.asked);
        const rest = await playOn(plan.state, seats, plan.lastTs);
        expect(sameAs([...plan.events, ...rest], 'game_f2', parent.log)).toEqual(parent.log.map((e) => JSON.stringify(e)));
      }),
      { numRuns: 4 },
    );
  });

  it('counterfactual runs with the same seeds give identical reports', async () => {
    await fc.assert(
      fc.asyncProperty(arbGame, fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 4 }), async ({ seed, agents, at }, reseedFrom, concurrency) => {
        const parent = await parentGame(seed, agents);
        const seq = forkPoint({ seq: Math.floor(at * parent.log.length) }, parent.log, parent.decisions)!;
        const report = async (c: number) => {
          const plan = planFork(parent, 'game_cf', seq);
          const results = await playRuns(inMemoryRuns(plan, agents), 3, reseedFrom, c);
          return counterfactualReport({ parent_game_id: parent.game_id, at: { seq, round: plan.state.turn }, agents: [...agents], runs: 3, reseed_from: reseedFrom }, outcomeOf(parent.log), results);
        };
        const [a, b] = [await report(concurrency), await report(1)];
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        expect(a.results.map((r) => r.reseed)).toEqual([reseedFrom, reseedFrom + 1, reseedFrom + 2]);
        for (const s of a.seats) expect(s.placements.reduce((x, y) => x + y, 0)).toBe(3);
      }),
      { numRuns: 3 },
    );
  });
});
