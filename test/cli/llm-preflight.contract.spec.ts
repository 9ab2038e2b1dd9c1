/**
 * A dead or misconfigured LLM endpoint never looks like a normal game: `run`, `play` and
 * `tournament` refuse to start when a seat's provider:model fails its preflight request (exit 2,
 * naming the seat, the provider and the cause), and a game started anyway (`--no-preflight`) is
 * stopped as failed once the seat's provider failed every call for `outage_decisions` decisions
 * in a row (exit 1, saying why; `games` shows it failed). Against local HTTP servers only.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiWire, startFakeLlmServer, unusedPortUrl, type FakeLlmServer } from '../providers/fake-llm-server.js';
import { startSloppyServer, type SloppyServer } from '../providers/sloppy-llm-server.js';
import type { SeatSummary } from '../../src/runner/seat-summary.js';
import { tiltyardInProcess } from './in-process.js';
import { openStore } from '../../src/store/index.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-llm-preflight-'));
let server: FakeLlmServer;
let sloppy: SloppyServer;
let where: { cwd: string; env: Record<string, string | undefined> };
const here = (...args: string[]) => tiltyardInProcess(where, ...args);

beforeAll(async () => {
  server = await startFakeLlmServer();
  sloppy = await startSloppyServer(7);
  const file = join(tmp, 'providers.json');
  writeFileSync(
    file,
    JSON.stringify({
      providers: {
        dead: { kind: 'openai', base_url: `${await unusedPortUrl()}/v1` },
        live: { kind: 'openai', base_url: `${server.url}/v1` },
        sloppy: { kind: 'openai', base_url: `${sloppy.url}/v1` },
      },
      outage_decisions: 2,
      // Tournament entrants must be priced (free here); the preflight is what these tests are about.
      prices: { gone: { inputPerMTok: 0, outputPerMTok: 0 }, 'model-1': { inputPerMTok: 0, outputPerMTok: 0 } },
    }),
  );
  where = { cwd: tmp, env: { TILTYARD_DATA_DIR: join(tmp, 'data'), DATABASE_URL: undefined, TILTYARD_PROVIDERS_FILE: file, REDIS_URL: undefined } };
});
afterAll(async () => {
  await server.close();
  await sloppy.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('preflight', () => {
  it('given a seat on a dead endpoint, when `run` starts, then it exits 2 before storing anything, naming the seat, the provider and "connection refused"', async () => {
    const r = await here('run', '--seed', '7', '--compact', '--seats', '2', '--agents', 'llm:dead:gpt-4o-mini,balanced');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/seat 1 \(llm:dead:gpt-4o-mini\): dead:gpt-4o-mini failed its preflight request: .*connection refused/);
    expect(r.stdout).toBe('');
  });

  it('given a model the server does not know, then `play` exits 2 quoting the server: HTTP 404 and its message', async () => {
    server.reply({ status: 404, body: openAiWire.error('The model `gpt-nope` does not exist', 'invalid_request_error', 'model_not_found') });
    const r = await here('play', '--seed', '7', '--seats', '2', '--agents', 'balanced,llm:live:gpt-nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('seat 2 (llm:live:gpt-nope): live:gpt-nope failed its preflight request: HTTP 404: The model `gpt-nope` does not exist');
  });

  it('given a dead entrant, then `tournament` exits 2 and creates nothing', async () => {
    const r = await here('tournament', '--agents', 'balanced,turtle,llm:dead:m', '--seats', '2', '--games', '3');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tournament was not started[\s\S]*entrant llm:dead:m: dead:m failed its preflight request: .*connection refused/);
  });
});

describe('a provider that dies mid-game', () => {
  it('given --no-preflight and a dead endpoint, then the game stops as failed after outage_decisions decisions, `run` exits 1 saying why, and `games` lists it failed with that reason', async () => {
    const r = await here('run', '--no-preflight', '--seed', '7', '--compact', '--seats', '2', '--agents', 'llm:dead:gpt-4o-mini,balanced');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/seat plr_1's provider is down: llm:dead:gpt-4o-mini: every call to dead:gpt-4o-mini failed for 2 decisions in a row \(last: .*connection refused/);

    const games = await here('games', '--json');
    const rows = JSON.parse(games.stdout) as { status: string; failure_reason: string | null }[];
    expect(rows[0]).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('connection refused') });
  });
});

describe('seat health', () => {
  it('given a tournament with a dead LLM entrant and --no-preflight, then its games fail as errors, not losses: they rate no one, `tournament` exits 1 saying why, and the entrant’s health counts them', async () => {
    const r = await here('tournament', '--agents', 'llm:dead:gone,balanced,random', '--seats', '2', '--seeds', '1', '--compact', '--clock', 'logical', '--no-preflight', '--json');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/4 games failed \(not counted in the ratings\): game \S+: seat plr_\d.s provider is down: llm:dead:gone: .*connection refused/);
    const out = JSON.parse(r.stdout) as { tournament_id: string; games: number; failed: number; standings: Array<{ agent: string; games: number; wins: number; rating_ci: unknown; mean_placement: number | null }> };
    // Three pairs, each dealt in both seat orders: the dead entrant's four games fail, the other two end
    // (`games` counts ended games, the ones the ratings stand on).
    expect(out, JSON.stringify(out)).toMatchObject({ games: 2, failed: 4 });
    const played = new Map(out.standings.map((s) => [s.agent, s.games]));
    expect(played.get('balanced')).toBe(2);
    expect(played.get('random')).toBe(2);
    expect(played.get('llm:dead:gone')).toBe(0);
    expect(out.standings.find((x) => x.agent === 'llm:dead:gone')).toMatchObject({ wins: 0, rating_ci: null, mean_placement: null });
    const standings = JSON.parse((await here('standings', out.tournament_id, '--json')).stdout) as { llm: Record<string, { games: number; failed_games: number; error_rate: number }> };
    expect(standings.llm['llm:dead:gone']).toMatchObject({ games: 4, failed_games: 4, error_rate: 1 });
  });

  it('given a game with a sloppy LLM seat, then `run --json`, `games <id>` and `replay` report each seat: decisions first time / repaired / fell back, calls by outcome, tokens, latency; spectators get none', async () => {
    const r = await here('run', '--seed', '7', '--compact', '--seats', '2', '--agents', 'llm:sloppy:sloppy-1,balanced', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { gameId: string; seats: SeatSummary[] };
    const llm = out.seats[0]!;
    expect(llm).toMatchObject({ player_id: 'plr_1', agent: 'llm:sloppy:sloppy-1' });
    expect(llm.decisions).toBeGreaterThan(5);
    expect(llm.answered_first_time + llm.repaired + llm.fell_back).toBe(llm.decisions);
    expect(llm.repaired).toBeGreaterThan(0);
    expect(llm.calls['ok']).toBeGreaterThan(0);
    expect(llm.input_tokens).toBeGreaterThan(0);
    expect(llm.latency_ms).toEqual({ p50: expect.any(Number), p95: expect.any(Number), max: expect.any(Number) });
    expect(out.seats[1]).toMatchObject({ player_id: 'plr_2', calls: {} });
    // Read back against what the store holds: its provider_calls rows for the seat.
    const store = await openStore({ dataDir: where.env['TILTYARD_DATA_DIR']! });
    try {
      const rows = (await store.readProviderCalls(out.gameId)).filter((c) => c.player_id === 'plr_1');
      expect(Object.values(llm.calls).reduce((a, b) => a + b, 0)).toBe(rows.length);
      expect(llm.calls['ok']).toBe(rows.filter((c) => c.status === 'ok').length);
      expect(llm.input_tokens).toBe(rows.reduce((n, c) => n + c.input_tokens, 0));
      expect(llm.output_tokens).toBe(rows.reduce((n, c) => n + c.output_tokens, 0));
    } finally {
      await store.close();
    }

    const one = await here('games', out.gameId, '--json');
    expect((JSON.parse(one.stdout) as { seats: SeatSummary[] }).seats).toEqual(out.seats);
    const text = await here('games', out.gameId);
    expect(text.stdout).toMatch(/Seats:\n.*first time.*repaired.*fell back/);
    expect(text.stdout).toContain('llm:sloppy:sloppy-1');

    const admin = JSON.parse((await here('replay', out.gameId, '--view', 'admin', '--json')).stdout) as { seats: SeatSummary[] };
    expect(admin.seats).toEqual(out.seats);
    const spectator = JSON.parse((await here('replay', out.gameId, '--json')).stdout) as { seats: SeatSummary[] };
    expect(spectator.seats).toEqual([]);
    const seat = JSON.parse((await here('replay', out.gameId, '--view', 'plr_1', '--json')).stdout) as { seats: SeatSummary[] };
    expect(seat.seats.map((s) => s.player_id)).toEqual(['plr_1']);
  });

  it('given a simulation with a sloppy LLM seat, then `simulate --json` carries its health under `llm`: one decision per first answer the model wrote, repairs, calls and tokens; the text prints it', async () => {
    const asked = () => [...sloppy.kinds.values()].reduce((a, b) => a + b, 0);
    const before = asked();
    const r = await here('simulate', '--games', '1', '--seed', '7', '--compact', '--agents', 'llm:sloppy:sloppy-1,balanced', '--json');
    expect(r.code).toBe(0);
    const { llm } = JSON.parse(r.stdout) as { llm: Record<string, SeatSummary & { games: number; fallback_rate: number | null }> };
    expect(Object.keys(llm)).toEqual(['llm:sloppy:sloppy-1']);
    const h = llm['llm:sloppy:sloppy-1']!;
    expect(h.games).toBe(1);
    expect(h.decisions).toBe(asked() - before);
    expect(h.answered_first_time + h.repaired + h.fell_back).toBe(h.decisions);
    expect(h.repaired).toBeGreaterThan(0);
    // Every decision's first call, plus one per repair turn.
    expect(Object.values(h.calls).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(h.decisions + h.repaired);
    expect(h.input_tokens).toBeGreaterThan(0);
    const text = await here('simulate', '--games', '1', '--seed', '7', '--compact', '--agents', 'llm:sloppy:sloppy-1,balanced');
    expect(text.stdout).toMatch(/LLM agents:\n.*first time.*repaired.*fell back/);
  });
});
