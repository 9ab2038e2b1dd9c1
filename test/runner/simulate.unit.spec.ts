import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CARD_TYPES } from '../../src/protocol/index.js';
import { seatAgents } from '../../src/runner/lineup.js';
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
    expect(issue({ games: 1, seed: 1, seats: 2, agents: ['random', 'random', 'random'] })).toMatchObject({ path: 'agents' });
    expect(issue({ games: 1, seed: 1, rules: { livez: 3 } })).toMatchObject({ path: 'rules' });
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
