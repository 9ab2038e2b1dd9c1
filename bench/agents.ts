/**
 * What the tool-protocol runtime costs per invocation: runProcess on a tiny POSIX sh agent
 * (bench/fixtures/echo-agent.sh), against the bare minimum Node needs to do the same — spawn the
 * script, write the same stdin line, read stdout to its close, wait for the exit. The two are
 * measured in the same run, interleaved (a, b, a, b…) so machine noise hits both alike, after a
 * warm-up. Prints one JSON object; the target is a median ratio ≤ 1.2. Both run unsandboxed: this
 * is the runtime's own cost.
 *
 * Then the sandbox's cost: one-shot invocations of skills/python-example on the same request, in
 * its sandbox (bubblewrap, as seats run it) against the same invocation with TILTYARD_SANDBOX=off,
 * interleaved likewise; the target is a median ratio ≤ 1.3.
 *
 *   npm run bench:agents              # 300 iterations each, 100 of the Python example
 *   npm run bench:agents -- --n 1000 --py 200
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { collectSamples } from '../src/check/samples.js';
import { minimalEnv, runProcess } from '../src/agents/runtime/process-runner.js';
import { sandboxDecision, sandboxSettings, type SandboxSpec } from '../src/agents/sandbox/index.js';
import { skillSandbox } from '../src/agents/seat/skill-sandbox.js';
import { loadSkill } from '../src/agents/skills/load-skill.js';
import type { ToolInput } from '../src/protocol/index.js';

const TARGET_RATIO = 1.2;
const SANDBOX_TARGET_RATIO = 1.3;
const OFF: SandboxSpec = { settings: { ...sandboxSettings(), mode: 'off' } };
const WARMUP = 30;
const script = join(import.meta.dirname, 'fixtures', 'echo-agent.sh');

const { values } = parseArgs({
  options: { n: { type: 'string', default: '300' }, py: { type: 'string', default: '100' } },
});
const n = Number(values.n);
if (!Number.isInteger(n) || n < 1)
  throw new Error(`--n must be a whole number ≥ 1, got ${values.n}`);
const nPy = Number(values.py);
if (!Number.isInteger(nPy) || nPy < 1)
  throw new Error(`--py must be a whole number ≥ 1, got ${values.py}`);

const cwd = mkdtempSync(join(tmpdir(), 'bench-agents-'));
const env = minimalEnv(cwd);
const argv = ['sh', script];
// A real action request (~6 KB), as a seat would send it.
const request = collectSamples(1).find((s) => s.case === 'action')!.request;
const input: ToolInput = {
  requestId: request.request_id,
  tool: 'echo-agent',
  operation: request.window,
  input: request,
  config: {},
  workDir: cwd,
};
const line = `${JSON.stringify(input)}\n`;

async function viaRunProcess(): Promise<number> {
  const t = performance.now();
  const outcome = await runProcess({ argv, cwd, env, input, deadlineMs: 10_000, sandbox: OFF });
  const ms = performance.now() - t;
  if (!outcome.ok)
    throw new Error(`runProcess failed: ${outcome.failure?.code} ${outcome.failure?.message}`);
  return ms;
}

function viaSpawn(): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: 'pipe' });
    const chunks: Buffer[] = [];
    let closed = false;
    let code: number | null | undefined;
    const finish = () => {
      if (!closed || code === undefined) return;
      if (code !== 0 || !Buffer.concat(chunks).includes('"done"'))
        reject(new Error(`bare spawn: exit ${code}`));
      else resolve(performance.now() - t);
    };
    child.on('error', reject);
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stdout.on('close', () => {
      closed = true;
      finish();
    });
    child.on('exit', (c) => {
      code = c;
      finish();
    });
    child.stdin.end(line);
  });
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { p50: r(q(0.5)), p90: r(q(0.9)), mean: r(s.reduce((a, b) => a + b, 0) / s.length) };
};

for (let i = 0; i < WARMUP; i++) {
  await viaRunProcess();
  await viaSpawn();
}
const a: number[] = [];
const b: number[] = [];
for (let i = 0; i < n; i++) {
  // Alternate which goes first too, so neither always follows the other's garbage.
  if (i % 2 === 0) {
    a.push(await viaRunProcess());
    b.push(await viaSpawn());
  } else {
    b.push(await viaSpawn());
    a.push(await viaRunProcess());
  }
}

// The sandbox's cost, on the Python example as a seat runs it.
const decision = sandboxDecision();
if (decision.kind !== 'bwrap')
  throw new Error(`the sandbox is not available here (${decision.kind}): install bubblewrap`);
const loaded = loadSkill(join(import.meta.dirname, '..', 'skills', 'python-example'));
if (!loaded.ok) throw new Error(loaded.message);
const skill = loaded.skill;
const pyInput: ToolInput = { ...input, tool: skill.name, config: skill.config.values };
async function python(sandbox: SandboxSpec): Promise<number> {
  const t = performance.now();
  const outcome = await runProcess({ argv: skill.argv!, cwd, env: minimalEnv(cwd, { TILTYARD_SKILL_DIR: skill.dir }), input: pyInput, deadlineMs: 10_000, sandbox });
  const ms = performance.now() - t;
  if (!outcome.ok || outcome.state['decision'] === undefined)
    throw new Error(`python-example failed: ${outcome.failure?.code} ${outcome.failure?.message} ${outcome.stderr}`);
  return ms;
}
const confined = skillSandbox(skill);
for (let i = 0; i < 5; i++) {
  await python(confined);
  await python(OFF);
}
const sandboxed: number[] = [];
const unsandboxed: number[] = [];
for (let i = 0; i < nPy; i++) {
  if (i % 2 === 0) {
    sandboxed.push(await python(confined));
    unsandboxed.push(await python(OFF));
  } else {
    unsandboxed.push(await python(OFF));
    sandboxed.push(await python(confined));
  }
}
rmSync(cwd, { recursive: true, force: true });
const sandboxedMs = stats(sandboxed);
const unsandboxedMs = stats(unsandboxed);
const sandboxRatio = Math.round((sandboxedMs.p50 / unsandboxedMs.p50) * 1000) / 1000;

const runProcessMs = stats(a);
const spawnMs = stats(b);
const ratio = Math.round((runProcessMs.p50 / spawnMs.p50) * 1000) / 1000;
console.log(
  JSON.stringify({
    bench: 'agents',
    iterations: n,
    warmup: WARMUP,
    stdinBytes: Buffer.byteLength(line),
    runProcessMs,
    bareSpawnMs: spawnMs,
    ratioP50: ratio,
    target: TARGET_RATIO,
    withinTarget: ratio <= TARGET_RATIO,
    sandbox: {
      skill: 'python-example',
      iterations: nPy,
      sandboxedMs,
      unsandboxedMs,
      ratioP50: sandboxRatio,
      target: SANDBOX_TARGET_RATIO,
      withinTarget: sandboxRatio <= SANDBOX_TARGET_RATIO,
    },
    machine: {
      cpus: availableParallelism(),
      model: cpus()[0]?.model ?? 'unknown',
      platform: `${process.platform}-${process.arch}`,
      node: process.version,
    },
  }),
);
