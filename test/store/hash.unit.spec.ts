import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { GameState } from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';
import { canonicalJson } from '../../src/store/canonical-json.js';
import { eventHash, GENESIS_HASH, stateHash } from '../../src/store/hash.js';

// Stored chains were hashed with createHash(...).update(prev).update(canonical): whatever hashes
// them now must give the same hex for the same event, or every stored game stops verifying.
const event = {
  schema_version: '1',
  event_id: 'evt_1',
  game_id: 'game_g',
  seq: 1,
  turn: 0,
  phase: 'setup',
  type: 'game_started',
  ts: '2026-01-01T00:00:00.000Z',
  payload: { z: 'é—', a: [1, 0.5, null, true] },
  visibility: { scope: 'public' },
} as unknown as GameEvent;

describe('hash chain links', () => {
  it('are sha256 over the previous hash then the canonical JSON, as the stored chains were made', () => {
    const twoUpdates = createHash('sha256').update(GENESIS_HASH).update(canonicalJson(event)).digest('hex');
    expect(eventHash(GENESIS_HASH, event)).toBe(twoUpdates);
    // Pinned from the createHash implementation, so a change of definition cannot pass unseen.
    expect(eventHash(GENESIS_HASH, event)).toBe('1de56e1e17529f905462d2c969229ef09736212c5832cccb08aa8b0a0d5a6203');
    const second = { ...event, seq: 2, event_id: 'evt_2' };
    const first = eventHash(GENESIS_HASH, event);
    expect(eventHash(first, second)).toBe(createHash('sha256').update(first).update(canonicalJson(second)).digest('hex'));
  });

  it('state hashes ignore key order and keep their pinned value', () => {
    expect(stateHash({ b: 1, a: 'x' } as unknown as GameState)).toBe('cdab067e9f3beb32d1252cfd63e492592fecbf591b0d08cadb24bb17f3864246');
    expect(stateHash({ a: 'x', b: 1 } as unknown as GameState)).toBe(stateHash({ b: 1, a: 'x' } as unknown as GameState));
  });
});
