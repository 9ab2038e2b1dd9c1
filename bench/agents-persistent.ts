/**
 * The opt-in long-lived mode (`metadata.mode: persistent`): one agent process answers request after
 * request, correlated by requestId, through the same collector as one-shot tools. Sends N real
 * action requests (~6 KB each) one after another and prints decisions/s. Target ≥ 5,000/s.
 *
 *   npm run bench:agents-persistent                 # 20,000 requests
 *   npm run bench:agents-persistent -- --n 50000
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { collectSamples } from '../src/check/samples.js';
import { PersistentProcess } from '../src/agents/runtime/persistent-process.js';
import { minimalEnv } from '../src/agents/runtime/process-runner.js';
import { sandboxDecision } from '../src/agents/sandbox/index.js';

const TARGET = 5_000;
const { values } = parseArgs({ options: { n: { type: 'string', default: '20000' } } });
const n = Number(values.n);
if (!Number.isInteger(n) || n < 1) throw new Error(`--n must be a whole number ≥ 1, got ${values.n}`);

const cwd = mkdtempSync(join(tmpdir(), 'bench-persistent-'));
const agent = new PersistentProcess({ argv: [process.execPath, join(import.meta.dirname, 'fixtures', 'persistent-agent.mjs')], cwd, env: minimalEnv(cwd) });
const request = collectSamples(1).find((s) => s.case === 'action')!.request;
const input = (i: number) => ({ requestId: `${request.request_id}#${i}`, tool: 'persistent-agent', operation: request.window, input: request, workDir: cwd });

for (let i = 0; i < 500; i++) await agent.request(input(-i - 1), 5_000); // warm-up (and the spawn)
const latencies: number[] = [];
let failures = 0;
const start = performance.now();
for (let i = 0; i < n; i++) {
  const t = performance.now();
  const outcome = await agent.request(input(i), 5_000);
  latencies.push(performance.now() - t);
  if (!outcome.ok || outcome.state['decision'] === undefined) failures++;
}
const wallMs = performance.now() - start;
await agent.close();
rmSync(cwd, { recursive: true, force: true });
latencies.sort((a, b) => a - b);
const q = (p: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0) * 1000) / 1000;
const perSec = Math.round((n / wallMs) * 1000);
console.log(
  JSON.stringify({
    bench: 'agents-persistent',
    requests: n,
    failures,
    decisionsPerSec: perSec,
    // As seats run it: in the sandbox unless TILTYARD_SANDBOX=off (or bubblewrap is missing).
    sandboxed: sandboxDecision().kind === 'bwrap',
    latencyMs: { p50: q(0.5), p90: q(0.9), p99: q(0.99) },
    stdinBytes: JSON.stringify(input(0)).length + 1,
    target: TARGET,
    withinTarget: perSec >= TARGET && failures === 0,
    machine: { cpus: cpus().length, node: process.version },
  }),
);
