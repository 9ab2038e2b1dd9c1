import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillDisk, smallDisk } from '../store/fs-faults.js';
import { openPostgresStore, postgresAvailable, type TestStore } from '../store/support.js';
import { tiltyard, tiltyardWith } from './run-cli.js';

const RANGE = 'must be a whole number from 0 to 9007199254740991 (2^53 − 1)';

describe('seeds on the command line: the range the API takes, said in one line', () => {
  it.each([
    [['play', '--seed', '-1'], `tiltyard: --seed: ${RANGE}, got -1\n`],
    [['play', '--seed=-1'], `tiltyard: --seed: ${RANGE}, got -1\n`],
    [['run', '--seed', '99999999999999999999'], `tiltyard: --seed: ${RANGE}, got 100000000000000000000\n`],
    [['simulate', '--seed', '9007199254740991', '--games', '2'], 'tiltyard: --seed: must be at most 9007199254740990 for 2 games (game g is played with seed + g, and seeds end at 2^53 − 1)\n'],
  ])('%j', async (args, message) => {
    const run = await tiltyard(...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(message);
  });

  it('the largest seed plays', async () => {
    const run = await tiltyard('play', '--seed', String(Number.MAX_SAFE_INTEGER), '--json');
    expect(run.code).toBe(0);
  });
});

describe('resume of a game that has ended', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-cli-resume-ended-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const cli = (...args: string[]) => tiltyardWith({ cwd: tmp, env: { TILTYARD_DATA_DIR: join(tmp, 'data'), DATABASE_URL: undefined } }, ...args);

  it('says it has ended and that nothing was resumed', async () => {
    const run = await cli('run', '--seed', '5', '--json');
    expect(run.code).toBe(0);
    const { gameId, events } = JSON.parse(run.stdout) as { gameId: string; events: number };
    const resume = await cli('resume', gameId);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toMatch(new RegExp(`already ended after \\d+ rounds \\([a-z ]+\\) at seq ${events}: nothing to resume`));
    expect(resume.stdout).not.toContain('resumed');
    expect(resume.stdout).not.toContain('0 events stored');
  });
});

/** A port nothing listens on (it was free a moment ago, and nothing here listens on it since). */
const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe.runIf(await postgresAvailable())('an unreachable Redis, said with its URL and the cause', () => {
  let db: TestStore & { url: string };
  let port: number;
  beforeAll(async () => {
    [db, port] = await Promise.all([openPostgresStore(), freePort()]);
  });
  afterAll(() => db?.dispose());
  const withRedis = (...args: string[]) => tiltyardWith({ env: { DATABASE_URL: db.url, REDIS_URL: `redis://:hunter2@127.0.0.1:${port}`, TILTYARD_LOG: 'silent' } }, ...args);

  it.each([
    ['worker', ['worker']],
    ['tournament', ['tournament', '--agents', 'random,balanced', '--seeds', '1']],
    ['serve', ['serve', '--port', '0', '--no-demo']],
  ])('%s exits 1 naming the Redis (password hidden) and that nothing listens there', async (_, args) => {
    const run = await withRedis(...args);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`tiltyard: cannot reach Redis at redis://:***@127.0.0.1:${port} (REDIS_URL): nothing accepts connections at 127.0.0.1:${port} (ECONNREFUSED; is Redis running?)\n`);
    expect(run.stderr).not.toContain('hunter2');
    expect(run.stderr).not.toContain('unexpected error');
  });
});

describe('a tournament whose disk fills up', () => {
  // The embedded database (~40 MB) on a tmpfs that then fills up for real (root only).
  const disk = smallDisk(96 * 1024 * 1024);
  afterAll(() => disk?.dispose());

  it.runIf(disk)('says it stopped, why, and how to go on; `tiltyard tournaments` lists it stopped with no game failed', async () => {
    const { dir } = disk!;
    // Hot games (stored step by step), so the disk fills within the first game.
    const cli = (...args: string[]) => tiltyardWith({ cwd: dir, env: { TILTYARD_DATA_DIR: dir, DATABASE_URL: undefined, REDIS_URL: undefined, TILTYARD_COMPACT: 'off' } }, ...args);
    expect((await cli('tournaments')).code).toBe(0);
    fillDisk(dir, 256 * 1024);
    const run = await cli('tournament', '--agents', 'balanced,aggressor,turtle', '--seats', '2', '--seeds', '2', '--json');
    expect(run.code).toBe(1);
    const id = /tournament (trn_\w+) stopped/.exec(run.stderr)?.[1];
    expect(run.stderr).toMatch(new RegExp(`^tiltyard: tournament ${id} stopped \\(status stopped\\), [\\w.]+: the database at ${join(dir, 'pglite')} is out of disk space \\(no space left on device: ENOSPC / disk_full 53100; free space there\\): .+; once there is room, continue it with \`tiltyard tournament resume ${id}\`$`, 'm'));
    const list = JSON.parse((await cli('tournaments', '--json')).stdout) as { tournament_id: string; status: string; progress: { failed: number } }[];
    expect(list.map((t) => [t.tournament_id, t.status, t.progress.failed])).toEqual([[id, 'stopped', 0]]);
  });
});

describe('serve with REDIS_URL but no DATABASE_URL', () => {
  it('is refused as a usage error before any database is opened, saying what to set', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-cli-scale-no-db-'));
    try {
      const run = await tiltyardWith({ cwd: tmp, env: { TILTYARD_DATA_DIR: join(tmp, 'data'), DATABASE_URL: undefined, REDIS_URL: 'redis://127.0.0.1:6379' } }, 'serve', '--port', '0');
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('tiltyard: REDIS_URL is set, so games run on workers, but DATABASE_URL is not: workers and API nodes must share one PostgreSQL (the embedded PGlite database lives in this process only). Set DATABASE_URL, or unset REDIS_URL to play games in this process.\n');
      expect(existsSync(join(tmp, 'data'))).toBe(false);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
