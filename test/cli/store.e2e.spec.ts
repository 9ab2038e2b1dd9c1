import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Placement } from '../../src/protocol/index.js';
import type { RunReport } from '../../src/runner/verify-game.js';
import { openStore } from '../../src/store/index.js';
import { tiltyardInProcess } from './in-process.js';
import { tiltyardWith, type CliRun } from './run-cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-cli-store-'));
const dataDir = join(tmp, 'data');
/** Every command runs in the temp folder (its .reports/ lands there) on its own embedded database. */
const where = { cwd: tmp, env: { TILTYARD_DATA_DIR: dataDir, DATABASE_URL: undefined } };
/** A real `tiltyard` process: each command's first run, and every exit code the suite relies on. */
const cli = (...args: string[]) => tiltyardWith(where, ...args);
/**
 * The same command inside the test process, for the runs whose subject is what a command prints
 * (projections, tables, determinism), not the process: each spawn costs seconds of CPU.
 */
const here = (...args: string[]) => tiltyardInProcess(where, ...args);
const oneLine = (run: CliRun) => {
  expect(run.stderr.endsWith('\n')).toBe(true);
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(/^tiltyard: /);
};

/** SQL on the embedded database between commands (no tiltyard process holds it then). */
async function sql(statement: string): Promise<void> {
  const store = await openStore({ dataDir });
  try {
    await store.prisma.$executeRawUnsafe(statement);
  } finally {
    await store.close();
  }
}

let gameId = '';
let events = 0;
let small = '';

beforeAll(async () => {
  const run = await cli('run', '--seed', '5', '--json');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  ({ gameId, events } = JSON.parse(run.stdout) as { gameId: string; events: number });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('tiltyard run / games / replay / verify on the embedded database', () => {
  it('run --json prints {gameId, events, placements} of the stored game', async () => {
    const run = await here('run', '--seed', '5', '--json');
    const out = JSON.parse(run.stdout) as {
      gameId: string;
      events: number;
      placements: unknown[];
      status: string;
    };
    expect(out.gameId).toMatch(/^game_[0-9a-f]{12}$/);
    expect(out.gameId).not.toBe(gameId);
    // The same seed and line-up play the same game (ids and timestamps aside).
    expect(out.events).toBe(events);
    expect(out.status).toBe('ended');
    // One placement per seat; tied seats share a place, so only the winner's is certain.
    const places = out.placements.map((p) => Placement.parse(p).placement);
    expect(places).toHaveLength(4);
    expect(Math.min(...places)).toBe(1);
  });

  it('run without --json prints a short summary; --clock logical with --game-id stores that game', async () => {
    writeFileSync(join(tmp, 'small.json'), JSON.stringify({ round_cap: 4 }));
    small = 'game_small_cli';
    const run = await cli(
      'run',
      '--seed',
      '6',
      '--agents',
      'random,turtle',
      '--rules-file',
      'small.json',
      '--clock',
      'logical',
      '--game-id',
      small,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Game game_small_cli · seed 6 · 2 seats \(random, turtle\)\n {2}stored in embedded PGlite in .*data\n {2}ended after \d+ rounds/,
    );
    expect(run.stdout).toMatch(/Placements\n +# +seat +agent/);
    expect(run.stdout).toContain(`tiltyard verify ${small}`);
  });

  it('games --json lists both games with seed, agents, status, rounds, last seq and creation time', async () => {
    const run = await cli('games', '--json');
    expect(run.code).toBe(0);
    const games = JSON.parse(run.stdout) as {
      game_id: string;
      seed: number;
      agents: string[];
      status: string;
      rounds: number;
      last_seq: number;
      created_at: string;
    }[];
    expect(games).toHaveLength(3);
    expect(games[0]!.game_id).toBe(small);
    expect(games.find((g) => g.game_id === gameId)).toMatchObject({
      seed: 5,
      agents: ['random', 'balanced', 'aggressor', 'turtle'],
      status: 'ended',
      last_seq: events,
    });
    expect(games.every((g) => g.rounds > 0 && !Number.isNaN(Date.parse(g.created_at)))).toBe(true);
    const table = await here('games');
    expect(table.stdout).toMatch(/^game +seed +agents +status +rounds +last seq +created/);
    expect(table.stdout).toContain('3 games · embedded PGlite');
  });

  it('replay --view spectator hides every hand; a seat sees its own hand only; admin sees the raw state', async () => {
    const at = String(Math.floor(events / 2));
    // One process at a time: the embedded database is locked to the process that opened it.
    const spectator = await cli('replay', gameId, '--at', at, '--view', 'spectator', '--json');
    const seat = await here('replay', gameId, '--at', at, '--view', 'plr_2', '--json');
    const admin = await here('replay', gameId, '--at', at, '--view', 'admin', '--json');
    for (const r of [spectator, seat, admin]) expect(r.code).toBe(0);
    const spec = JSON.parse(spectator.stdout) as {
      seq: number;
      viewer: string;
      world: { players: { hand_count: number }[] };
      private: unknown[];
    };
    expect(spec).toMatchObject({ seq: Number(at), viewer: 'spectator', private: [] });
    expect(spec.world.players.some((p) => p.hand_count > 0)).toBe(true);
    expect(spectator.stdout).not.toContain('"hand":');
    expect(spectator.stdout).not.toContain('"raw":');
    const mine = JSON.parse(seat.stdout) as { private: { player_id: string; hand: unknown[] }[] };
    expect(mine.private.map((p) => p.player_id)).toEqual(['plr_2']);
    expect(seat.stdout.match(/"hand":/g)).toHaveLength(1);
    const all = JSON.parse(admin.stdout) as { private: unknown[]; raw: { seq: number } };
    expect(all.private).toHaveLength(4);
    expect(all.raw.seq).toBe(Number(at));
  });

  it('replay prints a readable table by default, at the last event', async () => {
    const run = await here('replay', gameId);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^Game ${gameId} · seq ${events} of ${events} · round \\d+ · \\w+ · done · seen by spectator\\nPlayers\\n`,
      ),
    );
  });

  it('winprob prints each seat’s chance by name per round and the biggest swings; --json is the REST body; a missing game is one line, exit 1', async () => {
    type Wp = { game_id: string; model: string; view: string; form: string; last_seq: number; points: Array<{ seq: number; round: number; p: Record<string, number> }> };
    const json = await here('winprob', gameId, '--json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as Wp;
    // The game is over and the store is read as an admin would: the omniscient model.
    expect(report).toMatchObject({ game_id: gameId, view: 'researcher', form: 'omniscient', last_seq: events });
    expect(Object.keys(report).sort()).toEqual(['form', 'game_id', 'last_seq', 'model', 'points', 'view']);
    const last = report.points.at(-1)!;
    expect(last.seq).toBe(events);
    // After the end the winners share the whole chance: every seat has that share or nothing.
    const shares = Object.values(last.p);
    expect(shares.every((x) => x === 0 || Math.abs(x - Math.max(...shares)) < 1e-9)).toBe(true);
    for (const pt of report.points) expect(Math.abs(Object.values(pt.p).reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-9);
    const pub = JSON.parse((await here('winprob', gameId, '--json', '--view', 'spectator')).stdout) as Wp;
    expect(pub.form).toBe('public');
    expect(JSON.stringify(pub.points)).not.toBe(JSON.stringify(report.points));
    const text = await here('winprob', gameId);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe(`Win probability of ${gameId} · omniscient model (${report.model}) · view researcher · up to event ${events}`);
    // Seats by display name, never by id; one row per round.
    expect(lines[1]).toMatch(/^ {2}round {2}event {2}\S/);
    expect(text.stdout).not.toMatch(/plr_\d/);
    expect(lines.filter((l) => /^ {2}\d+ +\d+ /.test(l)).length).toBe(new Set(report.points.map((pt) => pt.round)).size);
    expect(text.stdout).toMatch(/\nBiggest swings\n {2}round \d+ +event \d+ +\S.* \d+% → \d+%/);
    const missing = await cli('winprob', 'game_nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('tiltyard: no game game_nope\n');
  });

  it('verify writes a passing RunReport to .reports/<timestamp>.json, prints it, and exits 0', async () => {
    const run = await cli('verify', gameId, '--json');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as RunReport;
    expect(report).toMatchObject({ game_id: gameId, scenario: 'verify', events_checked: events });
    expect(report.assertions.map((a) => [a.name, a.status])).toEqual([
      ['hash chain intact', 'pass'],
      ['seq contiguous from 1', 'pass'],
      ['snapshots equal the fold of the events', 'pass'],
      ['re-simulation reproduces the log', 'pass'],
    ]);
    expect(report.artifacts_path).toMatch(
      /^\.reports\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z(-\d+)?\.json$/,
    );
    expect(Date.parse(report.end_ts)).toBeGreaterThanOrEqual(Date.parse(report.start_ts));
    expect(JSON.parse(readFileSync(join(tmp, report.artifacts_path), 'utf8'))).toEqual(report);
    const readable = await here('verify', small);
    expect(readable.stdout).toMatch(/^verify game_small_cli: 4\/4 assertions pass/);
    expect(readable.stdout).toMatch(
      /✓ re-simulation reproduces the log — \d+ events from the seed and \d+ recorded decisions/,
    );
  });

  it('unknown game ids fail with one line and exit 1; bad flags with one line and exit 2', async () => {
    // Bad flags are refused before the database is opened, so those run side by side.
    const [at, view, clock] = await Promise.all([
      cli('replay', gameId, '--at', '-3'),
      cli('replay', gameId, '--view', 'king'),
      cli('run', '--clock', 'sundial'),
    ]);
    const verify = await cli('verify', 'game_nope');
    const replay = await here('replay', 'game_nope');
    const resume = await here('resume', 'game_nope');
    for (const r of [verify, replay, resume]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('tiltyard: no game game_nope\n');
    }
    for (const r of [at, view, clock]) {
      expect(r.code).toBe(2);
      oneLine(r);
    }
    expect(clock.stderr).toBe('tiltyard: --clock: must be wall or logical, got "sundial"\n');
    const past = await here('replay', gameId, '--at', String(events + 1));
    expect(past.code).toBe(2);
    expect(past.stderr).toBe(`tiltyard: --at: ${gameId} has seqs 0–${events}, got ${events + 1}\n`);
  });

  it('an unreachable DATABASE_URL fails every store command with one clear line, exit 1', async () => {
    const env = { TILTYARD_DATA_DIR: dataDir, DATABASE_URL: 'postgres://127.0.0.1:1/x' };
    // Two real processes; the other commands reach the same connect in the test process.
    const runs = await Promise.all([
      ...[['run', '--seed', '5'], ['games']].map((args) => tiltyardWith({ cwd: tmp, env }, ...args)),
      ...[['verify', gameId], ['replay', gameId], ['resume']].map((args) => tiltyardInProcess({ cwd: tmp, env }, ...args)),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(1);
      oneLine(r);
      expect(r.stderr).toMatch(
        /^tiltyard: nothing accepts connections at 127\.0\.0\.1:1 \(is PostgreSQL running\?\) \[postgres:\/\/127\.0\.0\.1:1\/x\]$/m,
      );
      expect(r.stdout).toBe('');
    }
  });

  it('a tampered event makes verify exit 1, naming the failed assertions; a corrupt event row fails replay with one line', async () => {
    await sql(
      `UPDATE events SET payload = json_build_object('forged', true) WHERE game_id = '${gameId}' AND seq = 7`,
    );
    await sql(
      `UPDATE events SET type = 'no_such_event', payload = '[]' WHERE game_id = '${small}' AND seq = 2`,
    );
    const verify = await cli('verify', gameId, '--json');
    expect(verify.code).toBe(1);
    oneLine(verify);
    expect(verify.stderr).toContain('hash chain intact');
    expect(verify.stderr).toContain('re-simulation reproduces the log');
    const report = JSON.parse(verify.stdout) as RunReport;
    expect(report.assertions.find((a) => a.name === 'hash chain intact')).toMatchObject({
      status: 'fail',
      details: expect.stringContaining('seq 7') as string,
    });
    expect(existsSync(join(tmp, report.artifacts_path))).toBe(true);
    const replay = await here('replay', small, '--at', '3');
    expect(replay.code).toBe(1);
    oneLine(replay);
    expect(replay.stderr).toMatch(
      /^tiltyard: game_small_cli: the stored rows do not rebuild a state at seq 3 \(a corrupt row\?\)/,
    );
  });
});
