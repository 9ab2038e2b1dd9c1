import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionTrace } from '../../src/agents/seat/types.js';
import { gameTraces } from '../../src/runner/builtin-traces.js';
import { logicalInputClock } from '../../src/runner/input-clock.js';
import { runPersistent } from '../../src/runner/persistent-runner.js';
import { storedSeatSummaries } from '../../src/runner/seat-summary.js';
import { freshGameId, openPgliteStore, type TestStore } from '../store/support.js';

/** A trace without its timings (latency_ms, each stage's ts: the only part a second asking does not reproduce). */
const timeless = (t: DecisionTrace) =>
  JSON.parse(JSON.stringify(t, (k, v: unknown) => (k === 'latency_ms' || k === 'ts' ? undefined : v))) as unknown;

describe('built-in seats’ traces: not stored, made again on read (issue 29)', () => {
  let t: TestStore;
  const game = { seed: 29, agents: ['skill:test/agents/fixtures/skills/counter', 'balanced', 'trickster'], gameId: freshGameId('traces'), rules: { round_cap: 3 } };
  const live: DecisionTrace[] = [];

  beforeAll(async () => {
    t = await openPgliteStore();
    const out = await runPersistent(t.store, game, { clock: logicalInputClock, onDecision: (_p, answer) => answer.trace && live.push(answer.trace) });
    expect(out.status).toBe('ended');
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('given a game with a skill seat and two built-ins, then only the skill’s traces are stored', async () => {
    const stored = await t.store.readTraces(game.gameId);
    expect(stored.length).toBeGreaterThan(0);
    expect(new Set(stored.map((s) => s.player_id))).toEqual(new Set(['plr_1']));
  });

  it('given the game read back, then every decision has its trace, in order, the built-ins’ equal to what the run made but for timings', async () => {
    const record = await t.store.getGame(game.gameId);
    const all = await gameTraces(t.store, record);
    expect(all.map((x) => x.request_id)).toEqual(live.map((x) => x.request_id));
    expect(all.map((x) => timeless(x.entries as DecisionTrace))).toEqual(live.map(timeless));
    // One seat's only, as GET /games/:id/traces?player= asks.
    const two = await gameTraces(t.store, record, 'plr_2');
    expect(two.map((x) => x.request_id)).toEqual(live.filter((x) => x.player_id === 'plr_2').map((x) => x.request_id));
    expect(two.every((x) => typeof x.created_at === 'string')).toBe(true);
  });

  it('given the seat summaries, then the built-ins count their decisions, each answered at once', async () => {
    const summaries = await storedSeatSummaries(t.store, game.gameId);
    for (const s of summaries) expect(s.decisions, s.player_id).toBe(live.filter((x) => x.player_id === s.player_id).length);
    expect(summaries.filter((s) => s.player_id !== 'plr_1').every((s) => s.answered_first_time === s.decisions)).toBe(true);
  });
});
