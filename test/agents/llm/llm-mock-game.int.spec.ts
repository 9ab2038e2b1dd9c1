/**
 * LLM seats on the deterministic mock provider, in a persisted game on PGlite: the game finishes,
 * every call is a provider_calls row, every decision's trace keeps the model's reasoning summary,
 * and verify re-checks the stored game without any provider — it never asks an agent anything.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DecisionTrace } from '../../../src/agents/seat/types.js';
import type { StageEvent } from '../../../src/protocol/index.js';
import { requestMessages } from '../../../src/providers/mock-prompt.js';
import type * as MockModule from '../../../src/providers/mock.js';
import { runPersistent } from '../../../src/runner/persistent-runner.js';
import { readDecisions } from '../../../src/runner/stored-game.js';
import { openPgliteStore, type TestStore } from '../../store/support.js';
import { tableOfSeven } from './llm-contract-support.js';

const LLM_SEATS = ['plr_1', 'plr_2'];
const PASSING = [
  'hash chain intact',
  'seq contiguous from 1',
  'snapshots equal the fold of the events',
  're-simulation reproduces the log',
].map((name) => [name, 'pass']);

let t: TestStore;
let dir: string;
let gameId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tiltyard-llm-mock-'));
  // Hermetic: the plain mock, whatever providers file or keys the developer's environment has.
  const plain = join(dir, 'plain.providers.json');
  writeFileSync(plain, JSON.stringify({ providers: { mock: { kind: 'mock' } } }));
  vi.stubEnv('TILTYARD_PROVIDERS_FILE', plain);
  t = await openPgliteStore();
  const out = await runPersistent(t.store, {
    seed: 11,
    agents: ['llm:mock', 'llm:mock', 'balanced'],
    rules: { round_cap: 4 },
  });
  expect(out.status).toBe('ended');
  gameId = out.gameId;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  vi.doUnmock('../../../src/providers/mock.js');
  await t?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('llm:mock seats in a persisted game', () => {
  it('given llm:mock, llm:mock and balanced, when run persistently, then the game ends and each llm decision made exactly one ok provider call, recorded with its seat, turn and window', async () => {
    expect((await t.store.getGame(gameId)).status).toBe('ended');
    const calls = await t.store.readProviderCalls(gameId);
    const traces = await t.store.readTraces(gameId);

    expect(new Set(calls.map((c) => c.player_id))).toEqual(new Set(LLM_SEATS));
    expect(calls.length).toBeGreaterThan(20);
    for (const c of calls) {
      expect(c).toMatchObject({
        provider: 'mock',
        model: 'mock',
        status: 'ok',
        error: null,
        cost_usd: 0,
      });
      expect(c.request_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(c.input_tokens).toBeGreaterThan(100);
      expect(c.output_tokens).toBeGreaterThan(0);
    }
    // One call per decision: the rows line up with the llm seats' traces, in order.
    const key = (x: { player_id: string | null; turn: number | null; window: string | null }) =>
      `${x.player_id}/${x.turn}/${x.window}`;
    expect(calls.map(key)).toEqual(traces.filter((r) => LLM_SEATS.includes(r.player_id)).map(key));
    expect(new Set(calls.map((c) => c.request_hash)).size).toBe(calls.length);
  });

  it('given the llm seats’ traces, then every decision succeeded with a reasoning summary in its final stage, and the stored decisions carry neither reasoning nor memory', async () => {
    const traces = (await t.store.readTraces(gameId)).map((r) => r.entries as DecisionTrace);
    const llm = traces.filter((tr) => LLM_SEATS.includes(tr.player_id));
    // The built-in seat's traces are not stored (seed + decisions reproduce them, issue 29).
    const balanced = traces.filter((tr) => tr.player_id === 'plr_3');
    expect(balanced).toEqual([]);
    expect(llm.length).toBeGreaterThan(20);
    for (const tr of llm) {
      expect(tr).toMatchObject({ ok: true, failure: null, fallback: null, agent: 'llm:mock' });
      const final = tr.stages.find((s: StageEvent) => s.stage === 'final');
      const reasoning = final?.payload['reasoning'];
      expect(typeof reasoning).toBe('string');
      expect((reasoning as string).length).toBeGreaterThan(10);
      expect((reasoning as string).length).toBeLessThanOrEqual(300);
      expect(
        tr.stages
          .filter((s: StageEvent) => s.stage === 'act')
          .map((s: StageEvent) => s.payload['status']),
      ).toEqual(['ok']);
    }
    const decisions = (await readDecisions(t.store, gameId)).filter((d) =>
      LLM_SEATS.includes(d.player_id),
    );
    expect(decisions.length).toBe(llm.length);
    for (const d of decisions) {
      expect(d.raw).toBeTypeOf('object');
      expect(Object.keys(d.raw as object)).not.toContain('reasoning');
      expect(Object.keys(d.raw as object)).not.toContain('memory');
    }
  });

  it('given a providers file whose mock fails every call, then verify still passes every assertion, and builds and calls no provider at all', async () => {
    const failing = join(dir, 'failing.providers.json');
    // `{"script": ["error", "error", "error"]}` would fail the first three calls only (calls past a script are ok): a rate of 1 fails them all.
    writeFileSync(
      failing,
      JSON.stringify({ providers: { mock: { kind: 'mock', failures: { error: 1 } } } }),
    );
    vi.stubEnv('TILTYARD_PROVIDERS_FILE', failing);
    // A fresh module graph (no provider setup cached from the run), with every mock built and called counted.
    vi.resetModules();
    const used = { built: 0, calls: 0 };
    vi.doMock('../../../src/providers/mock.js', async (importOriginal) => {
      const real = await importOriginal<typeof MockModule>();
      return {
        ...real,
        mockProvider: (options?: Parameters<typeof real.mockProvider>[0]) => {
          used.built++;
          const p = real.mockProvider(options);
          return {
            name: p.name,
            call: (r: Parameters<typeof p.call>[0]) => (used.calls++, p.call(r)),
          };
        },
      };
    });

    // The file does what it says: any agent that asked the mock now would get an error.
    const { loadProviders } = await import('../../../src/providers/config.js');
    const mock = loadProviders().providers.get('mock')!;
    const { request } = tableOfSeven().talk;
    const probe = await mock.call({
      model: 'mock',
      messages: requestMessages(request),
      answer: { name: 'tiltyard_talk', schema: {} },
      maxOutputTokens: 2_000,
      deadlineMs: 1_000,
      meta: { seed: '11:0' },
    });
    expect(probe).toMatchObject({ status: 'error', error: 'mock: provider error (injected)' });
    expect(used).toEqual({ built: 1, calls: 1 });

    used.built = 0;
    used.calls = 0;
    const { verifyGame } = await import('../../../src/runner/verify-game.js');
    const verdict = await verifyGame(t.store, gameId);

    expect(verdict.assertions.map((a) => [a.name, a.status])).toEqual(PASSING);
    expect(verdict.events_checked).toBe((await t.store.getGame(gameId)).last_seq);
    expect(used).toEqual({ built: 0, calls: 0 });
  });
});
