import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSettings } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { JsonLogger } from '../../src/lib/json-logger.js';
import { until } from './spawn-server.js';

type Listed = { games: { game_id: string; options: Record<string, unknown> }[] };
const demoGames = async (s: RunningServer) => ((await (await fetch(`${s.url}/games`)).json()) as Listed).games.filter((g) => g.options['demo'] === true);

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

  it('given the demo on, then it listens and answers /health before the demo game is dealt, which waits for its gate (by default the first answer)', async () => {
    let asked = false;
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const s = await createServer(serverSettings({ PORT: '0', TILTYARD_DATA_DIR: 'memory://' }), {
      logger: new JsonLogger('silent'),
      demoGate: () => {
        asked = true;
        return gate;
      },
    });
    try {
      expect((await fetch(`${s.url}/health`)).status).toBe(200);
      // Either the server reached the gate, or (as it did before the gate) dealt the demo regardless.
      await until('the demo gate asked for, or a demo game dealt', async () => (asked || (await demoGames(s)).length > 0 ? true : undefined), 60_000);
      expect({ asked, demo: await demoGames(s) }).toEqual({ asked: true, demo: [] });
      open();
      await s.ready;
      expect(await demoGames(s)).toHaveLength(1);
    } finally {
      open();
      await s.close();
    }
  }, 120_000);
});
