import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/agents/builtin/index.js';
import { awaiting, initialState, requestFor, stepInPlace } from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';
import { logicalClock } from '../../src/runner/clock.js';
import {
  actionRecord,
  asDecision,
  sameDecision,
  type Asked,
  type RecordedDecision,
} from '../../src/runner/decision-record.js';
import { resimulate } from '../../src/runner/replay-decisions.js';
import { DivergenceError } from '../../src/runner/runner-errors.js';
import type { ActionRecord } from '../../src/store/index.js';

/** The same JSON with every object's keys reversed: what a jsonb round trip may do to key order. */
const reorder = (x: unknown): unknown =>
  Array.isArray(x)
    ? x.map(reorder)
    : x && typeof x === 'object'
      ? Object.fromEntries(
          Object.entries(x)
            .reverse()
            .map(([k, v]) => [k, reorder(v)]),
        )
      : x;

/**
 * A short game where some answers are bad on purpose (the first intent of plr_2, the first action
 * answer of each seat), recorded the way the persistent runner records them.
 */
function playWithBadAnswers() {
  const config = { game_id: 'game_badanswers', seats: 3, rules: { round_cap: 3 } };
  const state = initialState(config, 7);
  const agents = [0, 1, 2].map((i) => createAgent('random', 7, i));
  const clock = logicalClock();
  const start = clock();
  const events: GameEvent[] = [];
  const records: ActionRecord[] = [];
  const started = stepInPlace(state, { type: 'start', ts: start });
  if (!started.ok) throw new Error('start refused');
  events.push(...started.events);
  const spoiled = new Set<string>();
  for (let next = awaiting(state); next; next = awaiting(state)) {
    const seat = next.seats[0]!;
    const asked: Asked = {
      seq_before: state.seq,
      turn: state.turn,
      phase: state.phase,
      window: next.window,
      player_id: seat,
      attempt: (state.window?.rejections ?? 0) + 1,
    };
    const key = `${next.window}:${seat}`;
    const bad =
      !spoiled.has(key) &&
      ((next.window === 'intent' && seat === 'plr_2') || next.window === 'action');
    if (bad) spoiled.add(key);
    const raw = bad
      ? next.window === 'intent'
        ? { tactical_intent: 'nonsense', emotional_intent: null }
        : {}
      : agents[Number(seat.slice(4)) - 1]!.decide(requestFor(state, seat));
    const decision = asDecision(raw);
    const ts = clock();
    const res = stepInPlace(state, {
      type: 'decision',
      player_id: seat,
      window: next.window,
      decision,
      ts,
    });
    if (!res.ok) throw new Error(res.rejection.message);
    events.push(...res.events);
    records.push(actionRecord(asked, decision, ts, res.events));
  }
  return { config, start, events, records };
}

describe('decision records', () => {
  const game = playWithBadAnswers();

  it('given refused answers, then their rows are not accepted, carry the engine code and no validated value; the reprompt answer is attempt 2', () => {
    const intent = game.records.find((r) => r.window === 'intent' && r.player_id === 'plr_2')!;
    expect(intent).toMatchObject({
      accepted: false,
      rejection_code: 'intent/invalid',
      validated: null,
      attempt: 1,
    });
    const actions = game.records.filter((r) => r.window === 'action' && r.player_id === 'plr_1');
    expect(actions[0]).toMatchObject({
      accepted: false,
      rejection_code: 'action/invalid',
      validated: null,
      attempt: 1,
    });
    expect(actions[1]).toMatchObject({ attempt: 2 });
    expect(actions[1]!.seq_before).toBeGreaterThan(actions[0]!.seq_before);
  });

  it('given accepted answers, then validated is the answer as the window schema reads it (defaults filled)', () => {
    const talk = game.records.find((r) => r.window === 'talk' && r.accepted)!;
    expect(talk.rejection_code).toBeNull();
    expect(talk.validated).toMatchObject({ schema_version: expect.any(String) as string });
  });

  it('given the records read back with their keys reordered, then re-simulation reproduces the log byte for byte', () => {
    const decisions: RecordedDecision[] = game.records.map((r) => ({
      seq_before: r.seq_before,
      player_id: r.player_id,
      attempt: r.attempt ?? 1,
      window: r.window,
      raw: reorder(JSON.parse(JSON.stringify(r.raw))),
      ts: r.ts,
    }));
    const { events } = resimulate(7, game.config, game.start, decisions);
    expect(JSON.stringify(events)).toBe(JSON.stringify(game.events));
  });

  it('given decisions out of order or without a start, then re-simulation is a DivergenceError', () => {
    const decisions: RecordedDecision[] = game.records.map((r) => ({
      ...r,
      attempt: r.attempt ?? 1,
    }));
    const swapped = [decisions[1]!, decisions[0]!, ...decisions.slice(2)];
    expect(() => resimulate(7, game.config, game.start, swapped)).toThrow(DivergenceError);
    expect(() => resimulate(7, game.config, undefined, decisions)).toThrow(/never started/);
  });

  it('asDecision: plain JSON in canonical key order; nothing JSON cannot hold', () => {
    expect(JSON.stringify(asDecision({ b: 1, a: { d: [2, undefined], c: NaN } }))).toBe(
      '{"a":{"c":null,"d":[2,null]},"b":1}',
    );
    expect(asDecision(undefined)).toBeUndefined();
    expect(asDecision(() => 1)).toBeUndefined();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(asDecision(cyclic)).toBeUndefined();
    expect(asDecision(null)).toBeNull();
    expect(sameDecision({ a: 1, b: [1] }, { b: [1], a: 1 })).toBe(true);
    expect(sameDecision(undefined, null)).toBe(false);
  });
});
