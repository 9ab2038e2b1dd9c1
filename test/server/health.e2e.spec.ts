import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSettings } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { JsonLogger } from '../../src/lib/json-logger.js';

describe('the server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await createServer(serverSettings({ PORT: '0', TILTYARD_DATA_DIR: 'memory://', TILTYARD_DEMO: 'off' }), { logger: new JsonLogger('silent') });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('given a running server on a random port, then /health answers with the rules version and backend', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', rules_version: '2.0.0', backend: 'pglite' });
  });
});
