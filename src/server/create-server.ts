import 'reflect-metadata';
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { openStore, type EventStore } from '../store/index.js';
import { AppModule } from './app.module.js';
import { ServerConfigError, type ServerSettings } from './config.js';
import { setupDocs } from './docs/setup-docs.js';
import { requestGuard } from './http/request-guard.js';
import { JsonLogger } from './json-logger.js';
import { mountVisualizer } from './visualizer/serve-visualizer.js';

export type RunningServer = {
  app: INestApplication;
  store: EventStore;
  /** http://host:port */
  url: string;
  port: number;
  logger: JsonLogger;
  /** Stops taking work, lets running steps commit, closes sockets and the store. Idempotent. */
  close(): Promise<void>;
};

/**
 * Opens the store (migrations applied), builds the Nest app with socket.io, and listens.
 *
 * @example const s = await createServer(serverSettings({ PORT: '0', TILTYARD_DEMO: 'off' })); await fetch(`${s.url}/health`)
 */
export async function createServer(settings: ServerSettings, options: { store?: EventStore; logger?: JsonLogger } = {}): Promise<RunningServer> {
  const logger = options.logger ?? new JsonLogger(settings.logLevel);
  if (settings.scale && !settings.databaseUrl && !options.store)
    throw new ServerConfigError('REDIS_URL is set, so games run on workers, but DATABASE_URL is not: workers and API nodes must share one PostgreSQL (the embedded PGlite database lives in this process only). Set DATABASE_URL, or unset REDIS_URL to play games in this process.');
  const store = options.store ?? (await openStore({ ...(settings.databaseUrl ? { databaseUrl: settings.databaseUrl } : {}), ...(settings.dataDir ? { dataDir: settings.dataDir } : {}) }));
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ store, settings, logger }), { logger, abortOnError: false });
  // Before any route: malformed targets (NUL, bad UTF-8, repeated or bracketed params) are 400s.
  app.use(requestGuard);
  app.useWebSocketAdapter(new IoAdapter(app));
  app.enableShutdownHooks();
  setupDocs(app);
  mountVisualizer(app);
  try {
    await app.listen(settings.port, settings.host);
  } catch (e) {
    // Bootstrap has already resumed games: stop them and release the store before failing.
    await app.close().catch(() => undefined);
    if (!options.store) await store.close().catch(() => undefined);
    throw e;
  }
  const http: Server = app.getHttpServer();
  const address = http.address() as { port: number } | null;
  const port = address?.port ?? settings.port;
  const host = settings.host === '0.0.0.0' || settings.host === '::' ? '127.0.0.1' : settings.host;
  let closing: Promise<void> | null = null;
  return {
    app,
    store,
    url: `http://${host}:${port}`,
    port,
    logger,
    close() {
      closing ??= (async () => {
        await app.close();
        if (!options.store) await store.close();
      })();
      return closing;
    },
  };
}
