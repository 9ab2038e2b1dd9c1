/**
 * A real request of every window (intent, talk, action, reaction, reflect) and the answer a
 * built-in agent gives it, from games played by built-ins: what a careful model would answer,
 * for tests that then make it sloppy.
 */
import { createAgent, type AgentName } from '../../../src/agents/builtin/index.js';
import { awaiting, initialState, requestFor, stepInPlace } from '../../../src/game/index.js';
import type { TurnPlanRequest, Window } from '../../../src/protocol/index.js';

const LINEUP: readonly AgentName[] = ['aggressor', 'manipulator', 'aggressor', 'trickster'];

export type WindowCase = { request: TurnPlanRequest; answer: Record<string, unknown> };

/** The first request of each window (non-compact windows) with a built-in's answer to it. */
export function requestsOfEveryWindow(seed = 7): Map<Window, WindowCase> {
  const out = new Map<Window, WindowCase>();
  for (let s = seed; out.size < 5 && s < seed + 20; s++) {
    const state = initialState({ seats: LINEUP.length }, s);
    const agents = LINEUP.map((name, i) => createAgent(name, s, i));
    const started = stepInPlace(state, { type: 'start' });
    if (!started.ok) throw new Error(started.rejection.message);
    for (let next = awaiting(state); next && out.size < 5; next = awaiting(state)) {
      const seat = next.seats[0]!;
      const request = requestFor(state, seat);
      const decision = agents[Number(seat.slice(4)) - 1]!.decide(request) as Record<string, unknown>;
      // A talk answer that says nothing, or a reaction that takes the hit, tests little: wait for a fuller one.
      const full = next.window === 'talk' ? ((decision['speech_actions'] as unknown[] | undefined)?.length ?? 0) > 0 : next.window === 'reaction' ? decision['card_id'] != null : true;
      if (!out.has(next.window) && full) out.set(next.window, { request: structuredClone(request), answer: structuredClone(decision) });
      const res = stepInPlace(state, { type: 'decision', player_id: seat, window: next.window, decision });
      if (!res.ok) throw new Error(`engine refused ${seat}: ${res.rejection.message}`);
    }
  }
  if (out.size < 5) throw new Error(`found requests of only ${[...out.keys()].join(', ')}`);
  return out;
}

/** snake_case keys → camelCase, at every depth: the commonest way a model drifts from the wire. */
export function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), camelKeys(v)]));
}
