import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../../../src/agents/runtime/in-process.js';
import { externalSeat, type Attempt } from '../../../src/agents/seat/external-seat.js';
import type { DecisionTrace } from '../../../src/agents/seat/types.js';
import { loadSkill } from '../../../src/agents/skills/load-skill.js';
import type { ToolInput } from '../../../src/protocol/index.js';
import { buildSeats, seatConfigs } from '../../../src/runner/lineup.js';
import { playGame } from '../../../src/runner/play-game.js';

/**
 * What docs/agents.md says of `__proto__` in memory, through the real seat: the agent's NDJSON
 * lines are parsed from text (so `__proto__` is an own key, as from any agent's stdout), merged
 * and handed back as the next request's memory.
 */
describe('__proto__, constructor and prototype in an agent memory', () => {
  it('a top-level __proto__ key is dropped, deeper ones are kept as data; constructor and prototype are ordinary keys; no prototype changes', async () => {
    const line = '{"version":"0","type":"state_patch","patch":{"memory":{"__proto__":{"polluted":true},"kept":{"__proto__":{"polluted":true},"constructor":{"prototype":1},"n":1},"constructor":"c","prototype":"p"}}}';
    const loaded = loadSkill(resolve('skills/python-example'));
    if (!loaded.ok) throw new Error(loaded.message);
    const seen: unknown[] = [];
    const seat = externalSeat(loaded.skill, 'proto', { gameSeed: 1, seat: 0, trace: true }, async (request): Promise<Attempt> => {
      seen.push(request.player_private_view.memory_state.agent);
      const input: ToolInput = { requestId: request.request_id, tool: 'proto', operation: request.window, input: request };
      const outcome = await runInProcess(() => [JSON.parse(line) as unknown, { version: '0', type: 'done', ok: true }], input, {});
      return { ok: outcome.ok, failure: outcome.failure, state: outcome.state, retries: 0, latencyMs: outcome.durationMs, deadlineMs: 1_000, uiEvents: outcome.uiEvents, tokens: 0, costUsd: 0 };
    });
    const traces: DecisionTrace[] = [];
    const seats = [seat, ...buildSeats(['random'], 1)];
    await playGame({ seats: seatConfigs(['random', 'random']), rules: { round_cap: 1 } }, 1, seats, {
      onDecision: (i, a) => {
        if (i === 0 && a.trace) traces.push(a.trace);
      },
    });
    await Promise.all(seats.map((s) => s.close()));
    const memory = seen.at(-1) as Record<string, unknown>;
    // JSON.stringify writes own __proto__ keys as data: what the next request's line carries.
    expect(JSON.stringify(memory)).toBe('{"kept":{"__proto__":{"polluted":true},"constructor":{"prototype":1},"n":1},"constructor":"c","prototype":"p"}');
    expect(Object.hasOwn(memory, '__proto__')).toBe(false);
    expect(Object.hasOwn(memory['kept'] as object, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(memory['kept'])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(traces.length).toBeGreaterThan(1);
  });
});
