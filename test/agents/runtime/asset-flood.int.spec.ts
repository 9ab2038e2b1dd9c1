import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_ASSETS } from '../../../src/agents/runtime/asset-checks.js';
import { sandboxAvailability } from '../../../src/agents/sandbox/index.js';
import { parseAgentSpec } from '../../../src/agents/seat/agent-spec.js';
import { createSeat } from '../../../src/agents/seat/create-seat.js';
import type { SeatDecision } from '../../../src/agents/seat/types.js';
import { collectSamples } from '../../../src/check/samples.js';

/**
 * Issue 25, item 3: one `asset` line (a path of 60,000 components) froze the whole server for
 * most of a minute, its path resolved synchronously in the stdout handler. A real skill, in the
 * real sandbox, sends that line and its neighbours (see the fixture's SKILL.md) while the event
 * loop's delay is measured: nothing it sends may hold the loop. The bound is far above what this
 * shows on a loaded machine (60–170 ms at a load of 10 on 2 cores, where an idle loop shows ~20;
 * 872 ms at a load of 25, when 500 was the bound) and far below the freeze (72 s measured here
 * before the fix, when the decision also timed out).
 */
const MAX_LAG_MS = 5_000;
const FLOOD = fileURLToPath(new URL('../fixtures/skills/asset-flood', import.meta.url));

const tick = () => new Promise((r) => setTimeout(r, 50));

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-asset-flood-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The fixture as a long-lived agent: the same folder with `mode: persistent`. */
function persistentFlood(): string {
  // The folder must keep the skill's name.
  const dir = join(tmp, 'persistent', 'asset-flood');
  cpSync(FLOOD, dir, { recursive: true });
  const skillMd = readFileSync(join(dir, 'SKILL.md'), 'utf8');
  writeFileSync(join(dir, 'SKILL.md'), skillMd.replace('  fallback: random\n', '  fallback: random\n  mode: persistent\n'));
  return dir;
}

/** `n` decisions of a seat playing the skill in `folder`, and the worst event-loop delay meanwhile. */
async function decideWatched(folder: string, n: number): Promise<{ answers: SeatDecision[]; maxLagMs: number }> {
  const spec = parseAgentSpec(`skill:${folder}`);
  if (!spec.ok || spec.agent.kind !== 'skill') throw new Error(spec.ok ? 'not a skill' : spec.message);
  const seat = createSeat(spec.agent, { gameSeed: 1, seat: 0, trace: true, workRoot: join(tmp, 'work') });
  const request = collectSamples(1).find((s) => s.case === 'action')!.request;
  // Probed once per process, with a trial sandbox run synchronously: the first spawn's cost, not the agent's.
  sandboxAvailability();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  try {
    // The monitor measures a delay between two of its own ticks: one before, one after.
    await tick();
    const answers: SeatDecision[] = [];
    for (let i = 0; i < n; i++) answers.push(await seat.decide({ ...request, request_id: `${request.request_id}-${i}` }));
    await tick();
    return { answers, maxLagMs: lag.max / 1e6 };
  } finally {
    lag.disable();
    await seat.close();
  }
}

type Observed = { violations: Array<{ code: string; message: string }>; assets: Array<{ assetId: string }> };

function observed(answer: SeatDecision): Observed {
  return answer.trace!.stages.find((s) => s.stage === 'observe')!.payload as Observed;
}

/** What every decision of the fixture must come to: answered, the bad assets refused in order, the good kept. */
function expectFloodHandled(answer: SeatDecision): void {
  // Said in full when not: the failure, the fallback that answered instead, how the process ended.
  const act = answer.trace!.stages.find((s) => s.stage === 'act')?.payload as { exit_code: number | null; signal: string | null } | undefined;
  const seen = observed(answer) as Observed & { stderr?: string };
  const why = { failure: answer.trace!.failure, fallback: answer.trace!.fallback, exit_code: act?.exit_code, signal: act?.signal, violations: seen.violations.slice(0, 8), stderr: seen.stderr?.slice(-400) };
  expect(answer.trace!.ok, JSON.stringify(why)).toBe(true);
  expect(answer.decision).toEqual({ selected_action: { kind: 'pass' }, attack_plan: null });
  const { violations, assets } = observed(answer);
  expect(violations.map((v) => v.code)).toEqual([
    'asset/path_too_long',
    'asset/path_too_long',
    'asset/outside_work_dir',
    'asset/outside_work_dir',
    'asset/too_many',
  ]);
  expect(violations[2]!.message).toContain('etc-link/passwd');
  expect(violations[3]!.message).toContain('ssl-link/../passwd');
  expect(violations[4]!.message).toContain(`${6 + 3_000 - MAX_ASSETS} assets past the first ${MAX_ASSETS}`);
  const kept = assets.map((a) => a.assetId);
  expect(kept.slice(0, 2)).toEqual(['chain', 'deep-new']);
  expect(kept).toHaveLength(MAX_ASSETS - 4);
}

describe('an agent flooding the runtime with hostile asset paths', () => {
  it('given one process per decision, then the event loop never stalls and every refusal is in the trace', async () => {
    const { answers, maxLagMs } = await decideWatched(FLOOD, 1);
    expectFloodHandled(answers[0]!);
    expect(maxLagMs, `worst event-loop delay ${Math.round(maxLagMs)} ms`).toBeLessThan(MAX_LAG_MS);
  });

  it('given a long-lived process answering request after request, then the same holds for each request', async () => {
    const { answers, maxLagMs } = await decideWatched(persistentFlood(), 2);
    for (const answer of answers) expectFloodHandled(answer);
    expect(maxLagMs, `worst event-loop delay ${Math.round(maxLagMs)} ms`).toBeLessThan(MAX_LAG_MS);
  });
});
