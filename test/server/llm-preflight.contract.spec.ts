/**
 * REST refuses to create a game or a tournament whose LLM seat cannot reach its model: 400 naming
 * the seat, the provider and the cause, nothing created; `"preflight": false` skips the check.
 * The dead endpoint is a local port nothing listens on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonLogger } from '../../src/lib/json-logger.js';
import { serverSettings } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { unusedPortUrl } from '../providers/fake-llm-server.js';

const ADMIN = 'admin-secret';
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-rest-preflight-'));
let server: RunningServer;
const saved = process.env['TILTYARD_PROVIDERS_FILE'];

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` }, body: JSON.stringify(body) });

beforeAll(async () => {
  const file = join(tmp, 'providers.json');
  writeFileSync(file, JSON.stringify({ providers: { dead: { kind: 'openai', base_url: `${await unusedPortUrl()}/v1` } }, prices: { m: { inputPerMTok: 0, outputPerMTok: 0 } } }));
  process.env['TILTYARD_PROVIDERS_FILE'] = file;
  server = await createServer(serverSettings({ PORT: '0', TILTYARD_DATA_DIR: 'memory://', TILTYARD_DEMO: 'off', TILTYARD_ADMIN_TOKEN: ADMIN, TILTYARD_PACE_MS: '0' }), { logger: new JsonLogger('silent') });
});
afterAll(async () => {
  await server?.close();
  if (saved === undefined) delete process.env['TILTYARD_PROVIDERS_FILE'];
  else process.env['TILTYARD_PROVIDERS_FILE'] = saved;
  rmSync(tmp, { recursive: true, force: true });
});

describe('preflight over REST', () => {
  it('given a seat on a dead endpoint, then POST /games is 400 naming seat, provider and "connection refused", and no game exists', async () => {
    const res = await post('/games', { agents: ['balanced', 'llm:dead:gpt-4o-mini'], seed: 7 });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/seat 2 \(llm:dead:gpt-4o-mini\): dead:gpt-4o-mini failed its preflight request: .*connection refused/);
    const list = (await (await fetch(`${server.url}/games`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as { games: unknown[] };
    expect(list.games).toEqual([]);
  });

  it('given a dead entrant, then POST /tournaments is 400 naming the entrant (not a seat: it sits in many) and the cause', async () => {
    const res = await post('/tournaments', { format: 'round-robin', entrants: ['balanced', 'turtle', 'llm:dead:m'], seats: 2, max_games: 2 });
    expect(res.status).toBe(400);
    const body = JSON.stringify(await res.json());
    expect(body).not.toMatch(/seat \d/);
    expect(body).toMatch(/entrant llm:dead:m: dead:m failed its preflight request: .*connection refused/);
  });

  it('given "preflight": false, then POST /games creates the game (201)', async () => {
    const res = await post('/games', { agents: ['balanced', 'llm:dead:gpt-4o-mini'], seed: 7, preflight: false });
    expect(res.status).toBe(201);
  });

  it('given "preflight" that is not a boolean, then 400 naming the field', async () => {
    const res = await post('/games', { agents: ['balanced', 'turtle'], preflight: 'no' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('preflight');
  });
});

/**
 * An LLM seat whose model has no price (the providers file prices only `m`): refused with the price
 * to add, unless allow_unpriced; then played, with its cost unknown (null), never $0, in GET answers.
 */
describe('unpriced models over REST', () => {
  const get = async (path: string) => (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${ADMIN}` } })).json() as Promise<Record<string, unknown>>;
  const HOW = /dead:my-finetune-v2 has no price.*add one to the providers file \("prices": \{"my-finetune-v2": \{"inputPerMTok": <USD>, "outputPerMTok": <USD>\}\}.*allow_unpriced/;

  it('given POST /games with an unpriced seat, then 400 naming the model and the price to add; with allow_unpriced, 201 and its seat cost null', async () => {
    const agents = ['balanced', 'llm:dead:my-finetune-v2'];
    const refused = await post('/games', { agents, seed: 7, preflight: false });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(HOW);

    const created = await post('/games', { agents, seed: 7, preflight: false, allow_unpriced: true });
    expect(created.status).toBe(201);
    const { game_id } = (await created.json()) as { game_id: string };
    const game = (await get(`/games/${game_id}`)) as { seat_health?: Array<{ agent: string; cost_usd: number | null }> };
    expect(game.seat_health?.find((s) => s.agent === 'llm:dead:my-finetune-v2')).toMatchObject({ cost_usd: null });
    // The priced seat keeps a number.
    expect(game.seat_health?.find((s) => s.agent === 'balanced')?.cost_usd).toBe(0);
  });

  it('given POST /tournaments with an unpriced entrant, then 400 naming the model and the price to add; with allow_unpriced, 201 and its cost null', async () => {
    const body = { format: 'round-robin', entrants: ['balanced', 'turtle', 'llm:dead:my-finetune-v2'], seats: 2, max_games: 2, preflight: false };
    const refused = await post('/tournaments', body);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(HOW);

    const created = await post('/tournaments', { ...body, allow_unpriced: true });
    expect(created.status).toBe(201);
    const { tournament_id } = (await created.json()) as { tournament_id: string };
    const t = (await get(`/tournaments/${tournament_id}`)) as { llm?: Record<string, { cost_usd: number | null }> };
    expect(t.llm?.['llm:dead:my-finetune-v2']).toMatchObject({ cost_usd: null });
  });
});
