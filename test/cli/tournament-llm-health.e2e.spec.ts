/**
 * `tiltyard standings` beside the ratings: each LLM entrant's health over the tournament (decisions
 * first time / repaired / fell back, calls by outcome, tokens, cost, error rates, latency), checked
 * against the provider_calls rows the store holds for its seats. Two LLM entrants on a sloppy model
 * behind a real local HTTP server speaking OpenAI chat completions, priced by the providers file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { AgentHealth } from '../../src/runner/agent-health.js';
import { illegalWriter, startSloppyServer, type SloppyServer } from '../providers/sloppy-llm-server.js';
import { storedSeatSummaries } from '../../src/runner/seat-summary.js';
import { tiltyardInProcess } from './in-process.js';
import { tiltyardWith } from './run-cli.js';
import { spawnServer } from '../server/spawn-server.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-llm-health-'));
const dataDir = join(tmp, 'data');
let sloppy: SloppyServer;
let rogue: SloppyServer;
let where: { cwd: string; env: Record<string, string | undefined> };
/** The same providers with a game budget of $0.05: a few calls at $0.012 each (120 tokens at $100 a million). */
let tight: { cwd: string; env: Record<string, string | undefined> };
const here = (...args: string[]) => tiltyardInProcess(where, ...args);
const LLM = ['llm:sloppy:sloppy-1', 'llm:tidy:sloppy-1'];

beforeAll(async () => {
  sloppy = await startSloppyServer(5);
  rogue = await startSloppyServer(5, 'balanced', illegalWriter);
  const file = join(tmp, 'providers.json');
  const base_url = `${sloppy.url}/v1`;
  // $100 per million tokens in and out, so every call costs something.
  const setup = { providers: { sloppy: { kind: 'openai', base_url }, tidy: { kind: 'openai', base_url }, rogue: { kind: 'openai', base_url: `${rogue.url}/v1` } }, prices: { 'sloppy-1': { inputPerMTok: 100, outputPerMTok: 100 } } };
  writeFileSync(file, JSON.stringify(setup));
  where = { cwd: tmp, env: { TILTYARD_DATA_DIR: dataDir, DATABASE_URL: undefined, TILTYARD_PROVIDERS_FILE: file, REDIS_URL: undefined } };
  const tightFile = join(tmp, 'providers-tight.json');
  writeFileSync(tightFile, JSON.stringify({ ...setup, budgets: { game: { cost_usd: 0.05 } } }));
  tight = { cwd: tmp, env: { ...where.env, TILTYARD_PROVIDERS_FILE: tightFile } };
});
afterAll(async () => {
  await Promise.all([sloppy.close(), rogue.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

/** What the store's provider_calls rows say about each entrant's seats over the tournament's games. */
async function callsByAgent(tournamentId: string): Promise<Map<string, { calls: number; input: number; output: number; cost: number; ok: number }>> {
  const store = await openStore({ dataDir });
  try {
    const out = new Map<string, { calls: number; input: number; output: number; cost: number; ok: number }>();
    for (const g of await store.tournaments.games(tournamentId)) {
      const seats = (await store.getGame(g.game_id)).seats;
      const rows = await store.readProviderCalls(g.game_id);
      g.seats.forEach((agent, i) => {
        const mine = rows.filter((r) => r.player_id === seats[i]!.player_id);
        const t = out.get(agent) ?? { calls: 0, input: 0, output: 0, cost: 0, ok: 0 };
        t.calls += mine.length;
        t.ok += mine.filter((r) => r.status === 'ok').length;
        t.input += mine.reduce((s, r) => s + r.input_tokens, 0);
        t.output += mine.reduce((s, r) => s + r.output_tokens, 0);
        t.cost += mine.reduce((s, r) => s + r.cost_usd, 0);
        out.set(agent, t);
      });
    }
    return out;
  } finally {
    await store.close();
  }
}

describe('standings with LLM entrants', () => {
  it('given a tournament with two LLM entrants, then `standings --json` carries `llm` per agent whose calls, tokens and cost are the stored provider_calls of its seats, and the text prints a health table', async () => {
    const run = await here('tournament', '--agents', [...LLM, 'balanced'].join(','), '--seats', '2', '--seeds', '1', '--compact', '--clock', 'logical', '--seed', '5', '--json');
    expect(run.code, run.stderr).toBe(0);
    const { tournament_id: id, games } = JSON.parse(run.stdout) as { tournament_id: string; games: number };
    expect(games).toBe(6);

    const standings = await here('standings', id, '--json');
    expect(standings.code, standings.stderr).toBe(0);
    const { llm, standings: rows } = JSON.parse(standings.stdout) as { llm: Record<string, AgentHealth>; standings: unknown[] };
    expect(rows).toHaveLength(3);
    expect(Object.keys(llm).sort()).toEqual([...LLM].sort());

    const stored = await callsByAgent(id);
    let repaired = 0;
    for (const agent of LLM) {
      const h = llm[agent]!;
      const s = stored.get(agent)!;
      expect(s.calls).toBeGreaterThan(0);
      // Each entrant sits in 4 of the 6 games (two pairings, both seat rotations).
      expect(h).toMatchObject({ agent, games: 4, failed_games: 0, error_rate: 0, input_tokens: s.input, output_tokens: s.output });
      expect(Object.values(h.calls).reduce((a, b) => a + b, 0)).toBe(s.calls);
      expect(h.calls['ok']).toBe(s.ok);
      expect(h.cost_usd).toBeCloseTo(s.cost, 6);
      expect(h.cost_usd).toBeGreaterThan(0);
      expect(h.answered_first_time + h.repaired + h.rejected + h.fell_back).toBe(h.decisions);
      expect(h.fallback_rate).toBeCloseTo(h.fell_back / h.decisions, 4);
      expect(h.latency_ms).toEqual({ p50: expect.any(Number), p95: expect.any(Number), max: expect.any(Number) });
      repaired += h.repaired;
    }
    // The sloppy model writes about half its first answers carelessly: repair turns happened.
    expect(repaired).toBeGreaterThan(0);
    expect(llm['balanced']).toBeUndefined();

    // The text, as a user runs it: the standings, then the LLM agents' table.
    const text = await tiltyardWith(where, 'standings', id);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/rating \[95% CI\][\s\S]*\nLLM agents:\n.*cost.*games failed.*fallbacks/);
    for (const agent of LLM) expect(text.stdout).toMatch(new RegExp(`\\n${agent}\\s+4\\s.*\\$${llm[agent]!.cost_usd!.toFixed(4).replace('.', '\\.')}\\s+0\\.0%`));

    // REST: GET /tournaments/:id gives researchers (and admins) the same `llm`; spectators none.
    const server = await spawnServer({ ...where.env, TILTYARD_RESEARCHER_TOKEN: 'research', TILTYARD_DEMO: 'off', TILTYARD_LOG: 'warn' }, [], { cwd: tmp });
    try {
      const get = async (token?: string) => (await fetch(`${server.url}/tournaments/${id}`, token ? { headers: { authorization: `Bearer ${token}` } } : {})).json() as Promise<{ llm?: unknown }>;
      expect((await get('research')).llm).toEqual(llm);
      expect(await get()).not.toHaveProperty('llm');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});

describe('seat health that tells the truth, and budgets that end loudly', () => {
  it('given a model whose first action answer is well-formed but illegal, then `run` counts those decisions as rejected by the engine (by code), never as first time, and ends with the per-seat table', async () => {
    const run = await here('run', '--agents', 'llm:rogue:sloppy-1,balanced', '--seats', '2', '--compact', '--clock', 'logical', '--seed', '3');
    expect(run.code, run.stderr).toBe(0);
    const id = /Game (game_\w+)/.exec(run.stdout)?.[1];
    expect(id).toBeDefined();
    const store = await openStore({ dataDir });
    let seat;
    try {
      seat = (await storedSeatSummaries(store, id!))[0]!;
      const rejected = (await store.readActions(id!)).filter((a) => a.player_id === 'plr_1' && !a.accepted).length;
      expect(rejected).toBeGreaterThan(0);
      expect(seat).toMatchObject({ agent: 'llm:rogue:sloppy-1', rejected, rejection_reasons: { 'action/card_not_in_arena': rejected } });
    } finally {
      await store.close();
    }
    expect(seat.answered_first_time + seat.repaired + seat.rejected + seat.fell_back).toBe(seat.decisions);
    // The table, where people look: at the end of the run.
    expect(run.stdout).toMatch(/Seats:\n.*first time\s+repaired\s+rejected\s+fell back\s+calls\s+tokens in\/out\s+cost\s+wire ms p50\/p95\/max\s+queued ms p50\/p95\/max/);
    expect(run.stdout).toMatch(new RegExp(`\\nP1\\s+llm:rogue:sloppy-1\\s+${seat.decisions}\\s+${seat.answered_first_time}\\s+${seat.repaired}\\s+${seat.rejected}\\s+${seat.fell_back}\\s.*\\$\\d\\.\\d{4}\\s+\\d+\\/\\d+\\/\\d+`));
    expect(run.stdout).toContain(`P1 rejected by the engine ${seat.rejected}×: action/card_not_in_arena ${seat.rejected}`);
  });

  it('given a game budget that runs out, then `run` plays on but stores the game degraded (seat, round, cause), says so on stderr and exits 3', async () => {
    const run = await tiltyardWith(tight, 'run', '--agents', 'llm:tidy:sloppy-1,balanced', '--seats', '2', '--compact', '--clock', 'logical', '--seed', '3');
    expect(run.code, run.stderr).toBe(3);
    const id = /Game (game_\w+)/.exec(run.stdout)?.[1];
    expect(run.stderr).toMatch(new RegExp(`tiltyard: game ${id} is degraded: seat plr_1 \\(llm:tidy:sloppy-1\\) from round \\d+: (the repair turn stopped: )?game budget exhausted \\(cost_usd\\)`));
    expect(run.stdout).toMatch(/P1 fell back \d+×: .*llm\/budget \d+/);
    const store = await openStore({ dataDir });
    try {
      const game = await store.getGame(id!);
      expect(game.status).toBe('ended');
      expect(game.options['degraded']).toMatchObject({ code: 'llm/budget', player_id: 'plr_1', agent: 'llm:tidy:sloppy-1', round: expect.any(Number) });
    } finally {
      await store.close();
    }
  });

  it('given a tournament whose LLM entrant runs out of budget, then its degraded games are out of the ratings (in with --rate-degraded), the per-entrant table ends the output, and it exits 3', async () => {
    const args = ['tournament', '--agents', 'llm:tidy:sloppy-1,balanced', '--seats', '2', '--seeds', '1', '--compact', '--clock', 'logical', '--seed', '9', '--json'];
    const out = await tiltyardWith(tight, ...args);
    expect(out.code, out.stderr).toBe(3);
    expect(out.stderr).toMatch(/2 games degraded .*left out of the ratings/);
    const left = JSON.parse(out.stdout) as { games: number; degraded: number; standings: { games: number }[]; llm: Record<string, AgentHealth> };
    expect(left).toMatchObject({ games: 2, degraded: 2 });
    expect(left.standings.map((s) => s.games)).toEqual([0, 0]);
    expect(left.llm['llm:tidy:sloppy-1']!.fallback_reasons['llm/budget']).toBeGreaterThan(0);

    const rated = await tiltyardWith(tight, ...args, '--rate-degraded');
    expect(rated.code, rated.stderr).toBe(3);
    expect(rated.stderr).toContain('rated anyway (--rate-degraded)');
    expect((JSON.parse(rated.stdout) as typeof left).standings.map((s) => s.games)).toEqual([2, 2]);
  });
});
