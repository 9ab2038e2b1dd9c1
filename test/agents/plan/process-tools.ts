import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlanPorts } from '../../../src/agents/plan/index.js';
import { minimalEnv, runProcess } from '../../../src/agents/runtime/process-runner.js';
import type { JsonObject, ToolInvocationInput } from '../../../src/protocol/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/plan/', import.meta.url));

/**
 * A plan tool backed by a fixture script, run through its interpreter (toolPath) so a lost
 * executable bit does not matter.
 */
export function fixtureTool(
  toolId: string,
  script: 'flaky.py' | 'sleeper.py' | 'echo-deps.py' | 'refuse.sh',
  params: JsonObject = {},
  extra: Partial<ToolInvocationInput> = {},
) {
  return {
    toolId,
    toolPath: script.endsWith('.py') ? 'python3' : 'sh',
    args: [join(FIXTURES, script)],
    input: params,
    ...extra,
  };
}

/** The real runTool: one process per attempt, in `cwd`, with the minimal environment. */
export function processPorts(cwd: string, over: Partial<PlanPorts> = {}): PlanPorts {
  return {
    runTool: (tool, input, { deadlineMs, signal }) =>
      runProcess({
        argv: [tool.toolPath, ...tool.args],
        cwd,
        env: minimalEnv(cwd),
        input,
        deadlineMs,
        signal,
        killGraceMs: 200,
      }),
    ...over,
  };
}

const dirs: string[] = [];

/** A fresh cwd for the tools of one test (their counters and logs live there). */
export function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tiltyard-plan-'));
  dirs.push(dir);
  return dir;
}

export function cleanupDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The JSON lines a fixture appended to a log in `dir` (none if it never ran). */
export function readLog<T = JsonObject>(dir: string, name: string): T[] {
  const path = join(dir, name);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T);
}

/** Start/end intervals per tool from a sleeper log. */
export function intervals(
  dir: string,
  log = 'runs.log',
): Array<{ tool: string; start: number; end: number }> {
  const lines = readLog<{ tool: string; event: 'start' | 'end'; t: number }>(dir, log);
  const out = new Map<string, { tool: string; start: number; end: number }>();
  for (const l of lines) {
    const entry = out.get(l.tool) ?? { tool: l.tool, start: Number.NaN, end: Number.NaN };
    entry[l.event === 'start' ? 'start' : 'end'] = l.t;
    out.set(l.tool, entry);
  }
  return [...out.values()];
}
