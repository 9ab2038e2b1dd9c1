import { describe, expect, it } from 'vitest';
import { commandSeat } from '../../../src/agents/seat/command-seat.js';
import type { DecisionTrace } from '../../../src/agents/seat/types.js';
import { loadSkill, type Skill } from '../../../src/agents/skills/load-skill.js';
import { buildSeats, seatConfigs } from '../../../src/runner/lineup.js';
import { playGame } from '../../../src/runner/play-game.js';

function longLived(config: Record<string, unknown> = {}): Skill {
  const r = loadSkill('test/agents/fixtures/skills/long-lived');
  if (!r.ok) throw new Error(r.message);
  return { ...r.skill, config: { values: config, secrets: [] } };
}

/** Plays a short game with the fixture in seat 1 and returns its traces. */
async function play(skill: Skill, seed: number) {
  const [, ...others] = buildSeats(['random', 'random', 'random'], seed);
  const seat = commandSeat(skill, 'skill:long-lived', { gameSeed: seed, seat: 0, trace: true });
  const traces: DecisionTrace[] = [];
  try {
    const run = await playGame({ seats: seatConfigs(['random', 'random', 'random']), rules: { round_cap: 2 } }, seed, [seat, ...others], {
      onDecision: (i, a) => {
        if (i === 0 && a.trace) traces.push(a.trace);
      },
    });
    return { run, traces };
  } finally {
    await Promise.all([seat, ...others].map((s) => s.close()));
  }
}

/** Which agent process answered (the fixture's own id for itself: pids repeat across sandboxes). */
const pidOf = (t: DecisionTrace): unknown => {
  const observe = t.stages.find((s) => s.stage === 'observe')?.payload as { logs?: Array<{ fields?: { instance?: string } }> } | undefined;
  return observe?.logs?.[0]?.fields?.instance;
};

describe('persistent (long-lived) agents', () => {
  it('given mode persistent, then one process answers every request of the seat, each correlated by requestId', async () => {
    const { run, traces } = await play(longLived(), 11);
    expect(run.state.status).toBe('done');
    expect(traces.length).toBeGreaterThan(5);
    expect(traces.every((t) => t.ok)).toBe(true);
    expect(new Set(traces.map(pidOf)).size).toBe(1);
    expect(traces.map((t) => t.memory['served'])).toEqual(traces.map((_, i) => i + 1));
  });

  it('given a request it never answers, then that request times out and the next one gets a fresh process', async () => {
    const { traces } = await play(longLived({ misbehave_at: 2, misbehave_how: 'hang' }), 12);
    expect(traces[1]!.failure?.code).toBe('process/timeout');
    expect(traces[2]!.ok).toBe(true);
    expect(pidOf(traces[2]!)).not.toBe(pidOf(traces[0]!));
    expect(traces[2]!.memory["served"]).toBe(1); // a new process starts counting again
  });

  it('given a process that exits mid-request, then that request fails with the exit and the next one respawns', async () => {
    const { traces } = await play(longLived({ misbehave_at: 3, misbehave_how: 'exit' }), 13);
    expect(traces[2]!.failure?.code).toBe('protocol/exit_code');
    expect(traces[3]!.ok).toBe(true);
  });

  it('given an event for another requestId, then it is a violation and ignored, and the request still completes', async () => {
    const { traces } = await play(longLived({ misbehave_at: 1, misbehave_how: 'wrong_id' }), 14);
    const observe = traces[0]!.stages.find((s) => s.stage === 'observe')?.payload as { violations: Array<{ code: string }> };
    expect(traces[0]!.ok).toBe(true);
    expect(observe.violations.map((v) => v.code)).toContain('persistent/uncorrelated');
  });
});
