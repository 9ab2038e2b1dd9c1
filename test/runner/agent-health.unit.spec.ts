import { describe, expect, it } from 'vitest';
import { agentHealth, type HealthGame } from '../../src/runner/agent-health.js';
import type { ProviderCallRow } from '../../src/store/index.js';

const call = (player_id: string, status: string, latency_ms: number): ProviderCallRow => ({ provider: 'p', model: 'm', request_hash: null, input_tokens: 10, output_tokens: 2, cost_usd: 0.001, latency_ms, status, error: null, player_id, turn: 1, window: 'action' });
const trace = (player_id: string, entries: unknown) => ({ player_id, turn: 1, window: 'action', request_id: `req_${Math.random()}`, entries });
const FIRST = { ok: true, stages: [{ stage: 'act' }] };
const REPAIRED = { ok: true, stages: [{ stage: 'replan' }] };
const FELL = { ok: false, failure: { code: 'llm/unknown_key' }, stages: [] };

describe('agentHealth', () => {
  it('given an agent in different seats of two games, when folded, then its figures are those of its seats only, over both games', () => {
    const games: HealthGame[] = [
      { state: 'ended', entrants: ['llm:a', 'random'], players: ['plr_1', 'plr_2'], traces: [trace('plr_1', FIRST), trace('plr_2', FIRST)], calls: [call('plr_1', 'ok', 10), call('plr_2', 'ok', 999)] },
      { state: 'failed', entrants: ['random', 'llm:a'], players: ['plr_1', 'plr_2'], traces: [trace('plr_2', REPAIRED), trace('plr_2', FELL), trace('plr_1', FELL)], calls: [call('plr_2', 'malformed', 30), call('plr_2', 'ok', 20), call('plr_1', 'ok', 999)] },
    ];
    const h = agentHealth(['llm:a'], games)['llm:a']!;
    expect(h).toMatchObject({ agent: 'llm:a', games: 2, failed_games: 1, error_rate: 0.5, decisions: 3, answered_first_time: 1, repaired: 1, fell_back: 1, fallback_rate: 0.3333, fallback_reasons: { 'llm/unknown_key': 1 }, calls: { ok: 2, malformed: 1 }, input_tokens: 30, output_tokens: 6, cost_usd: 0.003 });
    expect(h.latency_ms).toEqual({ p50: 20, p95: 30, max: 30 });
  });

  it('given answers the engine rejected (trace.rejected), then they count as rejected by code, never as first time or repaired', () => {
    const REJECTED = { ...FIRST, rejected: 'action/card_not_in_arena' };
    const REPAIRED_REJECTED = { ...REPAIRED, rejected: 'action/forced_line' };
    const games: HealthGame[] = [{ state: 'ended', entrants: ['llm:a', 'random'], players: ['plr_1', 'plr_2'], traces: [trace('plr_1', FIRST), trace('plr_1', REJECTED), trace('plr_1', REPAIRED_REJECTED), trace('plr_1', FELL)], calls: [call('plr_1', 'ok', 5), call('plr_1', 'ok', 7), call('plr_1', 'ok', 20_000)] }];
    const h = agentHealth(['llm:a'], games)['llm:a']!;
    expect(h).toMatchObject({ decisions: 4, answered_first_time: 1, repaired: 0, rejected: 2, rejection_reasons: { 'action/card_not_in_arena': 1, 'action/forced_line': 1 }, fell_back: 1 });
    // The one stall is the max, whatever the p95 of so few calls says.
    expect(h.latency_ms).toEqual({ p50: 7, p95: 20_000, max: 20_000 });
  });

  it('given no games, then each agent is there with zeros and null rates', () => {
    expect(agentHealth(['llm:a'], [])['llm:a']).toMatchObject({ games: 0, decisions: 0, error_rate: null, fallback_rate: null, latency_ms: null });
  });
});
