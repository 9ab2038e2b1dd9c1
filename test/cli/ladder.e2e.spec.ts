/**
 * `tiltyard ladder` end to end, through the real bin on an embedded database: a ladder of built-ins
 * in compact windows run in two stretches with a newcomer added between them, once straight
 * through and once SIGKILLed mid-deal and resumed. The resumed ladder's standings and rating
 * history equal the uninterrupted one's (deals derive from the ladder's seed, and a deal counts only
 * once all its games are stored); the newcomer plays most of the deals after it joins.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LadderView } from '../../src/ladder/ladder-view.js';
import { bin, tiltyardWith } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tiltyard-ladder-'));
const env = { env: { TILTYARD_DATA_DIR: join(dir, 'data') } };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SEATS = 3;
const FIRST = ['balanced', 'aggressor', 'turtle', 'random'];
const NEWCOMER = 'trickster';
/** Deals per stretch. */
const DEALS = 4;

async function cli(...args: string[]) {
  const r = await tiltyardWith(env, ...args);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

const create = async (name: string) => (JSON.parse(await cli('ladder', 'create', '--name', name, '--entrants', FIRST.join(','), '--seats', String(SEATS), '--compact', '--seed', '41', '--json')) as { ladder_id: string }).ladder_id;
const view = async (id: string) => JSON.parse(await cli('ladder', 'standings', id, '--json')) as LadderView;
const run = (id: string, deals: number) => cli('ladder', 'run', id, '--games', String(deals * SEATS), '--clock', 'logical');

/** Runs the ladder and SIGKILLs it once deal `at` has started; resolves with the kill's signal. */
function runKilledAt(id: string, at: number): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [bin, 'ladder', 'run', id, '--games', String(DEALS * SEATS), '--clock', 'logical'], { env: { ...process.env, ...env.env, TILTYARD_DEBUG: '' } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (new RegExp(`deal ${at}: `).test(stderr) && child.exitCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
}

describe('tiltyard ladder', () => {
  it('given a ladder killed mid-deal and resumed, then its standings and history equal an uninterrupted run; a newcomer plays most deals after joining', async () => {
    const straight = await create('straight');
    await run(straight, DEALS);
    await cli('ladder', 'add', straight, NEWCOMER);
    await run(straight, DEALS);

    const killed = await create('killed');
    expect(await runKilledAt(killed, 1)).toBe('SIGKILL');
    const cut = await view(killed);
    // Killed inside deal 1: chosen and saved, not counted.
    expect(cut.deals).toBe(2);
    expect(cut.deals_done).toBe(1);
    // The resumed run finishes deal 1 (it counts towards this run's games) and plays the rest.
    await run(killed, DEALS - cut.deals_done);
    await cli('ladder', 'add', killed, NEWCOMER);
    await run(killed, DEALS);

    const [a, b] = [await view(straight), await view(killed)];
    expect(b.deals_done).toBe(2 * DEALS);
    expect(b.standings).toEqual(a.standings);
    expect(b.history).toEqual(a.history);
    expect(b.games).toBe(2 * DEALS * SEATS);

    // The newcomer: in most of the deals after it joined, and marked while it has few games.
    const afterJoin = b.recent_games.filter((g) => g.deal >= DEALS && g.seats.includes(NEWCOMER)).length / SEATS;
    expect(afterJoin).toBeGreaterThan(DEALS / 2);
    expect(b.entrants.find((e) => e.agent === NEWCOMER)).toMatchObject({ status: 'active', admitted: true });

    const list = JSON.parse(await cli('ladder', 'list', '--json')) as { ladder_id: string; deals: number }[];
    expect(list.map((l) => l.ladder_id).sort()).toEqual([straight, killed].sort());
  });

  it('refuses bad flags with a clear error (exit 2)', async () => {
    const few = await tiltyardWith(env, 'ladder', 'create', '--name', 'x', '--entrants', 'balanced,turtle', '--seats', '3');
    expect(few.code).toBe(2);
    expect(few.stderr).toMatch(/2 entrants cannot fill 3 seats/);
    const typo = await tiltyardWith(env, 'ladder', 'create', '--name', 'x', '--entrants', 'balanced,turtle,nosuchagent');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/nosuchagent/);
    const both = await tiltyardWith(env, 'ladder', 'run', 'lad_x', '--games', '3', '--forever');
    expect(both.code).toBe(2);
    const caps = await tiltyardWith(env, 'ladder', 'add', 'lad_x', 'balanced', '--max-usd-total', '1');
    expect(caps.code).toBe(2);
    expect(caps.stderr).toMatch(/only LLM entrants/);
  });
});
