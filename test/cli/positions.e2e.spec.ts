import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportRecord } from '../../src/research/export-record.js';
import type { PairedComparison } from '../../src/research/position-compare.js';
import type { PositionsReport } from '../../src/research/position-report.js';
import { PositionRecord, positionRecordJsonSchema } from '../../src/research/position-record.js';
import { tiltyardInProcess } from './in-process.js';
import { tiltyardWith, type CliRun } from './run-cli.js';

/**
 * `tiltyard positions extract` over a small stored tournament of cheap built-ins (full windows, so
 * the expert's action windows exist), then `positions eval` over the bank it wrote. Few positions
 * and two worlds each: this file checks the commands, not the figures (positions-bank.slow.spec.ts
 * does those over the shipped bank).
 */
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-positions-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const where = { cwd: tmp, env: { TILTYARD_DATA_DIR: join(tmp, 'data'), DATABASE_URL: undefined } };
const here = (...args: string[]): Promise<CliRun> => tiltyardInProcess(where, ...args);

const TOURNAMENT = ['tournament', '--agents', 'random,balanced,aggressor,turtle', '--seats', '4', '--seeds', '1', '--games', '4', '--clock', 'logical', '--seed', '9', '--json'];
const EXTRACT = ['--every', '60', '--limit', '4', '--worlds', '2', '--seed', '5'];

let tournamentId = '';
const bank = join(tmp, 'bank.jsonl');

beforeAll(async () => {
  const t = await here(...TOURNAMENT);
  expect(t.code, t.stderr).toBe(0);
  tournamentId = (JSON.parse(t.stdout) as { tournament_id: string }).tournament_id;
}, 600_000);

describe('tiltyard positions extract', () => {
  it('writes schema-valid positions whose requests are the seats’ own, scored move by move, the same bytes every run', async () => {
    const run = await tiltyardWith(where, 'positions', 'extract', '--tournament', tournamentId, ...EXTRACT, '--out', bank);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^positions: game_t_\S+ \(1\/4\) · \d+ positions\n/);
    expect(run.stderr).toMatch(/extracted 4 positions from \d games to /);
    const text = readFileSync(bank, 'utf8');
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(lines).toHaveLength(4);

    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../docs/schemas/position-record.schema.json'), 'utf8')) as Record<string, unknown>;
    expect(schema).toEqual(positionRecordJsonSchema());
    const validate = new Ajv({ allErrors: true }).compile(schema);
    const positions = lines.map((l) => {
      expect(validate(l), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
      return PositionRecord.parse(l);
    });

    // The request is the one the seat got: export rebuilds the same decision's request.
    const exported = await here('export', '--tournament', tournamentId);
    expect(exported.code, exported.stderr).toBe(0);
    const records = exported.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as ExportRecord);
    for (const p of positions) {
      const r = records.find((x) => x.game_id === p.game_id && x.seq === p.seq && x.attempt === 1)!;
      expect(r.window).toBe('action');
      expect(p.request).toEqual(r.request);
      expect(p.agent).toBe(r.agent);
      expect(p.options.at(-1)!.key).toBe('pass');
      expect(p.options.find((o) => o.key === p.best)!.value).toBe(Math.max(...p.options.map((o) => o.value)));
      expect(p.played === null || p.options.some((o) => o.key === p.played)).toBe(true);
      expect(p.scoring).toEqual({ worlds: 2, kept: 2, horizon: 1, seed: 5 });
    }

    const again = await here('positions', 'extract', '--tournament', tournamentId, ...EXTRACT);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(text);
  }, 600_000);

  it('refuses bad flags with exit 2', async () => {
    expect((await here('positions', 'extract', '--tournament', tournamentId, '--games', 'game_x')).code).toBe(2);
    expect((await here('positions', 'extract', '--every', '0')).code).toBe(2);
    expect((await here('positions', 'extract', '--min-spread', '-1')).stderr).toBe('tiltyard: --min-spread: must be a number ≥ 0, got "-1"\n');
    expect((await here('positions', 'frobnicate')).code).toBe(2);
  });
});

describe('tiltyard positions eval', () => {
  it('asks a built-in and llm:mock one decision a position and reports regret, agreement and legality with intervals', async () => {
    const spawned = await tiltyardWith(where, 'positions', 'eval', '--agent', 'balanced', '--bank', bank, '--json');
    expect(spawned.code, spawned.stderr).toBe(0);
    expect(spawned.stderr).toMatch(/positions eval balanced: 4\/4\n/);
    const report = JSON.parse(spawned.stdout) as PositionsReport;
    expect(report).toMatchObject({ agent: 'balanced', bank: 'bank.jsonl', positions: 4, answered: 4, illegal: 0, failed: 0 });
    expect(report.legality).toMatchObject({ value: 1 });
    expect(report.legality!.low).toBeLessThan(1);
    expect(report.mean_regret!.low).toBeLessThanOrEqual(report.mean_regret!.value);
    expect(report.results.map((r) => r.position_id)).toEqual(readFileSync(bank, 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as { position_id: string }).position_id));

    const mock = await here('positions', 'eval', '--agent', 'llm:mock', '--bank', bank, '--json');
    expect(mock.code, mock.stderr).toBe(0);
    const m = JSON.parse(mock.stdout) as PositionsReport;
    expect(m).toMatchObject({ agent: 'llm:mock', positions: 4, failed: 0 });
    expect((await here('positions', 'eval', '--agent', 'llm:mock', '--bank', bank, '--json')).stdout).toBe(mock.stdout);

    const text = await here('positions', 'eval', '--agent', 'random', '--bank', bank);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^random on bank\.jsonl: 4 positions, one decision each\n {2}mean regret +[\d.]+ {2}\[[\d.]+, [\d.]+\]/);
    expect(text.stdout).toMatch(/legality +[\d.]+% {2}\[/);

    const paired = await here('positions', 'eval', '--agent', 'balanced', '--against', 'random', '--bank', bank, '--json');
    expect(paired.code, paired.stderr).toBe(0);
    const both = JSON.parse(paired.stdout) as PositionsReport & { against: PositionsReport; paired: PairedComparison };
    expect(both.against).toMatchObject({ agent: 'random', positions: 4 });
    expect(both.paired).toMatchObject({ agent: 'balanced', against: 'random', positions: 4 });
    expect(both.paired.mean_difference.value).toBeCloseTo(both.mean_regret!.value - both.against.mean_regret!.value, 5);
    expect((await here('positions', 'eval', '--agent', 'balanced', '--against', 'random', '--bank', bank)).stdout).toMatch(/\nbalanced − random: regret difference /);
  }, 600_000);

  it('refuses a missing agent, an unknown one and a bank line that is not a position (exit 2, naming the line)', async () => {
    expect((await here('positions', 'eval', '--bank', bank)).code).toBe(2);
    expect((await here('positions', 'eval', '--agent', 'nobody', '--bank', bank)).code).toBe(2);
    const same = await here('positions', 'eval', '--agent', 'balanced', '--against', 'balanced', '--bank', bank);
    expect([same.code, same.stderr]).toEqual([2, 'tiltyard: --against: must name another agent than --agent\n']);
    expect((await here('positions', 'eval', '--agent', 'balanced', '--bank', bank, '--limit', '0')).code).toBe(2);
    const bad = join(tmp, 'bad.jsonl');
    writeFileSync(bad, `${readFileSync(bank, 'utf8').split('\n')[0]}\n{"position_version":1}\n`);
    const run = await here('positions', 'eval', '--agent', 'balanced', '--bank', bad);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/bad\.jsonl line 2: not a position record/);
  });
});
