import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PlayWorkers } from '../../src/tournament/play-workers.js';
import { tiltyardInProcess } from './in-process.js';
import { tiltyardWith, type CliRun } from './run-cli.js';

/**
 * `tiltyard tournament`, `tournament resume`, `tournaments` and `standings` as users run them (the
 * real bin over dist/, on an embedded database in a temp folder). The issue's command runs with
 * fewer games (--seeds 1 --games 8 --compact) so the test fits a loaded machine.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-tcli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const where = { cwd: tmp, env: { TILTYARD_DATA_DIR: join(tmp, 'data'), DATABASE_URL: undefined } };
const cli = (...args: string[]): Promise<CliRun> => tiltyardWith(where, ...args);
/**
 * The same command in the test process, where what is checked is the output and not the process
 * (each command keeps a spawned run here): a spawn costs a node start and a cold database.
 */
const here = (...args: string[]): Promise<CliRun> => tiltyardInProcess(where, ...args);

const ISSUE = ['tournament', '--agents', 'random,balanced,aggressor,turtle,manipulator,trickster', '--seats', '4', '--format', 'round-robin', '--seeds', '1', '--games', '8', '--compact', '--json'];

type Result = { tournament_id: string; status: string; games: number; failed: number; standings: Array<{ agent: string; games: number; wpa?: unknown }> };

describe('tiltyard tournament', () => {
  it('run twice with the same --seed, prints identical standings; tournaments and standings show them', async () => {
    const a = await cli(...ISSUE, '--seed', '7');
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toBe('');
    // The second run in the test process: the first is the spawned one; what is compared is the output.
    const b = await here(...ISSUE, '--seed', '7');
    expect(b.code, b.stderr).toBe(0);
    const [ra, rb] = [JSON.parse(a.stdout) as Result, JSON.parse(b.stdout) as Result];
    expect(ra).toMatchObject({ status: 'ended', games: 8, failed: 0 });
    expect(ra.tournament_id).not.toBe(rb.tournament_id);
    expect(JSON.stringify(rb.standings)).toBe(JSON.stringify(ra.standings));
    expect(ra.standings.map((s) => s.agent).sort()).toEqual(['aggressor', 'balanced', 'manipulator', 'random', 'trickster', 'turtle']);
    expect(ra.standings.reduce((n, s) => n + s.games, 0)).toBe(8 * 4);
    // The skill figure beside the rating: each entrant that played has a mean WPA per decision with its interval.
    expect(ra.standings.filter((s) => s.games > 0).length).toBeGreaterThan(0);
    for (const s of ra.standings) expect(s.wpa, s.agent).toEqual(s.games > 0 ? { value: expect.any(Number), low: expect.any(Number), high: expect.any(Number) } : null);

    const list = await cli('tournaments', '--json');
    expect(list.code).toBe(0);
    const ids = (JSON.parse(list.stdout) as Array<{ tournament_id: string; status: string; progress: { ended: number } }>).map((t) => [t.tournament_id, t.status, t.progress.ended]);
    expect(ids).toEqual([
      [rb.tournament_id, 'ended', 8],
      [ra.tournament_id, 'ended', 8],
    ]);
    const json = await cli('standings', ra.tournament_id, '--json');
    expect(JSON.stringify((JSON.parse(json.stdout) as Result).standings)).toBe(JSON.stringify(ra.standings));
    const csv = await here('standings', ra.tournament_id, '--csv');
    const lines = csv.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('rank,agent,mu,sigma,rating_low,rating_high,games,wins,mean_placement,win_rate,win_rate_low,win_rate_high,placement,placement_low,placement_high,wpa,wpa_low,wpa_high,wpa_decisions');
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(ra.standings.map((s) => s.agent));
    const text = await here('standings', ra.tournament_id);
    expect(text.stdout).toMatch(/rating \[95% CI\]/);
    expect(text.stdout).toMatch(/WPA\/decision, pp/);
    expect(text.stdout).toContain(ra.standings[0]!.agent);
    // --refit: the table recomputed from the stored results alone equals the stored one, and says so.
    const refit = await here('standings', ra.tournament_id, '--refit', '--json');
    expect(refit.code, refit.stderr).toBe(0);
    const rf = JSON.parse(refit.stdout) as Result & { refit: unknown };
    expect(JSON.stringify(rf.standings)).toBe(JSON.stringify(ra.standings));
    expect(rf.refit).toEqual({ results: 8, resamples: 1000, equals_stored: true, differing: [], max_mu_diff: 0 });
    expect((await here('standings', ra.tournament_id, '--refit')).stdout).toMatch(/^Refit from 8 stored results \(one fit, 1000 resamples\): equal to the stored table, field for field\.$/m);
    // An ended tournament resumed plays nothing more.
    const again = await here('tournament', 'resume', ra.tournament_id, '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'ended', games: 8 });
    // Played on worker threads (the games stored whole are played and hashed there): the same.
    const threadsBefore = PlayWorkers.started;
    const threaded = await here(...ISSUE, '--seed', '7', '--workers', '2', '--concurrency', '3');
    expect(threaded.code, threaded.stderr).toBe(0);
    expect(PlayWorkers.started - threadsBefore).toBe(2);
    expect(JSON.stringify((JSON.parse(threaded.stdout) as Result).standings)).toBe(JSON.stringify(ra.standings));
    // Games side by side get one thread by default; one game at a time none.
    for (const [concurrency, threads] of [['2', 1], ['1', 0]] as const) {
      const before = PlayWorkers.started;
      const r = await here(...ISSUE, '--seed', '7', '--concurrency', concurrency);
      expect(r.code, r.stderr).toBe(0);
      expect(PlayWorkers.started - before, `--concurrency ${concurrency}`).toBe(threads);
    }
  }, 600_000);

  // The first row in a spawned process, the others in the test process (flag checks).
  it.each(([
    [['tournament', '--seats', '4'], /^tiltyard: --agents is required/],
    [['tournament', '--agents', 'random,balanced', '--seats', '4'], /^tiltyard: --agents: needs at least 4 entrants for 4 seats, got 2$/],
    [['tournament', '--agents', 'random,balanced,nobody', '--seats', '2'], /^tiltyard: --agents: unknown agent "nobody"/],
    [['tournament', '--agents', 'random,balanced,turtle', '--format', 'knockout'], /^tiltyard: --format: must be one of round-robin, swiss, gauntlet, got "knockout"$/],
    [['tournament', '--agents', 'random,balanced,turtle', '--seats', 'two'], /^tiltyard: --seats: must be a whole number, got "two"$/],
    [['tournament', '--agents', 'random,balanced,turtle', '--seats', '2', '--concurrency', '0'], /^tiltyard: --concurrency: must be at least 1, got 0$/],
    [['tournament', '--agents', 'random,balanced,turtle', '--seats', '2', '--workers', 'many'], /^tiltyard: --workers: must be a whole number, got "many"$/],
    [['tournament', '--agents', 'random,balanced,turtle', '--seats', '2', '--workers', '17'], /^tiltyard: --workers: at most 16, got 17$/],
    [['tournament', '--agents', 'random,balanced,turtle', '--seats', '2', '--rounds', '2'], /^tiltyard: --rounds: only swiss plays rounds/],
    [['tournament', '--agents', 'random,balanced,turtle', '--bogus'], /^tiltyard: unknown flag --bogus$/],
    [['tournament', 'resume'], /^tiltyard: expected one tournament id/],
    [['standings'], /^tiltyard: expected one tournament id/],
    [['standings', 'trn_x', '--json', '--csv'], /^tiltyard: --json and --csv exclude each other$/],
  ] as Array<[string[], RegExp]>).map(([args, line], i) => [args, line, i === 0 ? cli : here] as const))('%j exits 2 with one line', async (args, line, run) => {
    const r = await run(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd()).toMatch(line);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  }, 180_000);

  it('an unknown tournament is a runtime error (exit 1, one line)', async () => {
    for (const [args, run] of [[['standings', 'trn_nope'], cli], [['tournament', 'resume', 'trn_nope'], here]] as const) {
      const r = await run(...args);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('tiltyard: no tournament trn_nope\n');
    }
  }, 300_000);

  it('documents every flag in --help', async () => {
    const r = await cli('tournament', '--help');
    for (const flag of ['--agents', '--seats', '--format', '--seeds', '--games', '--seed', '--concurrency', '--workers', '--stop-when-separated', '--compact', '--json', 'resume <id>']) expect(r.stdout).toContain(flag);
    expect((await cli('--help')).stdout).toMatch(/tournament .*\n.*tournaments .*\n.*standings /);
  }, 180_000);
});
