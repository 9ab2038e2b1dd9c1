import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CARD_TYPES } from '../../src/protocol/index.js';
import { seatAgents } from '../../src/runner/lineup.js';
import { MAX_SEED } from '../../src/protocol/index.js';
import { gameAt, simSchedule } from '../../src/runner/sim-schedule.js';
import { playSeated, simulate, SimulationSpec, type SimulationResult } from '../../src/runner/simulate.js';

const timing = ['wallMs', 'eventsPerSec', 'gamesPerSec', 'decisionsPerSec'] as const;
const withoutTiming = (r: SimulationResult) => Object.fromEntries(Object.entries(r).filter(([k]) => !(timing as readonly string[]).includes(k)));

describe('simulate', () => {
  let result: SimulationResult;
  beforeAll(async () => {
    result = await simulate({ games: 6, seed: 11, agents: ['random'] });
  });

  it('reports throughput and figures in range', () => {
    expect(result).toMatchObject({ games: 6, seed: 11, seats: 4, lineup: ['random'], windows: 'full' });
    expect(result.events).toBeGreaterThan(0);
    expect(result.meanEventsPerGame).toBeCloseTo(result.events / 6, 3);
    expect(result.seatWinRate).toHaveLength(4);
    expect(result.medianRounds).toBeGreaterThan(0);
    expect(result.byAgent['random']).toMatchObject({ games: 24 });
    const shares = CARD_TYPES.map((t) => result.cardTypeShare[t] ?? 0);
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);
  });

  it('counts face-down plays by their real type (traps are only ever played face down)', () => {
    expect(result.cardTypeShare.trap).toBeGreaterThan(0);
  });

  it('is deterministic apart from timings', async () => {
    expect(withoutTiming(await simulate({ games: 6, seed: 11, agents: ['random'] }))).toEqual(withoutTiming(result));
    expect((await simulate({ games: 6, seed: 12, agents: ['random'] })).logHash).not.toBe(result.logHash);
  });

  it('hashes every event of every game, in order, as JSON lines', async () => {
    const spec = SimulationSpec.parse({ games: 6, seed: 11, agents: ['random'] });
    const hash = createHash('sha256');
    for (let g = 0; g < 6; g++) for (const e of (await playSeated(spec, g)).run.events) hash.update(`${JSON.stringify(e)}\n`);
    expect(result.logHash).toBe(hash.digest('hex'));
  });

  it('plays game g with seed + g and reports progress per game', async () => {
    const seen: number[] = [];
    await simulate({ games: 3, seed: 40, seats: 2, agents: ['random'], onProgress: (done, total) => seen.push(done * 10 + total) });
    expect(seen).toEqual([13, 23, 33]);
    const spec = SimulationSpec.parse({ games: 3, seed: 40, seats: 2, agents: ['random'] });
    expect((await playSeated(spec, 2)).run.state.seed).toBe(42);
  });

  it('honours rules: compact windows and a lower round cap', async () => {
    const r = await simulate({ games: 2, seed: 1, agents: ['random'], rules: { windows: 'compact', round_cap: 3 } });
    expect(r.windows).toBe('compact');
    expect(r.medianRounds).toBeLessThanOrEqual(3);
    expect(r.roundCapRate).toBe(1);
  });
});

describe('line-up rotation', () => {
  it('seats agent (i + g) mod n in seat i, so every agent sits in every seat', () => {
    expect(seatAgents(['a', 'b', 'c', 'd'], 4, 0)).toEqual(['a', 'b', 'c', 'd']);
    expect(seatAgents(['a', 'b', 'c', 'd'], 4, 1)).toEqual(['b', 'c', 'd', 'a']);
    expect(seatAgents(['a', 'b'], 4, 1)).toEqual(['b', 'a', 'b', 'a']);
    const seats = new Set([0, 1, 2, 3].map((g) => seatAgents(['a', 'b', 'c', 'd'], 4, g)[2]));
    expect(seats.size).toBe(4);
  });
});

describe('every line-up (more agents than seats)', () => {
  const lineup = ['a', 'b', 'c', 'd', 'e'];
  const schedule = simSchedule(5, 4);
  const games = Array.from({ length: 40 }, (_, g) => gameAt(schedule, lineup, 4, 10, g));

  it('plays each deal at every table of 4 in all 4 rotations, with one seed per deal', () => {
    expect(schedule).toMatchObject({ mode: 'every-lineup', gamesPerDeal: 20 });
    expect(games.slice(0, 4).map((x) => x.agents)).toEqual([
      ['a', 'b', 'c', 'd'],
      ['b', 'c', 'd', 'a'],
      ['c', 'd', 'a', 'b'],
      ['d', 'a', 'b', 'c'],
    ]);
    expect(games[4]!.agents).toEqual(['a', 'b', 'c', 'e']);
    expect(games.map((x) => x.seed)).toEqual([...Array(20).fill(10), ...Array(20).fill(11)]);
    // Per deal: every agent in 16 games, in each seat 4 times; every pair at 3 tables × 4 rotations.
    const deal = games.slice(0, 20).map((x) => x.agents);
    for (const agent of lineup) {
      expect(deal.filter((t) => t.includes(agent))).toHaveLength(16);
      for (let seat = 0; seat < 4; seat++) expect(deal.filter((t) => t[seat] === agent)).toHaveLength(4);
    }
    expect(deal.filter((t) => t.includes('a') && t.includes('e'))).toHaveLength(12);
  });

  it('keeps rotating a line-up that fits the table', () => {
    expect(simSchedule(4, 4)).toEqual({ mode: 'rotate' });
    expect(gameAt(simSchedule(2, 4), ['a', 'b'], 4, 3, 1)).toEqual({ agents: ['b', 'a', 'b', 'a'], seed: 4, deal: 1 });
  });

  it('reports per-agent figures and research over the whole schedule', async () => {
    const r = await simulate({ games: 1, seed: 2, seats: 2, agents: ['random', 'balanced', 'turtle'], rules: { windows: 'compact' } });
    expect(r).toMatchObject({ games: 6, mode: 'every-lineup', lineups: 3, deals: 1 });
    for (const name of ['random', 'balanced', 'turtle']) expect(r.byAgent[name]).toMatchObject({ games: 4 });
    expect(r.research.map((a) => a.agent)).toEqual(['balanced', 'random', 'turtle']);
    expect(r.research.every((a) => a.tilt_resilience.manipulated_games + a.tilt_resilience.other_games === 4)).toBe(true);
  });
});

describe('SimulationSpec', () => {
  const issue = (input: unknown) => {
    const r = SimulationSpec.safeParse(input);
    return r.success ? null : { path: r.error.issues[0]?.path.join('.'), message: r.error.issues[0]?.message };
  };

  it('defaults seats to the line-up length (≥ 2) or 4', () => {
    expect(SimulationSpec.parse({ games: 1, seed: 0, agents: ['random', 'random'] }).seats).toBe(2);
    expect(SimulationSpec.parse({ games: 1, seed: 0, agents: ['random'] }).seats).toBe(4);
  });

  it('names the option at fault', () => {
    expect(issue({ games: 0, seed: 1 })).toMatchObject({ path: 'games' });
    expect(issue({ games: 1, seed: -1 })).toMatchObject({ path: 'seed' });
    expect(issue({ games: 1, seed: 1, seats: 7 })).toMatchObject({ path: 'seats', message: 'must be between 2 and 6, got 7' });
    expect(issue({ games: 1, seed: 1, agents: ['nobody'] })).toMatchObject({ path: 'agents' });
    expect(issue({ games: 1, seed: 1, rules: { livez: 3 } })).toMatchObject({ path: 'rules' });
  });

  it('given more agents than seats, then it plays whole deals of every line-up (games round up), and checks the last deal’s seed', () => {
    const spec = SimulationSpec.parse({ games: 1, seed: 1, seats: 2, agents: ['random', 'random', 'random'] });
    expect(spec).toMatchObject({ games: 6, deals: 1, schedule: { mode: 'every-lineup', tables: [[0, 1], [0, 2], [1, 2]], gamesPerDeal: 6 } });
    expect(SimulationSpec.parse({ games: 7, seed: 1, seats: 2, agents: ['a', 'b', 'c'].map(() => 'random') })).toMatchObject({ games: 12, deals: 2 });
    expect(issue({ games: 7, seed: MAX_SEED, seats: 2, agents: ['random', 'random', 'random'] })).toMatchObject({ path: 'seed', message: `must be at most ${MAX_SEED - 1} for 2 deals (deal d is played with seed + d, and seeds end at 2^53 − 1)` });
  });

  it('makes simulate throw on bad options', async () => {
    await expect(simulate({ games: 1, seed: 1, agents: ['nobody'] })).rejects.toThrow(/unknown agent/);
  });
});

describe('seat names', () => {
  it('given an agent seated twice, then its seats are numbered so no name contains another', async () => {
    const { seatConfigs } = await import('../../src/runner/lineup.js');
    expect(seatConfigs(['balanced', 'random', 'balanced']).map((s) => s.display_name)).toEqual(['balanced 1', 'random', 'balanced 2']);
  });
});
