import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer, until } from '../server/spawn-server.js';
import { tiltyardInProcess } from './in-process.js';
import { tiltyardWith, type CliRun } from './run-cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-shared-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A user's machine: HOME and the working directory are a fresh folder, the database the default
 * ./data (no TILTYARD_DATA_DIR, no DATABASE_URL), nothing of this environment's settings.
 */
const home = (name: string) => {
  const dir = join(tmp, name);
  mkdirSync(dir);
  return dir;
};
const ENV = {
  TILTYARD_DATA_DIR: undefined,
  DATABASE_URL: undefined,
  PORT: undefined,
  HOST: undefined,
  TILTYARD_DEMO: undefined,
  TILTYARD_DEMO_AGENTS: undefined,
  TILTYARD_PACE_MS: undefined,
  TILTYARD_ADMIN_TOKEN: undefined,
  TILTYARD_RESEARCHER_TOKEN: undefined,
  TILTYARD_LOG: undefined,
};
const cli = (cwd: string, ...args: string[]): Promise<CliRun> => tiltyardWith({ cwd, env: { ...ENV, HOME: cwd } }, ...args);
/**
 * The same command in the test process: for the set-up and the reference outputs on a database no
 * server holds (what is compared is the output; the processes beside the server are real).
 */
const here = (cwd: string, ...args: string[]): Promise<CliRun> => tiltyardInProcess({ cwd, env: { ...ENV, HOME: cwd } }, ...args);

/**
 * Exit 0; the output as a user compares it: verify names its report file by the time it ran, run
 * says how long it took and where it stored the game (this folder or the reference's).
 */
const ok = (run: CliRun, what: string): string => {
  expect(run.code, `${what}: ${run.stderr}`).toBe(0);
  return run.stdout
    .replace(/^report: \.reports\/\S+\.json$/m, 'report: <file>')
    .replace(/ stored in [\d.]+ s$/m, ' stored in <t> s')
    .replaceAll(tmp, '<tmp>')
    .replace(/<tmp>\/(alone|user)\//g, '<tmp>/<home>/');
};
const RUN_A = ['run', '--seed', '5', '--seats', '3', '--game-id', 'game_shared_a', '--clock', 'logical'];
const RUN_B = ['run', '--seed', '9', '--seats', '4', '--game-id', 'game_shared_b', '--clock', 'logical'];
const readers = (id: string) => [['replay', id], ['verify', id]];

describe('the CLI beside a running server, on the embedded database', () => {
  it('given `tiltyard serve` holding ./data, then games, run, replay and verify succeed with the output they give without a server, and the run is the server\'s game', async () => {
    // The reference: the same commands on a database no server holds.
    const alone = home('alone');
    const runB = ok(await here(alone, ...RUN_B), 'run alone');

    const user = home('user');
    ok(await here(user, ...RUN_A), 'run before the server');
    const server = await spawnServer({ ...ENV, HOME: user }, ['--no-demo'], { cwd: user });
    let withServer: Record<string, string>;
    try {
      // The server serves its database on a socket only this user may use, named in its lock file.
      const lock = JSON.parse(readFileSync(join(user, 'data', 'pglite.lock'), 'utf8')) as { pid: number; socket: string };
      expect(lock).toEqual({ pid: server.child.pid, socket: join(user, 'data', 'pglite.socket') });
      expect(statSync(lock.socket).mode & 0o777).toBe(0o700);
      expect(statSync(join(lock.socket, '.s.PGSQL.5432')).mode & 0o777).toBe(0o600);

      withServer = { run: ok(await cli(user, ...RUN_B), 'run beside the server') };
      expect(withServer['run']).toBe(runB);
      // Stored in the server's database: its API lists the game the CLI just played.
      const listed = (await (await fetch(`${server.url}/games`)).json()) as { games: Array<{ game_id: string; status: string }> };
      expect(listed.games.map((g) => [g.game_id, g.status]).sort()).toEqual([['game_shared_a', 'ended'], ['game_shared_b', 'ended']]);
      withServer['games'] = ok(await cli(user, 'games'), 'games beside the server');
      for (const args of [...readers('game_shared_a'), ...readers('game_shared_b')]) withServer[args.join(' ')] = ok(await cli(user, ...args), `${args.join(' ')} beside the server`);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect((await server.exited).code).toBe(0);
    // A clean stop leaves neither its lock nor its socket behind.
    expect(existsSync(join(user, 'data', 'pglite.lock'))).toBe(false);
    expect(existsSync(join(user, 'data', 'pglite.socket'))).toBe(false);

    // The same database without the server: every output is the same.
    expect(ok(await here(user, 'games'), 'games alone')).toBe(withServer['games']);
    expect(withServer['games']).toMatch(/^game_shared_a /m);
    expect(withServer['games']).toMatch(/^game_shared_b /m);
    for (const args of [...readers('game_shared_a'), ...readers('game_shared_b')]) expect(ok(await here(user, ...args), args.join(' ')), args.join(' ')).toBe(withServer[args.join(' ')]);
    expect(withServer['verify game_shared_b']).toBe(ok(await here(alone, 'verify', 'game_shared_b'), 'verify alone'));
    expect(withServer['replay game_shared_b']).toBe(ok(await here(alone, 'replay', 'game_shared_b'), 'replay alone'));
  }, 600_000);

  it('given the server as npm start runs it (demo on), then `games` lists the demo game; after the server is killed, its stale lock and socket do not stop the CLI or the next server', async () => {
    const user = home('demo');
    const server = await spawnServer({ ...ENV, HOME: user }, [], { cwd: user });
    // Waits on the server's API (a request, not a CLI process each time), then asks the CLI once.
    await until('the demo game listed by the server', async () => {
      const listed = (await (await fetch(`${server.url}/games`)).json()) as { games: unknown[] };
      return listed.games.length > 0 ? true : undefined;
    }, 120_000, 200);
    const run = await cli(user, 'games');
    expect(run.code, run.stderr).toBe(0);
    const games = run.stdout;
    expect(games).toMatch(/balanced,aggressor,manipulator,trickster\s+(created|running)/);
    expect(games).toMatch(/^1 games · embedded PGlite in /m);

    server.child.kill('SIGKILL');
    await server.exited;
    expect(existsSync(join(user, 'data', 'pglite.lock'))).toBe(true);
    // The holder is dead: the CLI takes the database over and reads it directly.
    const after = await cli(user, 'games');
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/balanced,aggressor,manipulator,trickster/);
    const again = await spawnServer({ ...ENV, HOME: user }, ['--no-demo'], { cwd: user });
    try {
      const run = await cli(user, 'games');
      expect(run.code, run.stderr).toBe(0);
    } finally {
      again.child.kill('SIGTERM');
    }
    expect((await again.exited).code).toBe(0);
  }, 600_000);
});
