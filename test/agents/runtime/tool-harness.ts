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

/** Polls briefly: a SIGKILLed process may take a few ms of kernel time to finish dying. */
export async function eventually(check: () => boolean, ms = 300): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The pid a hostile fixture reported in its first log event. */
export function reportedPid(outcome: InvocationOutcome): number {
  const pid = outcome.logs[0]?.fields?.['pid'];
  if (typeof pid !== 'number') throw new Error(`no pid reported: ${JSON.stringify(outcome.logs)}`);
  return pid;
}
