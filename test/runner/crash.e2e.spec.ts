import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLog } from '../../src/runner/stored-game.js';
import { GameNotFoundError, type EventStore } from '../../src/store/index.js';
import { tiltyardInProcess } from '../cli/in-process.js';
import { bin, tiltyardWith, type CliEnv } from '../cli/run-cli.js';
import { ADMIN_URL, postgresAvailable } from '../store/support.js';
import { pgliteDb, postgresDb, type CrashDb } from '../support/crash-db.js';

/**
 * The crash test. A real runner process (`node bin/tiltyard.js run`, over dist/) is killed with
 * SIGKILL mid-game several times, each time right after a randomly chosen seq (read from its
 * `--progress` lines, plus a random few milliseconds, so the kill lands anywhere in the next steps:
 * deciding, appending, committing). `tiltyard resume` picks the game up after each kill. The final
 * log must verify and equal, byte for byte, an uninterrupted run of the same game. Both runs use
 * `--clock logical` (timestamps derived from the log: 2026-01-01T00:00:00.000Z plus 1 ms per
 * input), so even the timestamps agree.
 */
const GAME_ID = 'game_crash_e2e';
// Compact windows: 202 committed steps instead of 568 (1,282 events), each one a transaction the
// kills can land in; what a step holds does not matter to crash safety, and the two uninterrupted
// games this file plays per backend were most of its cost.
const RUN = [
  'run',
  '--compact',
  '--seed',
  '31',
  '--seats',
  '6',
  '--agents',
  'balanced,aggressor,turtle,manipulator,trickster,random',
  '--clock',
  'logical',
  '--game-id',
  GAME_ID,
  '--json',
];
const RESUME = ['resume', GAME_ID, '--clock', 'logical', '--json'];
const KILLS = 5;

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-crash-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const pgUp = await postgresAvailable();
if (!pgUp)
  console.warn(`\n⚠ crash test on PostgreSQL: SKIPPED — no server answers at ${ADMIN_URL}\n`);

type Exit = { code: number | null; signal: NodeJS.Signals | null; stderr: string };
type Db = CrashDb;

/** Runs tiltyard with --progress and SIGKILLs it a random 0–25 ms after it reports seq ≥ target. */
function runUntilKilled(where: CliEnv, args: string[], target: number): Promise<Exit> {
  const child = spawn(process.execPath, [bin, ...args, '--progress'], {
    cwd: where.cwd,
    env: { ...process.env, ...where.env, TILTYARD_DEBUG: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let armed = true;
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    const seqs = [...stderr.matchAll(/^stored \S+ seq (\d+)$/gm)].map((m) => Number(m[1]));
    if (armed && seqs.some((s) => s >= target)) {
      armed = false;
      setTimeout(() => child.kill('SIGKILL'), Math.random() * 25);
    }
  });
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
}

async function headOf(s: EventStore): Promise<number> {
  try {
    return await s.lastSeq(GAME_ID);
  } catch (e) {
    if (e instanceof GameNotFoundError) return 0;
    throw e;
  }
}

const pglite = (name: string): Db => pgliteDb(tmp, name);
const postgres = (): Promise<Db> => postgresDb(tmp);

/**
 * The uninterrupted run both backends' crashed runs must equal, byte for byte: with the logical
 * clock and a fixed game id the log depends on the seed and line-up alone (the store only keeps
 * it), so one run on the embedded database is the reference for both, played once and shared. It
 * runs in the test process: the reference is what is compared against, not the process under test
 * (the killed and resumed runs are real processes).
 */
let referenceLog: ReturnType<typeof readLog> | undefined;
const uninterrupted = (): ReturnType<typeof readLog> =>
  (referenceLog ??= (async () => {
    const ref = pglite('reference');
    const run = await tiltyardInProcess(ref.where, ...RUN);
    expect(run.code, run.stderr).toBe(0);
    return ref.withStore((s) => readLog(s, GAME_ID));
  })());

const backends = [
  {
    name: 'the embedded database (PGlite)',
    open: (tag: string) => Promise.resolve(pglite(tag)),
    skip: false,
  },
  { name: 'PostgreSQL', open: () => postgres(), skip: !pgUp },
];

describe('crash safety of a real runner process', () => {
  for (const backend of backends) {
    it.skipIf(backend.skip)(
      `on ${backend.name}: SIGKILL mid-game ${KILLS} times at random points, resume each time; the final log verifies and equals an uninterrupted run`,
      async () => {
        const crashed = await backend.open('crashed');
        try {
          // Create the database first: killing PGlite's initdb is not what this test is about.
          const [reference, created] = await Promise.all([uninterrupted(), tiltyardInProcess(crashed.where, 'games')]);
          expect(created.code, created.stderr).toBe(0);
          const finalSeq = reference.length;

          const kills: number[] = [];
          let head = 0;
          for (let k = 0; k < KILLS; k++) {
            // In the first 40% of what is left, so every kill lands well before the end, even
            // when a loaded machine reads the progress lines late.
            const target = head + 1 + Math.floor(Math.random() * (finalSeq - head) * 0.4);
            const exit = await runUntilKilled(crashed.where, k === 0 ? RUN : RESUME, target);
            expect(
              exit.signal,
              `the runner was to be killed after seq ${target}: ${exit.stderr.slice(-300)}`,
            ).toBe('SIGKILL');
            const [now, broken] = await crashed.withStore(
              async (s) => [await headOf(s), await s.verifyChain(GAME_ID)] as const,
            );
            expect(broken, `the chain after a kill at seq ${now}`).toBeNull();
            expect(now).toBeGreaterThanOrEqual(target);
            expect(now).toBeLessThan(finalSeq);
            kills.push(now);
            head = now;
          }

          const last = await tiltyardWith(crashed.where, ...RESUME);
          expect(last.stderr).toBe('');
          expect(JSON.parse(last.stdout)).toMatchObject([
            { gameId: GAME_ID, status: 'ended', events: finalSeq, resumedFrom: head },
          ]);
          // The final log's checks, in the test process (the processes under test are the runs).
          const verify = await tiltyardInProcess(crashed.where, 'verify', GAME_ID);
          expect(verify.stdout).toMatch(/4\/4 assertions pass/);
          expect(verify.code).toBe(0);
          const log = await crashed.withStore((s) => readLog(s, GAME_ID));
          expect(JSON.stringify(log)).toBe(JSON.stringify(reference));
          console.info(
            `crash test on ${backend.name}: ${finalSeq} events; SIGKILLed at seqs ${kills.join(', ')}; resumed to the same log`,
          );
        } finally {
          await crashed.dispose();
        }
      },
      300_000,
    );
  }
});
