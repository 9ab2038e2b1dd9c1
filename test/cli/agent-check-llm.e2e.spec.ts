/**
 * `tiltyard agent-check llm:<provider>:<model>` against models behind real local HTTP servers
 * speaking OpenAI chat completions: a well-behaved one (every case first time, exit 0), a sloppy one
 * (camelCase keys and made-up ids, clean once asked again: repairs counted per rule, the most
 * common one named), a stubborn one (still wrong after the repair turn: fell back, exit 1), and a
 * dead endpoint (preflight fails: exit 2).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmCheckReport } from '../../src/check/llm-check.js';
import { unusedPortUrl } from '../providers/fake-llm-server.js';
import { carelessWriter, cleanWriter, startSloppyServer, type SloppyServer } from '../providers/sloppy-llm-server.js';
import { tiltyardInProcess } from './in-process.js';
import { tiltyardWith } from './run-cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-agent-check-llm-'));
const servers: Record<'clean' | 'sloppy' | 'stubborn', SloppyServer> = {} as never;
let where: { cwd: string; env: Record<string, string | undefined> };
const here = (...args: string[]) => tiltyardInProcess(where, ...args);
/** The fake servers bill 100 tokens in and 20 out per call. */
const IN = 100;
const OUT = 20;

beforeAll(async () => {
  servers.clean = await startSloppyServer(3, 'balanced', cleanWriter);
  servers.sloppy = await startSloppyServer(3, 'balanced', carelessWriter());
  servers.stubborn = await startSloppyServer(3, 'balanced', carelessWriter(true));
  const providers = Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, { kind: 'openai', base_url: `${s.url}/v1` }]));
  const file = join(tmp, 'providers.json');
  writeFileSync(file, JSON.stringify({ providers: { ...providers, dead: { kind: 'openai', base_url: `${await unusedPortUrl()}/v1` } }, prices: { 'model-1': { inputPerMTok: 100, outputPerMTok: 100 } } }));
  where = { cwd: tmp, env: { TILTYARD_DATA_DIR: join(tmp, 'data'), DATABASE_URL: undefined, TILTYARD_PROVIDERS_FILE: file } };
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.close()));
  rmSync(tmp, { recursive: true, force: true });
});

const CASES = ['intent', 'talk', 'action', 'reaction', 'reflect', 'compact', 'few_legal', 'reprompt'];

describe('agent-check llm:', () => {
  it('given a well-behaved model, then every window and edge case is answered first time, one call each, priced, and it exits 0', async () => {
    const run = await tiltyardWith(where, 'agent-check', 'llm:clean:model-1', '--json');
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as LlmCheckReport;
    expect(r).toMatchObject({ spec: 'llm:clean:model-1', ok: true, max_calls: 16, calls_needed: 16, rules: {}, most_common: null, answers: 8 });
    expect(r.cases.map((c) => c.case)).toEqual(CASES);
    expect(new Set(r.cases.map((c) => c.window))).toEqual(new Set(['intent', 'talk', 'action', 'reaction', 'reflect']));
    for (const c of r.cases) expect(c).toMatchObject({ outcome: 'first_time', rules: [], failure: null, calls: 1, input_tokens: IN, output_tokens: OUT, cost_usd: 0.012 });
    expect(r.totals).toMatchObject({ decisions: 8, answered_first_time: 8, repaired: 0, rejected: 0, fell_back: 0, calls: { ok: 8 }, input_tokens: 8 * IN, output_tokens: 8 * OUT, cost_usd: 0.096 });
    expect(r.totals.latency_ms).toEqual({ p50: expect.any(Number), p95: expect.any(Number), max: expect.any(Number) });

    const text = await here('agent-check', 'llm:clean:model-1');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/few_legal\s+action\s+✓ first time/);
    expect(text.stdout).toContain('gets wrong most: nothing');
    expect(text.stdout).toContain("ok: every case ended with the model's own answer");
  });

  it('given a sloppy model, then its camelCase keys and made-up ids are repaired and counted by rule, the summary names the most common one, and it exits 0', async () => {
    const run = await here('agent-check', 'llm:sloppy:model-1', '--max-calls', '16', '--json');
    expect(run.code, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as LlmCheckReport;
    expect(r.cases.map((c) => c.outcome)).toEqual(Array(8).fill('repaired'));
    for (const c of r.cases) expect(c).toMatchObject({ calls: 2, rules: [expect.stringMatching(/^(unknown_key|unknown_id)$/)] });
    // What the server wrote is what the kit counted: camelCase → unknown_key, a made-up id → unknown_id.
    const kinds = Object.fromEntries(servers.sloppy.kinds);
    expect(r.rules).toEqual({ ...(kinds['camelCase'] ? { unknown_key: kinds['camelCase'] } : {}), ...(kinds['made-up id'] ? { unknown_id: kinds['made-up id'] } : {}) });
    expect(r.rules['unknown_key']).toBeGreaterThan(0);
    expect(r.rules['unknown_id']).toBeGreaterThan(0);
    const top = Object.entries(r.rules).sort((a, b) => b[1] - a[1])[0]!;
    expect(r.most_common).toMatchObject({ rule: top[0], count: top[1] });
    expect(r.totals).toMatchObject({ decisions: 8, repaired: 8, calls: { ok: 16 }, input_tokens: 16 * IN });

    const text = await here('agent-check', 'llm:sloppy:model-1', '--max-calls', '16');
    expect(text.stdout).toMatch(/talk\s+talk\s+✓ repaired\s+unknown_(key|id)/);
    expect(text.stdout).toContain(`gets wrong most: ${top[0]} — `);
    expect(text.stdout).toContain(`(${top[1]} of 16 answers)`);
  });

  it('given too few calls for its cases and a sloppy model, then cases stop while two calls are left, the rest are listed as not run, and the check fails saying so (exit 1)', async () => {
    const run = await here('agent-check', 'llm:sloppy:model-1', '--max-calls', '12', '--json');
    expect(run.code).toBe(1);
    const r = JSON.parse(run.stdout) as LlmCheckReport;
    expect(r).toMatchObject({ ok: false, max_calls: 12, calls_needed: 16 });
    expect(r.cases.filter((c) => c.outcome === 'repaired')).toHaveLength(6);
    expect(r.cases.slice(6).map((c) => c.outcome)).toEqual(['not_run', 'not_run']);
    expect(r.totals.calls).toEqual({ ok: 12 });

    // The user's report: 5 calls ran 2 of the 8 cases, and it said "ok".
    const text = await here('agent-check', 'llm:sloppy:model-1', '--max-calls', '5');
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('FAILED: 6 of 8 cases not run: --max-calls 5 is too few for them (every case needs 2: at least 16)');
    expect(text.stdout).not.toContain('ok: every case');
  });

  it('given a model still wrong after the repair turn, then each case fell back with the rule and it exits 1; a dead endpoint or a non-llm spec exits 2', async () => {
    const run = await here('agent-check', 'llm:stubborn:model-1', '--max-calls', '4', '--json');
    expect(run.code).toBe(1);
    const r = JSON.parse(run.stdout) as LlmCheckReport;
    expect(r.ok).toBe(false);
    expect(r.cases[0]).toMatchObject({ outcome: 'fell_back', calls: 2, failure: { code: expect.stringMatching(/^llm\/unknown_(key|id)$/) } });
    expect(r.cases[0]!.rules).toHaveLength(2);

    const text = await here('agent-check', 'llm:stubborn:model-1', '--max-calls', '4');
    expect(text.stdout).toMatch(/failed:\n {2}intent: llm\/unknown_(key|id): still unusable after one repair/);
    expect(text.stdout).toContain('FAILED');

    const dead = await here('agent-check', 'llm:dead:model-1');
    expect(dead.code).toBe(2);
    expect(dead.stderr).toMatch(/preflight failed.*\n.*dead:model-1 failed its preflight request: .*connection refused/);
    expect((await here('agent-check', 'llm:nowhere:model-1')).code).toBe(2);
    expect((await here('agent-check', 'llm:clean:model-1', '--games', '2')).code).toBe(2);
  });
});
