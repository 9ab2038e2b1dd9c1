import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tiltyardWith } from './run-cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-cli-fork-'));
const where = { cwd: tmp, env: { TILTYARD_DATA_DIR: join(tmp, 'data'), DATABASE_URL: undefined } };
const cli = (...args: string[]) => tiltyardWith(where, ...args);

type Outcome = { gameId: string; events: number; placements: unknown[]; status: string; fork?: { parent_game_id: string; seq: number; secret?: number } };
let parent: Outcome;
/** The two forks the first test stores: the same agents, then others with a reseed. */
let sameId: string;
let otherId: string;

beforeAll(async () => {
  writeFileSync(join(tmp, 'short.json'), JSON.stringify({ round_cap: 5 }));
  const run = await cli('run', '--seed', '5', '--agents', 'balanced,turtle,aggressor', '--compact', '--rules-file', 'short.json', '--clock', 'logical', '--json');
  expect(run.code, run.stderr).toBe(0);
  parent = JSON.parse(run.stdout) as Outcome;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('tiltyard fork and counterfactual', () => {
  it('fork with the same agents, the same deck and the logical clock plays the parent again; a reseeded fork with other agents verifies', async () => {
    const same = await cli('fork', parent.gameId, '--at', 'round:2', '--same-deck', '--clock', 'logical', '--json');
    expect(same.code, same.stderr).toBe(0);
    const s = JSON.parse(same.stdout) as Outcome;
    expect(s).toMatchObject({ status: 'ended', events: parent.events, placements: parent.placements, fork: { parent_game_id: parent.gameId } });
    sameId = s.gameId;

    const other = await cli('fork', parent.gameId, '--at', '40', '--agents', 'random,turtle,trickster', '--reseed', '9');
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toMatch(new RegExp(`^Forked ${parent.gameId} at seq \\d+, reseeded with 9\\n`));
    const forkId = /^Game (game_\w+)/m.exec(other.stdout)![1]!;
    otherId = forkId;
    const verify = await cli('verify', forkId);
    expect(verify.code, verify.stdout).toBe(0);
    expect(verify.stdout).toContain('5/5 assertions pass');
    expect(verify.stdout).toContain(`✓ fork prefix equals the parent — seqs 1–`);
  });

  it('games shows the lineage: a fork of column and --json fork, and a game\'s detail names its parent and lists its forks', async () => {
    type Line = { game_id: string; rounds: number; fork: { parent_game_id: string; seq: number; round: number; same_deck: boolean; reseed?: number } | null };
    const json = await cli('games', '--json');
    expect(json.code, json.stderr).toBe(0);
    const lines = new Map((JSON.parse(json.stdout) as Line[]).map((l) => [l.game_id, l]));
    expect(lines.get(parent.gameId)!.fork).toBeNull();
    const same = lines.get(sameId)!.fork!;
    const other = lines.get(otherId)!.fork!;
    expect(same).toEqual({ parent_game_id: parent.gameId, seq: expect.any(Number) as number, round: 2, same_deck: true });
    expect(other).toMatchObject({ parent_game_id: parent.gameId, same_deck: false, reseed: 9 });
    expect(other.round).toBeGreaterThanOrEqual(1);

    const text = await cli('games');
    expect(text.stdout).toMatch(/created \(UTC\)\s+fork of\n/);
    expect(text.stdout).toContain(`${parent.gameId} at round 2 (seq ${same.seq}) · same deck\n`);
    expect(text.stdout).toContain(`${parent.gameId} at round ${other.round} (seq ${other.seq}) · reseed 9\n`);

    const detail = await cli('games', parent.gameId);
    expect(detail.code, detail.stderr).toBe(0);
    expect(detail.stdout).toContain('  2 forks:\n');
    expect(detail.stdout).toMatch(new RegExp(`    ${sameId} at round 2 \\(seq ${same.seq}\\), the same draws · balanced, turtle, aggressor · .+ (won|shared first place)\n`));
    expect(detail.stdout).toContain(`    ${otherId} at round ${other.round} (seq ${other.seq}), new draws (reseed 9) · random, turtle, trickster · `);
    // Four commands, not six: each opens the store (seconds of PGlite start-up on a loaded machine).
    const forkDetail = await cli('games', otherId, '--json');
    expect(JSON.parse(forkDetail.stdout)).toMatchObject({ fork: other, forks: [], fork_count: 0 });
  });

  // Same seeds ⇒ the same report is the property tests' (in memory and stored); here, the command.
  it('counterfactual reports the runs as JSON or text, with progress on stderr', async () => {
    const a = await cli('counterfactual', parent.gameId, '--at', '30', '--runs', '3', '--reseed-from', '2', '--json');
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toContain(`counterfactual ${parent.gameId}: run 3/3 done`);
    const report = JSON.parse(a.stdout) as { runs: number; seats: Array<{ placements: number[]; mean_placement: { low: number; high: number } }>; results: Array<{ reseed: number }> };
    expect(report.results.map((r) => r.reseed)).toEqual([2, 3, 4]);
    expect(report.seats).toHaveLength(3);
    for (const s of report.seats) expect(s.placements.reduce((x, y) => x + y, 0)).toBe(3);
    const text = await cli('counterfactual', parent.gameId, '--at', '30', '--runs', '2');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Counterfactual of game_\w+ at seq \d+ \(round \d+\) · 2 runs reseeded 1–2/);
    expect(text.stdout).toContain('Eliminations');
  });

  it('bad usage exits 2, a game that cannot be forked there exits 1', async () => {
    expect((await cli('fork', parent.gameId)).code).toBe(2);
    const both = await cli('fork', parent.gameId, '--at', '10', '--same-deck', '--reseed', '3');
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('--same-deck and --reseed exclude each other') as string]);
    expect((await cli('counterfactual', parent.gameId, '--at', '10', '--runs', '0')).code).toBe(2);
    const beyond = await cli('fork', parent.gameId, '--at', '999999');
    expect(beyond.code).toBe(1);
    expect(beyond.stderr).toContain('records no decision at or after seq 999999');
  });
});
