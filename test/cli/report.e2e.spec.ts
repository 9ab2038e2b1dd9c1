import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tiltyardInProcess } from './in-process.js';
import { tiltyardWith, type CliRun } from './run-cli.js';

/**
 * `tiltyard report` as users run it: a small round-robin stored in a temp data folder, then its
 * report as text (the real bin over dist/), JSON and CSV (in the test process, the same main()).
 */
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-report-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const where = { cwd: tmp, env: { TILTYARD_DATA_DIR: join(tmp, 'data'), DATABASE_URL: undefined } };
const cli = (...args: string[]): Promise<CliRun> => tiltyardWith(where, ...args);
const here = (...args: string[]): Promise<CliRun> => tiltyardInProcess(where, ...args);

type Row = { target: string | null; emotional_intent: string; samples: number; attack_shift: { value: number; low: number; high: number } | null; status: string; clusters: number; few_samples: boolean };
type View = {
  tournament_id: string;
  status: string;
  games_counted: number;
  report: { games: number; agents: Array<{ agent: string; tilt_resilience: { manipulated_games: number; other_games: number; status: string; placement_delta: number | null; placement_delta_ci: { low: number } | null } }>; choice_shift: { by_intent: Row[]; by_target: Row[] } };
};

describe('tiltyard report', () => {
  let id = '';
  beforeAll(async () => {
    const t = await here('tournament', '--agents', 'balanced,aggressor,manipulator,trickster,turtle', '--seats', '4', '--format', 'round-robin', '--seeds', '1', '--games', '8', '--seed', '3', '--compact', '--json');
    expect(t.code, t.stderr).toBe(0);
    id = (JSON.parse(t.stdout) as { tournament_id: string }).tournament_id;
  }, 600_000);

  it('prints the research report as sentences and tables, with the emotion → choice shifts per intent and per target', async () => {
    const r = await cli('report', id);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`Tournament ${id} (ended): research report over 8 games.`);
    expect(r.stdout).toMatch(/^Agents \(best mean placement first\)$/m);
    expect(r.stdout).toMatch(/^Tilt resilience/m);
    expect(r.stdout).toMatch(/^Emotion → choice/m);
    expect(r.stdout).toMatch(/^ {2}Targets made afraid( attack|: )/m);
    expect(r.stdout).toMatch(/^By target agent$/m);
    expect(r.stdout).toMatch(/attack shift \[95% CI\]/);
    expect(r.stdout).toMatch(/delta \[95% CI\]/);
    expect(r.stdout).toMatch(/samples +groups +attacks after/);
    expect(r.stdout).toMatch(/"few": under 20 samples or 10 groups/);
    expect(r.stdout).toMatch(/^Who manipulated whom/m);
    // Win probability added per agent: every decision, then each window, in percentage points.
    expect(r.stdout).toMatch(/^Win probability added/m);
    expect(r.stdout).toMatch(/every decision \[95% CI\] +intent +talk +action +reaction +reflect/);
    expect(r.stdout).toMatch(/^ {2}balanced +[\d,]+ +[+−]\d+\.\d\d pp \[/m);
    // Text, not a JSON dump.
    expect(r.stdout).not.toMatch(/[{}]/);
  }, 300_000);

  it('--json is the whole report (the server’s shape) with the shifts, deterministic; --csv prints one table', async () => {
    const [a, b] = [await here('report', id, '--json'), await here('report', id, '--json')];
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const view = JSON.parse(a.stdout) as View;
    expect(view).toMatchObject({ tournament_id: id, status: 'ended', games_counted: 8, report: { games: 8 } });
    expect(view.report.agents.map((x) => x.agent).sort()).toEqual(['aggressor', 'balanced', 'manipulator', 'trickster', 'turtle']);
    for (const x of view.report.agents) expect(x.tilt_resilience.manipulated_games + x.tilt_resilience.other_games).toBeGreaterThan(0);
    const { by_intent, by_target } = view.report.choice_shift;
    expect(by_intent.map((x) => x.emotional_intent)).toEqual(['fear', 'anger', 'shame', 'tilt', 'overconfidence', 'paranoia']);
    expect(by_target).toHaveLength(5 * 6);
    // The pooled samples are the per-target samples added up; a row has its interval when its samples
    // come from 5 samples and 3 duplicate groups. 8 games of 4 rotations are 2 deals: dozens of samples,
    // but too few groups for any interval (resampled as if independent, they used to get one).
    for (const row of by_intent) expect(by_target.filter((x) => x.emotional_intent === row.emotional_intent).reduce((n, x) => n + x.samples, 0)).toBe(row.samples);
    expect(by_intent.some((x) => x.samples >= 5)).toBe(true);
    for (const row of [...by_intent, ...by_target]) {
      expect(row.status, JSON.stringify(row)).toBe(row.samples >= 5 && row.clusters >= 3 ? 'ok' : 'not_enough_samples');
      if (row.status === 'ok') expect(row.attack_shift!.low).toBeLessThanOrEqual(row.attack_shift!.high);
      else expect(row.attack_shift).toBeNull();
    }
    // Intervals resample duplicate groups: a row's groups are at most its samples, and at most the 8 games'
    // groups; a cell with few samples or groups is flagged (8 games: every cell is).
    for (const row of [...by_intent, ...by_target]) {
      expect(row.clusters).toBeLessThanOrEqual(Math.min(row.samples, 8));
      expect(row.few_samples).toBe(true);
    }
    for (const x of view.report.agents) {
      const t = x.tilt_resilience;
      if (t.placement_delta === null) expect(t.placement_delta_ci).toBeNull();
      else expect(t.placement_delta_ci!.low).toBeLessThanOrEqual(t.placement_delta);
    }

    const csv = await here('report', id, '--csv', '--table', 'shifts');
    expect(csv.code, csv.stderr).toBe(0);
    const lines = csv.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^target,emotional_intent,samples,attack_share_after,attack_share_baseline,attack_shift,attack_shift_low,attack_shift_high,/);
    expect(lines).toHaveLength(1 + 6 + 30);
    expect((await here('report', id, '--csv')).stdout.split('\n')[0]).toMatch(/^agent,games,wins,/);
    // WPA: a row per agent and kind; each agent's windows add up to its every-decision row.
    const wpa = (view.report as unknown as { wpa: Array<{ agent: string; kind: string; decisions: number; mean: { low: number; high: number } }> }).wpa;
    for (const agent of ['aggressor', 'balanced', 'manipulator', 'trickster', 'turtle']) {
      const rows = wpa.filter((x) => x.agent === agent);
      expect(rows[0]).toMatchObject({ kind: 'all', decisions: expect.any(Number) });
      expect(rows.slice(1).reduce((n, x) => n + x.decisions, 0)).toBe(rows[0]!.decisions);
      for (const x of rows) expect(x.mean.low).toBeLessThanOrEqual(x.mean.high);
    }
    const wpaCsv = await here('report', id, '--csv', '--table', 'wpa');
    expect(wpaCsv.stdout.split('\n')[0]).toBe('agent,kind,games,decisions,wpa,wpa_low,wpa_high');
    expect(wpaCsv.stdout.trimEnd().split('\n')).toHaveLength(1 + wpa.length);
  }, 300_000);

  it('an unknown tournament id is one line and exit 1', async () => {
    const r = await cli('report', 'trn_nope');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tiltyard: no tournament trn_nope in embedded PGlite in .+ \(tiltyard tournaments lists them\)\n$/);
  }, 300_000);

  it.each([
    [['report'], /^tiltyard: expected one tournament id/],
    [['report', 'a', 'b'], /^tiltyard: expected one tournament id .*got 2 arguments$/],
    [['report', 'trn_x', '--json', '--csv'], /^tiltyard: --json and --csv exclude each other$/],
    [['report', 'trn_x', '--table', 'pairs'], /^tiltyard: --table goes with --csv/],
    [['report', 'trn_x', '--csv', '--table', 'nope'], /^tiltyard: --table: must be agents, pairs, plans, intents, ledger, shifts or wpa, got "nope"$/],
    [['report', 'trn_x', '--frobnicate'], /^tiltyard: unknown flag --frobnicate$/],
  ] as Array<[string[], RegExp]>)('%j exits 2 with one line', async (args, line) => {
    const r = await here(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd()).toMatch(line);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('documents its flags in --help and is listed with the commands', async () => {
    const r = await here('report', '--help');
    for (const flag of ['<tournament id>', '--json', '--csv', '--table']) expect(r.stdout).toContain(flag);
    expect((await here('--help')).stdout).toMatch(/^ {2}report +print a tournament's research report/m);
  });
});
