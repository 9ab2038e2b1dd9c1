import { describe, expect, it } from 'vitest';
import {
  AttackPlan,
  GameEvent,
  SecretPlan,
  TurnPlanRequest,
  TurnPlanResponse,
  WorldState,
  parseWith,
  permissive,
} from '../../src/protocol/index.js';
import { initialState, requestFor, stepInPlace, viewEvent, worldView } from '../../src/game/index.js';

const plan = {
  kinetic_intent: 'tempo_swing',
  emotional_intent: 'fear',
  manipulation_plan: 'threat_framing',
  delivery_channel: 'public',
  target_player_id: 'plr_2',
  expected_behavior_shift: 'defensive: they will turtle',
  confidence: 0.7,
};

describe('protocol enums', () => {
  it('given an unknown enum value, when parsed strictly, then it is rejected with the path', () => {
    const r = parseWith(AttackPlan, { ...plan, emotional_intent: 'envy' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('emotional_intent');
  });

  it('given an unknown enum value, when the permissive option is set, then it passes through', () => {
    const r = parseWith(AttackPlan, { ...plan, emotional_intent: 'envy' }, { permissive: true });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.emotional_intent).toBe('envy');
  });

  it('permissive still checks everything that is not an enum', () => {
    expect(parseWith(AttackPlan, { ...plan, confidence: 2 }, { permissive: true }).ok).toBe(false);
    expect(parseWith(AttackPlan, { ...plan, target_player_id: 'bob' }, { permissive: true }).ok).toBe(false);
  });

  it('permissive reaches enums nested in nullable objects and arrays', () => {
    const r = parseWith(SecretPlan, { tactical_intent: 'sulk', emotional_intent: { emotion: 'envy', target_player_id: 'plr_1' } }, { permissive: true });
    expect(r.ok).toBe(true);
    expect(permissive(SecretPlan)).toBe(permissive(SecretPlan));
  });
});

describe('agent answers', () => {
  it('a TurnPlanResponse needs only the selected action; the rest defaults', () => {
    const r = TurnPlanResponse.parse({ selected_action: { kind: 'pass' } });
    expect(r).toMatchObject({ attack_plan: null, speech_actions: [], confidence: 0.5, schema_version: '1.0' });
  });

  it('speech over 500 characters is rejected, not truncated', () => {
    const speech = { channel: 'public', target_player_id: null, text: 'x'.repeat(501), speech_act: 'taunt' };
    expect(TurnPlanResponse.safeParse({ selected_action: { kind: 'pass' }, speech_actions: [speech] }).success).toBe(false);
  });
});

describe('engine output conforms to the protocol', () => {
  it('every event of a started game, its projections, the world view and the request parse', () => {
    const state = initialState({}, 7);
    const res = stepInPlace(state, { type: 'start', ts: '2026-01-01T00:00:00.000Z' });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    for (const e of res.events) {
      expect(GameEvent.safeParse(e).success).toBe(true);
      expect(GameEvent.safeParse(viewEvent(e, { role: 'spectator' })).success).toBe(true);
      expect(e.schema_version).toBe('1.0');
    }
    expect(WorldState.safeParse(worldView(state, { role: 'spectator' })).success).toBe(true);
    const req = requestFor(state, 'plr_1');
    const parsed = TurnPlanRequest.safeParse(req);
    expect(parsed.success ? 'ok' : parsed.error.message).toBe('ok');
    expect(req.public_world_view.seed).toBeNull();
  });
});

describe('a whole game conforms', () => {
  it('every request of every window and every event (full and projected) parses', async () => {
    const { randomAgent } = await import('../../src/agents/builtin/random.js');
    const { awaiting } = await import('../../src/game/index.js');
    const state = initialState({ rules: { round_cap: 12 } }, 11);
    const events = [];
    const start = stepInPlace(state, { type: 'start' });
    if (start.ok) events.push(...start.events);
    const agents = [0, 1, 2, 3].map((i) => randomAgent(`t:${i}`));
    const windows = new Set<string>();
    for (let guard = 0; guard < 5000; guard++) {
      const next = awaiting(state);
      if (!next) break;
      const seat = next.seats[0]!;
      const req = requestFor(state, seat);
      windows.add(req.window);
      const parsed = TurnPlanRequest.safeParse(req);
      expect(parsed.success ? 'ok' : parsed.error.message).toBe('ok');
      const res = stepInPlace(state, { type: 'decision', player_id: seat, window: next.window, decision: agents[Number(seat.slice(4)) - 1]!.decide(req) });
      expect(res.ok).toBe(true);
      if (res.ok) events.push(...res.events);
    }
    expect(state.status).toBe('done');
    expect([...windows].sort()).toEqual(['action', 'intent', 'reaction', 'reflect', 'talk']);
    for (const e of events) {
      const full = GameEvent.safeParse(e);
      expect(full.success ? 'ok' : `${e.type}: ${full.error.message}`).toBe('ok');
      const pub = GameEvent.safeParse(viewEvent(e, { role: 'spectator' }));
      expect(pub.success ? 'ok' : `${e.type}: ${pub.error.message}`).toBe('ok');
    }
  });
});
