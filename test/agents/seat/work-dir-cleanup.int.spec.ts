import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTree } from '../../../src/lib/remove-tree.js';
import { parseAgentSpec } from '../../../src/agents/seat/agent-spec.js';
import { createSeat } from '../../../src/agents/seat/create-seat.js';
import { collectSamples } from '../../../src/check/samples.js';

/**
 * A seat's work dir holds whatever its agent wrote there, as many files as it liked; the seat
 * removes it when the game ends. That must not hold the event loop: for the 30,000 files here the
 * worst delay was 2.1 s with rmSync and 47 ms with removeTree (a load of 16–20 on 2 cores). The
 * bound is far above a loaded machine's noise and far below what the synchronous removal costs.
 */
const MAX_LAG_MS = 500;
const COUNTER = fileURLToPath(new URL('../fixtures/skills/counter', import.meta.url));

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-cleanup-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const tick = () => new Promise((r) => setTimeout(r, 50));

/** `files` empty files in folders of 500 under `dir`. */
function fill(dir: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `d${Math.floor(i / 500)}`);
    if (i % 500 === 0) mkdirSync(sub);
    writeFileSync(join(sub, `f${i}`), '');
  }
}

describe('removing a seat work dir', () => {
  it('given a work dir the agent filled with 30,000 files, then closing the seat removes it without holding the event loop', async () => {
    const spec = parseAgentSpec(`skill:${COUNTER}`);
    if (!spec.ok || spec.agent.kind !== 'skill') throw new Error(spec.ok ? 'not a skill' : spec.message);
    const workRoot = join(tmp, 'work');
    const seat = createSeat(spec.agent, { gameSeed: 1, seat: 0, workRoot });
    const answer = await seat.decide(collectSamples(1).find((s) => s.case === 'action')!.request);
    expect(answer.decision).toBeDefined();
    const [workDir] = readdirSync(workRoot);
    fill(join(workRoot, workDir!), 30_000);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    // The monitor measures a delay between two of its own ticks: one before, one after.
    await tick();
    await seat.close();
    await tick();
    lag.disable();
    expect(readdirSync(workRoot)).toEqual([]);
    expect(lag.max / 1e6, `worst event-loop delay ${Math.round(lag.max / 1e6)} ms`).toBeLessThan(MAX_LAG_MS);
  });

  it('given a folder that is missing, then removeTree resolves', async () => {
    await removeTree(join(tmp, 'never-made'));
  });
});
