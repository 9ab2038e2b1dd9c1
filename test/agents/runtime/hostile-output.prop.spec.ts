import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../../../src/agents/runtime/in-process.js';
import { externalSeat, type Attempt } from '../../../src/agents/seat/external-seat.js';
import type { DecisionTrace, SeatAgent } from '../../../src/agents/seat/types.js';
import { loadSkill } from '../../../src/agents/skills/load-skill.js';
import { MAX_JSON_DEPTH, type ToolInput } from '../../../src/protocol/index.js';
import { buildSeats, seatConfigs } from '../../../src/runner/lineup.js';
import { playGame } from '../../../src/runner/play-game.js';
import { extractJson } from '../../../src/providers/json-extract.js';

/** Where the deep value goes in what the agent sends. */
const PLACES = ['patch', 'decision', 'memory', 'other_key', 'log_fields', 'ui_payload'] as const;
type Place = (typeof PLACES)[number];

/** A value `depth` levels deep, each level an object or an array as `pattern` cycles; built iteratively. */
function deepValue(depth: number, pattern: readonly ('o' | 'a')[], leaf: unknown): unknown {
  let v: unknown = leaf;
  for (let i = depth - 1; i >= 0; i--) v = pattern[i % pattern.length] === 'o' ? { k: v } : [v];
  return v;
}

/** The events an agent sends with `deep` at `place`, then done. */
function hostileEvents(place: Place, deep: unknown): unknown[] {
  const asObject = deep !== null && typeof deep === 'object' && !Array.isArray(deep) ? deep : { k: deep };
  const first: Record<Place, unknown> = {
    patch: { version: '0', type: 'state_patch', patch: asObject },
    decision: { version: '0', type: 'state_patch', patch: { decision: deep } },
    memory: { version: '0', type: 'state_patch', patch: { decision: { action: 'pass' }, memory: asObject } },
    other_key: { version: '0', type: 'state_patch', patch: { scratch: deep } },
    log_fields: { version: '0', type: 'log', level: 'info', message: 'm', fields: { deep } },
    ui_payload: { version: '0', type: 'ui_event', event: 'emote', payload: { deep } },
  };
  return [first[place], { version: '0', type: 'done', ok: true }];
}

/** The levels the runtime sees: the event object and its wrappers count too (an array as patch or memory gets a {k:} around it). */
const levelsSeen = (place: Place, depth: number, top: 'o' | 'a'): number => depth + (place === 'patch' ? 1 : 2) + ((place === 'patch' || place === 'memory') && top === 'a' ? 1 : 0);

const python = resolve('skills/python-example');

/** A seat of the real external-seat code (memory, health, fallback, traces) whose agent runs in-process. */
function hostileSeat(events: unknown[], seat: number): SeatAgent {
  const loaded = loadSkill(python);
  if (!loaded.ok) throw new Error(loaded.message);
  return externalSeat(loaded.skill, 'hostile', { gameSeed: 1, seat, trace: true }, async (request): Promise<Attempt> => {
    const input: ToolInput = { requestId: request.request_id, tool: 'hostile', operation: request.window, input: request };
    const outcome = await runInProcess(() => events, input, {});
    return { ok: outcome.ok, failure: outcome.failure, state: outcome.state, retries: 0, latencyMs: outcome.durationMs, deadlineMs: 1_000, uiEvents: outcome.uiEvents, tokens: 0, costUsd: 0 };
  });
}

describe('agent output of any shape and depth', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('given an agent sending values up to 100,000 levels deep (objects and arrays, as patch, decision, memory, log or ui payload), then nothing throws out of the runtime, the game ends, and past the bound the trace names the limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          depth: fc.oneof(fc.integer({ min: 1, max: MAX_JSON_DEPTH + 4 }), fc.integer({ min: MAX_JSON_DEPTH + 5, max: 100_000 })),
          pattern: fc.array(fc.constantFrom<'o' | 'a'>('o', 'a'), { minLength: 1, maxLength: 6 }),
          place: fc.constantFrom(...PLACES),
          leaf: fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.boolean(), fc.constant(null)),
          seed: fc.integer({ min: 1, max: 1_000 }),
        }),
        async ({ depth, pattern, place, leaf, seed }) => {
          const deep = deepValue(depth, pattern, leaf);
          const seats = [hostileSeat(hostileEvents(place, deep), 0), ...buildSeats(['random'], seed, { trace: true })];
          const traces: DecisionTrace[] = [];
          const run = await playGame({ seats: seatConfigs(['random', 'random']), rules: { round_cap: 2 } }, seed, seats, {
            onDecision: (i, a) => {
              if (i === 0 && a.trace) traces.push(a.trace);
            },
          });
          await Promise.all(seats.map((s) => s.close()));
          expect(run.state.status).toBe('done');
          expect(traces.length).toBeGreaterThan(0);
          const bounded = (t: DecisionTrace) => t.failure?.code === 'protocol/too_deep' || t.failure?.code === 'protocol/too_large';
          if (levelsSeen(place, depth, pattern[0]!) > MAX_JSON_DEPTH) {
            // The agent's own answers (before its fallback agent took the seat) all name the bound.
            expect(traces[0]!.failure).toEqual({ code: 'protocol/too_deep', message: `event 1 refused: nesting deeper than ${MAX_JSON_DEPTH} levels` });
            expect(traces.every((t) => t.failure === null || t.failure.code === 'protocol/too_deep')).toBe(true);
          } else {
            expect(traces.some(bounded)).toBe(false);
          }
          // Whatever it sent, memory stayed bounded and serialisable.
          for (const t of traces) expect(JSON.stringify(t.memory).length).toBeLessThanOrEqual(64 * 1024);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('given an LLM reply holding 100,000 levels of JSON, then extraction refuses it naming the limit instead of passing it on', () => {
    const n = 100_000;
    for (const text of ['{"decision":' + '['.repeat(n) + ']'.repeat(n) + '}', 'Here:\n```json\n' + '{"a":'.repeat(n) + '1' + '}'.repeat(n) + '\n```']) {
      const out = extractJson(text);
      expect(out.ok).toBe(false);
      if (!out.ok) expect(out.reason).toMatch(/protocol\/too_deep: nesting deeper than 64 levels/);
    }
  });

  it('given a real subprocess agent that prints a 100,000-level state_patch every time, then the game ends, its traces name the limit, and its fallback takes over', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tiltyard-deep-'));
    dirs.push(root);
    const dir = join(root, 'deep-agent');
    mkdirSync(join(dir, 'scripts'), { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), '---\nname: deep-agent\ndescription: sends a patch nested 100,000 levels deep\nmetadata:\n  command: sh scripts/agent.sh\n  fallback: random\n  timeout_ms: "60000"\n---\n');
    writeFileSync(
      join(dir, 'scripts', 'agent.sh'),
      `#!/bin/sh\ncat > /dev/null\nawk 'BEGIN { n = 100000; printf "{\\"version\\":\\"0\\",\\"type\\":\\"state_patch\\",\\"patch\\":"; for (i = 0; i < n; i++) printf "{\\"a\\":"; printf "1"; for (i = 0; i < n; i++) printf "}"; print "}"; print "{\\"version\\":\\"0\\",\\"type\\":\\"done\\",\\"ok\\":true}" }'\n`,
    );
    chmodSync(join(dir, 'scripts', 'agent.sh'), 0o755);
    const lineup = [`skill:${dir}`, 'random'];
    const seats = buildSeats(lineup, 3, { trace: true, workRoot: root });
    const traces: DecisionTrace[] = [];
    try {
      const run = await playGame({ seats: seatConfigs(lineup), rules: { round_cap: 2 } }, 3, seats, {
        onDecision: (i, a) => {
          if (i === 0 && a.trace) traces.push(a.trace);
        },
      });
      expect(run.state.status).toBe('done');
    } finally {
      await Promise.all(seats.map((s) => s.close()));
    }
    expect(traces[0]!.failure).toEqual({ code: 'protocol/too_deep', message: `event 1 refused: nesting deeper than ${MAX_JSON_DEPTH} levels` });
    expect(traces.filter((t) => t.failure?.code === 'protocol/too_deep').length).toBe(3);
    expect(traces.at(-1)!.fallback).toBe('agent:random');
  });
});
