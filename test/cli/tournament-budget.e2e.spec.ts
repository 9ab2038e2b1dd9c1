import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { tiltyardWith, type CliRun } from './run-cli.js';

/**
 * `tournament --dry-run` and `--max-cost-usd` as users run them: the real bin on an embedded
 * database, LLM seats on the mock provider priced by a providers file (so its calls cost money).
 */
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-budget-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// $100 per million tokens in and out: a mock game of two LLM seats costs a few cents.
writeFileSync(join(tmp, 'tiltyard.providers.json'), JSON.stringify({ prices: { mock: { inputPerMTok: 100, outputPerMTok: 100 } } }));
const dataDir = join(tmp, 'data');
const cli = (...args: string[]): Promise<CliRun> => tiltyardWith({ cwd: tmp, env: { TILTYARD_DATA_DIR: dataDir, DATABASE_URL: undefined } }, ...args);
const LINEUP = ['tournament', '--agents', 'llm:mock,random,balanced', '--seats', '2', '--seeds', '1', '--compact', '--clock', 'logical', '--seed', '5', '--json'];

type Outcome = { tournament_id: string; status: string; planned: number; games: number; failed: number; stopped: number; cost_usd?: number | 'unknown'; max_cost_usd?: number; worst_call_usd?: number; standings: unknown[] };

describe('tiltyard tournament --dry-run', () => {
  it('prints the planned games, the decisions and calls per LLM seat and a cost range, and plays nothing', async () => {
    const run = await cli(...LINEUP, '--dry-run');
    expect(run.code, run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout) as { dry_run: boolean; games: number; decisions_per_seat_game: number; llm: Array<{ agent: string; games: number; decisions: number; calls: { low: number; high: number }; tokens: { source: string }; cost_usd: { low: number; high: number } | null }>; cost_usd: { low: number; high: number } };
    // Three pairs, one deal each, in both seat rotations.
    expect(plan).toMatchObject({ dry_run: true, games: 6 });
    expect(plan.llm).toHaveLength(1);
    const [mock] = plan.llm;
    expect(mock).toMatchObject({ agent: 'llm:mock', games: 4, tokens: { source: 'assumed' } });
    expect(mock!.decisions).toBe(Math.round(4 * plan.decisions_per_seat_game));
    expect(mock!.calls.low).toBeLessThanOrEqual(mock!.calls.high);
    expect(mock!.cost_usd!.low).toBeGreaterThan(0);
    expect(mock!.cost_usd!.high).toBeGreaterThan(mock!.cost_usd!.low);
    expect(plan.cost_usd).toEqual(mock!.cost_usd);
    // The bound beside the likely range: every reply max_tokens long, every game to the round cap.
    const bounded = plan as unknown as { bound_usd: number; llm: Array<{ bound_usd: number; bound: { output_tokens: number } }> };
    expect(bounded.bound_usd).toBeGreaterThanOrEqual(plan.cost_usd.high);
    expect(bounded.llm[0]!.bound.output_tokens).toBeGreaterThanOrEqual(1_200);
    const text = await cli(...LINEUP.filter((a) => a !== '--json'), '--dry-run');
    expect(text.stdout).toMatch(/Plan: 6 games/);
    expect(text.stdout).toMatch(/Estimated cost: \$.* likely .*, at most \$/);
    expect(JSON.parse((await cli('tournaments', '--json')).stdout)).toEqual([]);
  });
});

describe('tiltyard tournament --max-cost-usd', () => {
  it('refuses the first call that could pass the cap, stops that game as stopped_by_budget, resumes with a higher one, and plays the whole schedule once', async () => {
    // One mock call's worst case (its prompt and 1,200 output tokens at $100 per million) is far
    // above a thousandth of a cent: the first LLM call is never sent, so nothing is spent.
    const first = await cli(...LINEUP, '--max-cost-usd', '0.00001');
    expect(first.code, first.stderr).toBe(0);
    const stopped = JSON.parse(first.stdout) as Outcome;
    expect(stopped).toMatchObject({ status: 'stopped_by_budget', max_cost_usd: 0.00001, planned: 6, games: 0, stopped: 1, cost_usd: 0 });
    expect(stopped.worst_call_usd).toBeGreaterThan(0.00001);
    expect(first.stderr).toMatch(/stopped at its cost cap: \$0\.0000 spent of \$0\.00001 .*0 of 6 planned games played, 1 stopped.*resume .* --max-cost-usd/);
    const listed = await cli('tournaments');
    expect(listed.stdout).toMatch(new RegExp(`${stopped.tournament_id}\\s+round-robin\\s+stopped_by_budget\\s+3\\s+2\\s+0/6\\s+0\\s+1`));

    // Resuming with the same stored limit starts nothing.
    const again = JSON.parse((await cli('tournament', 'resume', stopped.tournament_id, '--json')).stdout) as Outcome;
    expect(again).toMatchObject({ status: 'stopped_by_budget', games: 0, stopped: 1 });

    const resumed = await cli('tournament', 'resume', stopped.tournament_id, '--max-cost-usd', '100', '--json');
    expect(resumed.code, resumed.stderr).toBe(0);
    const done = JSON.parse(resumed.stdout) as Outcome;
    expect(done).toMatchObject({ status: 'ended', planned: 6, games: 6, failed: 0, stopped: 0, max_cost_usd: 100 });
    // (Standings are not compared with an uninterrupted run's: an LLM seat's decision deadline is
    // wall time, so on a loaded machine a mock call may time out and the game differ.)
    expect((done.standings as Array<{ games: number }>).reduce((n, s) => n + s.games, 0)).toBe(12);

    // Nothing lost or counted twice: six games, each stored once, and the recorded cost is theirs.
    const store = await openStore({ dataDir });
    try {
      const games = await store.tournaments.games(stopped.tournament_id);
      expect(games.map((g) => g.state)).toEqual(Array(6).fill('ended'));
      expect(games.map((g) => g.key)).toEqual(['r0000-t0000-d0000-p0', 'r0000-t0000-d0000-p1', 'r0000-t0001-d0000-p0', 'r0000-t0001-d0000-p1', 'r0000-t0002-d0000-p0', 'r0000-t0002-d0000-p1']);
      expect(new Set(games.map((g) => g.game_id)).size).toBe(6);
      expect((await store.tournaments.get(stopped.tournament_id)).status).toBe('ended');
      const perGame = await Promise.all(games.map(async (g) => (await store.readProviderCalls(g.game_id)).reduce((s, c) => s + c.cost_usd, 0)));
      expect(await store.tournaments.cost(stopped.tournament_id)).toBeCloseTo(perGame.reduce((a, b) => a + b, 0), 9);
      expect(done.cost_usd).toBeCloseTo(await store.tournaments.cost(stopped.tournament_id), 9);
    } finally {
      await store.close();
    }

    const bad = await cli(...LINEUP, '--max-cost-usd', 'lots');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--max-cost-usd: a number of US dollars/);
  }, 240_000);
});

describe('a model with no price', () => {
  const UNPRICED = ['tournament', '--agents', 'llm:mock:mystery-1,random', '--seats', '2', '--seeds', '1', '--compact', '--clock', 'logical', '--json'];

  it('is refused before any call, with how to price it; --allow-unpriced plays it with its cost unknown, never $0; a cap refuses it', async () => {
    const refused = await cli(...UNPRICED);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/llm:mock:mystery-1: mock:mystery-1 has no price.*"prices": \{"mystery-1": \{"inputPerMTok".*--allow-unpriced/);

    const capped = await cli(...UNPRICED, '--allow-unpriced', '--max-cost-usd', '1');
    expect(capped.code).toBe(2);
    expect(capped.stderr).toMatch(/--max-cost-usd: a cost cap needs a price for every model.*mock:mystery-1/);

    const dry = JSON.parse((await cli(...UNPRICED, '--allow-unpriced', '--dry-run')).stdout) as { unpriced: string[]; llm: Array<{ cost_usd: unknown; bound_usd: unknown }> };
    expect(dry.unpriced).toEqual(['mystery-1']);
    expect(dry.llm[0]).toMatchObject({ cost_usd: null, bound_usd: null });

    const played = await cli(...UNPRICED, '--allow-unpriced');
    expect(played.code, played.stderr).toBe(0);
    expect(JSON.parse(played.stdout)).toMatchObject({ status: 'ended', games: 2, cost_usd: 'unknown' });
    const text = await cli(...UNPRICED.filter((a) => a !== '--json'), '--allow-unpriced', '--seed', '1');
    expect(text.stdout).toMatch(/2 of 2 planned games played, cost unknown \(unpriced models\)/);
  }, 240_000);
});
