import { describe, expect, it } from 'vitest';
import type { DecisionTrace } from '../../../src/agents/seat/types.js';
import { buildSeats, seatConfigs } from '../../../src/runner/lineup.js';
import { playGame } from '../../../src/runner/play-game.js';
import { simulate } from '../../../src/runner/simulate.js';

const FIX = 'skill:test/agents/fixtures/skills';

/** Plays one traced game and returns its run with every trace of seat 0. */
async function traced(lineup: string[], seed: number, env?: Record<string, string>) {
  const seats = buildSeats(lineup, seed, { trace: true, ...(env ? { env } : {}) }, env ? { env } : undefined);
  const traces: DecisionTrace[] = [];
  try {
    const run = await playGame({ seats: seatConfigs(lineup, env ? { env } : undefined), rules: { round_cap: 3 } }, seed, seats, {
      onDecision: (seat, answer) => {
        if (seat === 0 && answer.trace) traces.push(answer.trace);
      },
    });
    return { run, traces };
  } finally {
    await Promise.all(seats.map((s) => s.close()));
  }
}

describe('a command skill at the table', () => {
  it('given a skill that counts its calls in memory, then each call sees the memory the last one left, and its usage is summed into the trace', async () => {
    const { run, traces } = await traced([`${FIX}/counter`, 'random', 'random'], 5);
    expect(run.state.status).toBe('done');
    expect(traces.length).toBeGreaterThan(5);
    expect(traces.map((t) => t.memory['calls'])).toEqual(traces.map((_, i) => i + 1));
    expect(traces.every((t) => t.ok && t.failure === null && t.validation.length === 0)).toBe(true);
    const final = traces[0]!.stages.find((s) => s.stage === 'final');
    expect(final?.metrics).toMatchObject({ tokens: 15, cost_usd: 0.001 });
    // Its answers hold nulls (emotional_intent, card_id): merged patches keep them, so nothing was rejected.
    expect(run.events.filter((e) => e.type === 'action_rejected' && e.payload.player_id === 'plr_1')).toEqual([]);
    expect(run.events.some((e) => e.type === 'secret_plan_committed' && e.payload.player_id === 'plr_1' && e.payload.defaulted)).toBe(false);
  });

  it('given a skill that exits 1, then the engine reprompts and passes, and after three failures the fallback agent takes the seat', async () => {
    const { run, traces } = await traced([`${FIX}/crasher`, 'random', 'random'], 6);
    expect(run.state.status).toBe('done');
    expect(traces.slice(0, 3).map((t) => [t.failure?.code, t.fallback])).toEqual([
      ['protocol/exit_code', 'engine'],
      ['protocol/exit_code', 'engine'],
      ['protocol/exit_code', 'engine'],
    ]);
    expect(traces[2]!.health).toBe('permanentFailure');
    expect(traces.slice(3).every((t) => t.fallback === 'agent:random')).toBe(true);
    expect(run.events.some((e) => e.type === 'action_rejected' && e.payload.player_id === 'plr_1')).toBe(true);
  });

  it('given a skill with a sensitive config value it leaks, then no trace holds the value and the server environment never reaches it', async () => {
    const secret = 'sk-test-0123456789';
    process.env['DATABASE_URL'] = 'postgres://admin:hunter2@db/prod';
    try {
      const { traces } = await traced([`${FIX}/secretive`, 'random'], 7, { TILTYARD_FIXTURE_KEY: secret });
      const text = JSON.stringify(traces);
      expect(traces.length).toBeGreaterThan(0);
      expect(text).not.toContain(secret);
      expect(text).toContain('using key ***');
      expect(text).not.toContain('hunter2');
    } finally {
      delete process.env['DATABASE_URL'];
    }
  });

  it('given a lineup with a skill, then simulate is deterministic and reports the skill by its spec', async () => {
    const opts = { games: 2, seed: 3, agents: [`${FIX}/counter`, 'balanced', 'random'], rules: { round_cap: 4 } };
    const a = await simulate(opts);
    const b = await simulate(opts);
    expect(a.logHash).toBe(b.logHash);
    expect(a.byAgent[`${FIX}/counter`]).toMatchObject({ games: 2, rejections: 0, attacks: 0 });
  });
});
