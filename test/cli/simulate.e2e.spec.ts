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
    [['--agents', 'random,random,random', '--seats', '2'], /--agents/],
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
