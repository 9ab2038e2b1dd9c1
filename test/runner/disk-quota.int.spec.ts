import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPersistent } from '../../src/runner/persistent-runner.js';
import { verifyGame } from '../../src/runner/verify-game.js';
import { openPgliteStore } from '../store/support.js';
import { writeSkillAgent } from './skill-agent.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-disk-'));
const before = process.env['TILTYARD_SANDBOX_DISK_MB'];
beforeAll(() => {
  // Seats read the sandbox settings from the environment at each spawn, as a server's do.
  process.env['TILTYARD_SANDBOX_DISK_MB'] = '8';
});
afterAll(() => {
  if (before === undefined) delete process.env['TILTYARD_SANDBOX_DISK_MB'];
  else process.env['TILTYARD_SANDBOX_DISK_MB'] = before;
  rmSync(tmp, { recursive: true, force: true });
});

/**
 * The hostile agent: every decision writes 1 MiB files into its work dir in a loop, then
 * sits there. Bounded at 400 MiB, so a broken quota cannot fill the disk; only the quota stops it
 * before its 60 s deadline.
 */
function fillerAgent(): string {
  return writeSkillAgent(
    tmp,
    'disk-filler',
    ['#!/bin/sh', 'cat > /dev/null', 'i=0', 'while [ $i -lt 400 ]; do', '  head -c 1048576 /dev/zero > "fill-$$-$i" || exit 1', '  i=$((i + 1))', 'done', 'sleep 3600', ''].join('\n'),
  );
}

type Trace = { entries: { failure?: { code: string } | null; fallback?: string | null } };

describe('a skill that fills its work dir, in a stored game', () => {
  it('given the writer at a seat, then each of its decisions is stopped at the quota, the seat falls back, the game ends and verifies, and no work dir is left', async () => {
    const workRoot = join(tmp, 'work');
    const { store, dispose } = await openPgliteStore();
    try {
      const out = await runPersistent(store, { seed: 3, agents: [`skill:${fillerAgent()}`, 'random'], rules: { round_cap: 2 } }, { seats: { workRoot } });
      expect(out.status).toBe('ended');
      const traces = (await store.readTraces(out.gameId, 'plr_1')) as unknown as Trace[];
      const failures = traces.map((t) => t.entries.failure?.code).filter(Boolean);
      // Three failures make the skill's health permanent failure; its fallback agent answers from then on.
      expect(failures).toEqual(['sandbox/disk_quota', 'sandbox/disk_quota', 'sandbox/disk_quota']);
      expect(traces.at(-1)!.entries.fallback).toBe('agent:random');
      const verdict = await verifyGame(store, out.gameId);
      expect(verdict.assertions.filter((a) => a.status === 'fail')).toEqual([]);
      // Closed with the game: the seat's work dir is gone.
      expect(readdirSync(workRoot)).toEqual([]);
    } finally {
      await dispose();
    }
  });
});
