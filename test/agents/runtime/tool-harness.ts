import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolInput } from '../../../src/protocol/index.js';
import {
  minimalEnv,
  runProcess,
  type ProcessSpec,
} from '../../../src/agents/runtime/process-runner.js';
import type { InvocationOutcome } from '../../../src/agents/runtime/outcome.js';

/** Real executables, one per rule or hostile behaviour. */
export const TOOLS = fileURLToPath(new URL('../fixtures/tools/', import.meta.url));

export const INPUT: ToolInput = {
  requestId: 'req_1',
  tool: 'fixture',
  operation: 'action',
  input: { turn: 3 },
};

/** Through the interpreter, so the executable bit (lost by some checkouts) does not matter. */
export function toolArgv(name: string): string[] {
  const path = join(TOOLS, name);
  if (name.endsWith('.py')) return ['python3', path];
  return ['sh', path];
}

const dirs: string[] = [];

/** A fresh work dir, removed by cleanupDirs(). */
export function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tiltyard-tool-'));
  dirs.push(dir);
  return dir;
}

export function cleanupDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Runs a fixture in a fresh work dir with the minimal environment. */
export function runTool(name: string, over: Partial<ProcessSpec> = {}): Promise<InvocationOutcome> {
  const cwd = over.cwd ?? workDir();
  return runProcess({
    argv: toolArgv(name),
    cwd,
    env: minimalEnv(cwd),
    input: INPUT,
    deadlineMs: 10_000,
    ...over,
  });
}

/** Alive and not a zombie (a container's init may never reap orphans). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    // Gone between the two checks — or no /proc at all, where kill(0) is the best we know.
    return !existsSync('/proc/self/stat');
  }
}

/**
 * Polls: a SIGKILLed process may take some kernel time to finish dying. Counted in attempts, not
 * milliseconds, and generous (up to 10 s in all): on a loaded machine a dying process can take far
 * longer than its usual few ms, and a short wall-clock window would fail there by luck.
 */
export async function eventually(check: () => boolean, attempts = 1_000): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return check();
}

/**
 * Whether a fixture's `sleep 30` ran to its end: the fixtures that outlive their deadline touch
 * this file in their work dir when their sleep is over. Absent when the call returns = the call did
 * not wait for the sleep (an order check, where a duration bound would depend on the machine's load).
 */
export function sleptThrough(cwd: string): boolean {
  return existsSync(join(cwd, 'slept'));
}

/** The pid a hostile fixture reported in its first log event. */
export function reportedPid(outcome: InvocationOutcome): number {
  const pid = outcome.logs[0]?.fields?.['pid'];
  if (typeof pid !== 'number') throw new Error(`no pid reported: ${JSON.stringify(outcome.logs)}`);
  return pid;
}
