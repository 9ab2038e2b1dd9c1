import { describe, expect, it } from 'vitest';
import { CARD_TYPES } from '../../src/protocol/index.js';
import { tiltyardInProcess } from './in-process.js';
import { tiltyard } from './run-cli.js';

const share = (x: unknown) => expect(x === null || (typeof x === 'number' && x >= 0 && x <= 1)).toBe(true);

describe('tiltyard simulate', () => {
  it('--json prints exactly one JSON object with every figure, sane', async () => {
    const run = await tiltyard('simulate', '--games', '8', '--seed', '7', '--agents', 'random', '--json');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const r = JSON.parse(run.stdout) as Record<string, unknown> & {
      seatWinRate: number[];
      cardTypeShare: Record<string, number>;
      byAgent: Record<string, { games: number; wins: number; meanPlacement: number }>;
      emotionCoupling: Record<string, unknown>;
    };
    expect(r).toMatchObject({ games: 8, seed: 7, seats: 4, lineup: ['random'] });
    for (const k of ['events', 'decisions', 'wallMs', 'eventsPerSec', 'gamesPerSec']) expect(r[k]).toBeGreaterThan(0);
    expect(r.logHash).toMatch(/^[0-9a-f]{64}$/);
    expect(r.seatWinRate).toHaveLength(4);
    r.seatWinRate.forEach(share);
    // Every game has at least one winner (ties share first place).
    expect(r.seatWinRate.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1 - 1e-9);
    expect(r.medianRounds).toBeGreaterThanOrEqual(1);
    expect(r.medianRounds).toBeLessThanOrEqual(30);
    for (const k of ['roundCapRate', 'manipulationSuccessRate', 'slipRate', 'rejectionRate']) share(r[k]);
    expect(Object.keys(r.cardTypeShare).sort()).toEqual([...CARD_TYPES].sort());
    expect(Object.values(r.cardTypeShare).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
    expect(r.byAgent['random']).toMatchObject({ games: 32 });
    expect(r.byAgent['random']!.meanPlacement).toBeGreaterThanOrEqual(1);
    expect(r.emotionCoupling).toEqual({ highFear: null, lowFear: null, highFearSamples: 0, lowFearSamples: 0 });
  });

  it('is deterministic: the same seed gives the same logHash, another seed another', async () => {
    const [a, b, c] = await Promise.all(
      ['3', '3', '4'].map((seed) => tiltyard('simulate', '--games', '3', '--seed', seed, '--json')),
    );
    const hash = (r: { stdout: string }) => (JSON.parse(r.stdout) as { logHash: string }).logHash;
    expect(hash(a!)).toBe(hash(b!));
    expect(hash(a!)).not.toBe(hash(c!));
  });

  it('prints a readable summary without --json, and no progress bar into a pipe', async () => {
    const run = await tiltyard('simulate', '--games', '3', '--seed', '1', '--seats', '3');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Tiltyard simulation: 3 games, seeds 1–3, 3 seats');
    expect(run.stdout).toMatch(/log hash +[0-9a-f]{64}/);
    expect(run.stdout).toContain('By agent');
  });

  it('given more agents than seats, then it plays every line-up in every rotation per seed and reports each agent', async () => {
    const run = await tiltyard('simulate', '--agents', 'random,balanced,aggressor,turtle,trickster', '--seats', '4', '--games', '20', '--seed', '3', '--compact', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    type Agent = { games: number; wins: number; winRate: number; meanPlacement: number };
    const r = JSON.parse(run.stdout) as { games: number; mode: string; lineups: number; deals: number; seats: number; byAgent: Record<string, Agent>; research: Array<{ agent: string; manipulation_given: { attempts: number }; tilt_resilience: { manipulated_games: number; other_games: number } }> };
    // 5 tables of 4 (every combination) × 4 rotations, one deal: each agent at 4 tables, 16 games.
    expect(r).toMatchObject({ games: 20, mode: 'every-lineup', lineups: 5, deals: 1, seats: 4 });
    for (const name of ['random', 'balanced', 'aggressor', 'turtle', 'trickster']) {
      expect(r.byAgent[name]).toMatchObject({ games: 16 });
      expect(r.byAgent[name]!.meanPlacement).toBeGreaterThanOrEqual(1);
    }
    expect(Object.values(r.byAgent).reduce((n, a) => n + a.wins, 0)).toBeGreaterThanOrEqual(20);
    expect(r.research.map((a) => a.agent)).toEqual(['aggressor', 'balanced', 'random', 'trickster', 'turtle']);
    for (const a of r.research) expect(a.tilt_resilience.manipulated_games + a.tilt_resilience.other_games).toBe(16);
    // The text names the schedule; a single game (play) still refuses more agents than seats.
    const text = await tiltyardInProcess({}, 'simulate', '--agents', 'random,balanced,turtle', '--seats', '2', '--games', '1', '--compact');
    expect(text.stdout).toContain('Tiltyard simulation: 6 games, seeds 1–1, 2 seats, compact windows');
    expect(text.stdout).toContain('every 2 of them (3 tables), each table in all 2 seat rotations on each of 1 deal (6 games a deal)');
    expect(text.stdout).toMatch(/manipulates \(success\)/);
    const play = await tiltyardInProcess({}, 'play', '--agents', 'random,balanced,turtle', '--seats', '2');
    expect(play.code).toBe(2);
    expect(play.stderr).toBe('tiltyard: --agents: names 3 agents for 2 seats (one game seats 2; tiltyard simulate plays every line-up of more)\n');
  }, 300_000);

  // The first row in a spawned process, the others in the test process (the same flag checks,
  // without a node start each).
  it.each(([
    [['--games', '0'], /--games/],
    [['--games', 'ten'], /--games/],
    [['--seed', 'x'], /--seed/],
    [['--seed=-1'], /--seed/],
    [['--seed', '-1'], /--seed/],
    [['--seats', '7'], /--seats/],
    [['--seats', '1'], /--seats/],
    [['--agents', 'random,nobody'], /unknown agent "nobody"/],
    [['--agents', 'random,balanced,turtle', '--seats', '2', '--seed', '9007199254740991', '--games', '7'], /^tiltyard: --seed: must be at most 9007199254740990 for 2 deals/],
    [['--rules-file', '/does/not/exist.json'], /--rules-file/],
    [['--frobnicate'], /unknown flag --frobnicate/],
    [['stray'], /unexpected argument/],
  ] as Array<[string[], RegExp]>).map(([args, reason], i) => [args, reason, i === 0 ? tiltyard : (...a: string[]) => tiltyardInProcess({}, ...a)] as const))('rejects %j with exit 2 and one line', async (args, reason, tiltyardBy) => {
    const run = await tiltyardBy('simulate', ...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^tiltyard: [^\n]+\n$/);
    expect(run.stderr).toMatch(reason);
  });
});

describe('tiltyard', () => {
  it('prints usage with --help or no command, and refuses unknown commands', async () => {
    for (const args of [[], ['--help']]) {
      const run = await tiltyard(...args);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Usage: tiltyard <command>/);
      expect(run.stdout).toContain('simulate');
    }
    const help = await tiltyard('simulate', '--help');
    expect(help.stdout).toMatch(/^Usage: tiltyard simulate/);
    const bad = await tiltyard('frobnicate');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^tiltyard: unknown command "frobnicate"[^\n]*\n$/);
  });
});
