import { describe, expect, it } from 'vitest';
import { canonicalJson, eventHash, GENESIS_HASH, stateHash } from '../../src/store/index.js';
import { initialState } from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';

describe('canonical JSON (RFC 8785 for JSON.parse values)', () => {
  it('given objects with keys in any order, then members are sorted by UTF-16 code units, without whitespace', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: { z: 0, y: -0.5 } })).toBe(
      '{"a":[true,null,"x"],"b":1,"c":{"y":-0.5,"z":0}}',
    );
    expect(canonicalJson({ é: 1, z: 2, Z: 3, '10': 4, '9': 5 })).toBe(
      '{"10":4,"9":5,"Z":3,"z":2,"é":1}',
    );
  });

  it('given numbers and strings, then they are written as JSON.stringify writes them', () => {
    expect(canonicalJson([1e21, 1e-7, 0.1, -0, 123.456])).toBe('[1e+21,1e-7,0.1,0,123.456]');
    expect(canonicalJson('line\n"quoted"\u2028')).toBe(JSON.stringify('line\n"quoted"\u2028'));
  });

  it('given undefined members, then they are left out; given non-JSON values, then it throws', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
  });
});

describe('hashes', () => {
  const event = {
    schema_version: '1.0',
    event_id: 'evt_x_1',
    game_id: 'game_x',
    seq: 1,
    turn: 0,
    phase: 'upkeep',
    type: 'phase_changed',
    ts: '2026-01-01T00:00:00.000Z',
    payload: { phase: 'upkeep', turn: 1 },
    visibility: { hidden: [] },
  } as unknown as GameEvent;

  it('given the same event with keys reordered, then the link hash is the same; a changed payload changes it', () => {
    const reordered = JSON.parse(
      JSON.stringify({ ...event, payload: { turn: 1, phase: 'upkeep' } }),
    ) as GameEvent;
    expect(eventHash(GENESIS_HASH, reordered)).toBe(eventHash(GENESIS_HASH, event));
    expect(
      eventHash(GENESIS_HASH, {
        ...event,
        payload: { phase: 'upkeep', turn: 2 },
      } as unknown as GameEvent),
    ).not.toBe(eventHash(GENESIS_HASH, event));
    expect(eventHash('f'.repeat(64), event)).not.toBe(eventHash(GENESIS_HASH, event));
    expect(eventHash(GENESIS_HASH, event)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('given equal states, then equal state hashes', () => {
    const a = initialState({ seats: 3 }, 9);
    expect(stateHash(JSON.parse(JSON.stringify(a)) as typeof a)).toBe(stateHash(a));
    expect(stateHash(initialState({ seats: 3 }, 10))).not.toBe(stateHash(a));
  });
});
