import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSettings } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { JsonLogger } from '../../src/lib/json-logger.js';

type Operation = { summary?: string; tags?: string[]; parameters?: Array<{ name: string; in: string; required?: boolean }>; responses: Record<string, unknown>; security?: unknown[] };
type OpenApi = {
  openapi: string;
  info: { title: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string; scheme: string }> };
};

/** Every `$ref` anywhere in a JSON value. */
const refsIn = (node: unknown): string[] =>
  Array.isArray(node)
    ? node.flatMap(refsIn)
    : node && typeof node === 'object'
      ? Object.entries(node).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refsIn(v)))
      : [];

describe('API docs', () => {
  let server: RunningServer;
  let doc: OpenApi;
  beforeAll(async () => {
    server = await createServer(serverSettings({ PORT: '0', TILTYARD_DATA_DIR: 'memory://', TILTYARD_DEMO: 'off' }), { logger: new JsonLogger('silent') });
    const res = await fetch(`${server.url}/docs/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    doc = (await res.json()) as OpenApi;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('given /docs, then Swagger UI is served as HTML with its assets from this server (no CDN)', async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    const assets = [...html.matchAll(/(?:src|href)=["']([^"']+)["']/g)].map((m) => m[1]!);
    expect(assets).toEqual(expect.arrayContaining(['./docs/swagger-ui-bundle.js', './docs/swagger-ui.css']));
    expect(assets.filter((a) => /^(https?:)?\/\//.test(a))).toEqual([]);
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-ui-init.js']) {
      const a = await fetch(`${server.url}/docs/${asset}`);
      expect(a.status, asset).toBe(200);
      expect((await a.text()).length, asset).toBeGreaterThan(100);
    }
  });

  it('given the OpenAPI document, then it lists every route of the API, each described, with its errors', () => {
    expect(doc.openapi).toBe('3.1.0');
    const routes = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(routes.sort()).toEqual(
      [
        'GET /health',
        'GET /stats',
        'POST /games',
        'GET /games',
        'GET /games/{id}',
        'POST /games/{id}/fork',
        'GET /games/{id}/events',
        'GET /games/{id}/snapshot',
        'GET /games/{id}/replay',
        'GET /games/{id}/win-probability',
        'GET /games/{id}/traces',
        'GET /games/{id}/verify',
        'GET /games/{id}/analytics',
        'GET /games/{id}/seats/{player_id}/request',
        'POST /games/{id}/seats/{player_id}/decision',
        'GET /agents',
        'POST /tournaments',
        'POST /tournaments/{id}/resume',
        'GET /tournaments',
        'GET /tournaments/{id}',
        'GET /tournaments/{id}/attacks',
        'GET /tournaments/{id}/report',
        'POST /ladders',
        'GET /ladders',
        'GET /ladders/{id}',
        'POST /ladders/{id}/entrants',
      ].sort(),
    );
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.tags, `${method} ${path}`).not.toContain('undocumented');
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['401', '500']));
      }
    }
  });

  it('given the documented parameters, then they match what the routes accept', () => {
    const params = (path: string, method = 'get') => Object.fromEntries((doc.paths[path]?.[method]?.parameters ?? []).map((p) => [p.name, `${p.in}${p.required ? '!' : ''}`]));
    expect(params('/games/{id}/events')).toEqual({ id: 'path!', after: 'query', limit: 'query', view: 'query' });
    expect(params('/games/{id}/snapshot')).toEqual({ id: 'path!', seq: 'query', view: 'query' });
    expect(params('/games')).toEqual({ status: 'query', limit: 'query', cursor: 'query', agent: 'query', tournament: 'query' });
    expect(params('/games/{id}/seats/{player_id}/request')).toEqual({ id: 'path!', player_id: 'path!' });
    expect(Object.keys(doc.paths['/games/{id}/seats/{player_id}/decision']!['post']!.responses).sort()).toEqual(['202', '400', '401', '403', '404', '409', '422', '500']);
    const body = doc.components.schemas['CreateGameBody'] as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(body.properties).sort()).toEqual(['agents', 'allow_unpriced', 'broadcast_unsafe', 'human_timeout_ms', 'pace_ms', 'preflight', 'rules', 'seed', 'spectator_delay_ms', 'spectators']);
    expect(body.required).toEqual(['agents']);
    expect(params('/tournaments')).toEqual({ status: 'query', limit: 'query', cursor: 'query' });
    expect(params('/tournaments/{id}/report')).toEqual({ id: 'path!', format: 'query', table: 'query' });
    const trn = doc.components.schemas['CreateTournamentBody'] as { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
    expect(Object.keys(trn.properties)).toEqual(expect.arrayContaining(['format', 'entrants', 'seats', 'seeds', 'seed', 'max_games', 'duplicate', 'stop_when_separated', 'name', 'pace_ms', 'spectator_delay_ms', 'spectators', 'broadcast_unsafe']));
    expect(trn.required.sort()).toEqual(['entrants', 'format', 'seats']);
    expect(trn.additionalProperties).toBe(false);
  });

  it('given the document, then every $ref resolves and the error shape is {statusCode, error, message}', () => {
    for (const r of refsIn(doc)) expect(Object.keys(doc.components.schemas), r).toContain(r.replace('#/components/schemas/', ''));
    expect(doc.components.schemas['Error']).toMatchObject({ required: ['statusCode', 'error', 'message'] });
  });

  it('given the document, then it states the Bearer token scheme and the socket.io /spectate protocol', () => {
    expect(doc.components.securitySchemes['bearer']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/games/{id}/verify']?.['get']?.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/games']?.['post']?.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/tournaments']?.['post']?.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/ladders']?.['post']?.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/ladders/{id}/entrants']?.['post']?.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/tournaments/{id}/report']?.['get']?.security).toEqual([{ bearer: [] }]);
    for (const word of ['/spectate', 'join', 'afterSeq', 'snapshot', 'backlog', 'heartbeat', 'state_hash', 'lobby', 'Bearer', 'tournament_started', 'tournament_game_ended', 'tournament_ended'])
      expect(doc.info.description).toContain(word);
  });
});
