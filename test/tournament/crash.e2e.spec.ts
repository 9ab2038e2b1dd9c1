import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyGame } from '../../src/runner/verify-game.js';
import { tiltyardInProcess } from '../cli/in-process.js';
import { bin, tiltyardWith, type CliEnv } from '../cli/run-cli.js';
import { ADMIN_URL, postgresAvailable } from '../store/support.js';
import { pgliteDb, postgresDb, type CrashDb } from '../support/crash-db.js';
import { expectSameAsUninterrupted } from '../support/same-log.js';

/**
 * The tournament crash test. A real `tiltyard tournament` process (over dist/) is SIGKILLed several
 * times, each right after it reports (on its --progress lines) that a chosen number of games have
 * ended — the next games are then in flight, two at a time, being played or committed — and
 * `tiltyard tournament resume` continues it. Kill points come from a seeded PRNG (the seed is in
 * the test's name), not from timers. The final standings must equal an uninterrupted run's, every
 * scheduled game must be stored once, ended, and verify.
 */
const SEED = 'tournament-crash-1';
const TOURNAMENT = ['tournament', '--agents', 'balanced,aggressor,turtle,manipulator', '--seats', '2', '--seeds', '1', '--seed', '9', '--compact', '--clock', 'logical', '--concurrency', '2'];
const KILLS = 3;

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-tcrash-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const pgUp = await postgresAvailable();
if (!pgUp) console.warn(`\n⚠ tournament crash test on PostgreSQL: SKIPPED — no server answers at ${ADMIN_URL}\n`);

type Db = CrashDb;

const pglite = (name: string): Db => pgliteDb(tmp, name);
const postgres = (): Promise<Db> => postgresDb(tmp);

type Killed = { id: string; done: number; signal: NodeJS.Signals | null; stderr: string };

/** Runs tiltyard with --progress and SIGKILLs it as soon as it reports `target` games done in all. */
function runUntilKilled(where: CliEnv, args: string[], target: number): Promise<Killed> {
  const child = spawn(process.execPath, [bin, ...args, '--progress'], { cwd: where.cwd, env: { ...process.env, ...where.env, TILTYARD_DEBUG: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let id = '';
  let done = 0;
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    id ||= /^tournament (\S+) started/m.exec(stderr)?.[1] ?? '';
    done = Math.max(0, ...[...stderr.matchAll(/^tournament \S+ game \S+ \S+ (?:ended|failed) \((\d+) done\)$/gm)].map((m) => Number(m[1])));
    if (done >= target && child.exitCode === null && !child.killed) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.on('exit', (_code, signal) => resolve({ id, done, signal, stderr })));
}

type Result = { games: number; failed: number; standings: unknown[] };

/**
 * The uninterrupted run both backends' crashed runs must equal: the standings depend on the
 * configuration and seed alone (the store only keeps them), so one real run on the embedded
 * database is the reference for both, played once and shared, in the test process (it is what the
 * crashed runs are compared against, not a process under test).
 */
let referenceRun: Promise<Result> | undefined;
const uninterrupted = (): Promise<Result> =>
  (referenceRun ??= (async () => {
    const run = await tiltyardInProcess(pglite('reference').where, ...TOURNAMENT, '--json');
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as Result;
    expect(result.failed).toBe(0);
    return result;
  })());

/** Each backend plays one commit policy (given when the tournament is created, never on resume: it is kept). */
const backends = [
  { name: 'the embedded database (PGlite)', open: (tag: string) => Promise.resolve(pglite(tag)), skip: false, commit: 'step' },
  { name: 'PostgreSQL', open: () => postgres(), skip: !pgUp, commit: 'auto' },
];

describe('crash safety of a real tournament process', () => {
  for (const backend of backends) {
    it.skipIf(backend.skip)(
      `on ${backend.name} (--clock logical --commit ${backend.commit}): SIGKILL ${KILLS} times at seeded points (${SEED}), resume each time (no flags: the tournament's settings are kept); the standings and every game's log equal an uninterrupted run's, each game stored once; a resume that contradicts a setting is refused`,
      async () => {
        const random = seedrandom(`${SEED}:${backend.name}`);
        const crashed = await backend.open('crashed');
        try {
          // Create the database first (in the test process): killing PGlite's initdb is not what this test is about.
          const [reference, created] = await Promise.all([uninterrupted(), tiltyardInProcess(crashed.where, 'tournaments')]);
          expect(created.code, created.stderr).toBe(0);
          const total = reference.games;

          let id = '';
          let done = 0;
          const kills: number[] = [];
          for (let k = 0; k < KILLS; k++) {
            // Somewhere in the first half of what is left, so every kill lands before the end.
            const target = done + 1 + Math.floor(random() * Math.max(1, (total - done) / 2 - 1));
            const run = await runUntilKilled(crashed.where, k === 0 ? [...TOURNAMENT, '--commit', backend.commit] : ['tournament', 'resume', id, '--concurrency', '2'], target);
            expect(run.signal, `to be killed after ${target} games: ${run.stderr.slice(-300)}`).toBe('SIGKILL');
            id ||= run.id;
            expect(id).toMatch(/^trn_/);
            const stored = await crashed.withStore(async (s) => (await s.tournaments.get(id)).progress);
            expect(stored.ended).toBeGreaterThanOrEqual(target);
            expect(stored.ended).toBeLessThan(total);
            expect(stored.failed).toBe(0);
            kills.push(stored.ended);
            done = stored.ended;
          }

          const last = await tiltyardWith(crashed.where, 'tournament', 'resume', id, '--json');
          expect(last.code, last.stderr).toBe(0);
          const final = JSON.parse(last.stdout) as Result;
          expect(final).toMatchObject({ games: total, failed: 0, status: 'ended' });
          expect(JSON.stringify(final.standings)).toBe(JSON.stringify(reference.standings));
          await crashed.withStore(async (s) => {
            const games = await s.tournaments.games(id);
            expect(games.length).toBe(total);
            expect(new Set(games.map((g) => g.game_id)).size).toBe(total);
            expect(games.every((g) => g.state === 'ended')).toBe(true);
            for (const g of games) expect((await verifyGame(s, g.game_id)).assertions.filter((a) => a.status !== 'pass')).toEqual([]);
            // The game table holds no stray copies: every stored game is one of the tournament's.
            expect((await s.listGames({}, { limit: 500 })).games.length).toBe(total);
            // The games played after each resume too: the logical clock, byte for byte.
            await expectSameAsUninterrupted(s, games.map((g) => g.game_id));
            // Created to commit step by step, every game was, also those played after a resume (rows in events).
            if (backend.commit === 'step') {
              const [{ n }] = await s.prisma.$queryRaw<[{ n: bigint }]>`SELECT count(DISTINCT game_id) AS n FROM events`;
              expect(Number(n)).toBe(total);
            }
          });
          const contradicting = await tiltyardWith(crashed.where, 'tournament', 'resume', id, '--clock', 'wall');
          expect(contradicting.code, contradicting.stderr).toBe(2);
          expect(contradicting.stderr).toMatch(/--clock logical .*--clock wall/);
          console.info(`tournament crash test on ${backend.name}: ${total} games; SIGKILLed after ${kills.join(', ')} games had ended; resumed to the same standings`);
        } finally {
          await crashed.dispose();
        }
      },
      600_000,
    );
  }
});
