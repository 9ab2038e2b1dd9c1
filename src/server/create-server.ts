import 'reflect-metadata';
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { warmInterpreter } from '../agents/skills/load-skill.js';
import { bootMark } from '../lib/boot-marks.js';
import { logTransientWaits, type EventStore } from '../store/index.js';
import { AppModule } from './app.module.js';
import { assertSharedStore, type ServerSettings } from './config.js';
import { setupDocs } from './docs/setup-docs.js';
import { compress } from './http/compress.js';
import { jsonOnly } from './http/json-only.js';
import { readRetryBudget } from './http/read-retry-budget.js';
import { assertPortFree } from './http/port-free.js';
import { firstAnswer } from './http/first-answer.js';
import { requestGuard } from './http/request-guard.js';
import { securityHeaders } from './http/security-headers.js';
import { GameService } from './games/game.service.js';
import { JsonLogger } from '../lib/json-logger.js';
import { TournamentsService } from './tournaments/tournaments.service.js';
import { SpectateIoAdapter } from './spectate/spectate-io-adapter.js';
import { mountVisualizer } from './visualizer/serve-visualizer.js';
import { openServerStore } from './open-server-store.js';
import { replenishSpare, type SpareJob } from '../store/pglite-template.js';

/** How long an idle keep-alive connection stays open (see createServer). */
export const KEEP_ALIVE_MS = 65_000;

export type RunningServer = {
  app: INestApplication;
  store: EventStore;
  /** http://host:port */
  url: string;
  port: number;
  logger: JsonLogger;
  /**
   * Resolves once the work a start does after listening is done: unfinished games and tournaments
   * queued again, the demo game dealt (after the first answer). /health answers before that.
   */
  ready: Promise<void>;
  /** Stops taking work, lets running steps commit, closes sockets and the store. Idempotent. */
  close(): Promise<void>;
};

/**
 * Opens the store (migrations applied), builds the Nest app with socket.io, and listens; then, in
 * the background (`ready`), resumes unfinished games and tournaments and deals the demo game.
 *
 * @example const s = await createServer(serverSettings({ PORT: '0', TILTYARD_DEMO: 'off' })); await fetch(`${s.url}/health`)
 */
export async function createServer(
  settings: ServerSettings,
  options: {
    /** A store the caller owns (and closes). */
    store?: EventStore;
    /** The server's own store, already opening (openServerStore): this server closes it. */
    opening?: Promise<EventStore>;
    logger?: JsonLogger;
    /**
     * Called once the unfinished games are queued again; the demo game is dealt when it resolves.
     * Default: the server's first answer, or a second of nobody asking (see firstAnswer).
     */
    demoGate?: () => Promise<void>;
  } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? new JsonLogger(settings.logLevel);
  // A busy port fails here, before any game is resumed or created.
  await assertPortFree(settings.host, settings.port);
  if (!options.store) assertSharedStore(settings);
  const store = options.store ?? (await (options.opening ?? openServerStore(settings)));
  bootMark('store open');
  const unlogWaits = logTransientWaits(store.onTransientWait.bind(store), (message, fields) => logger.emit('warn', message, fields));
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ store, settings, logger }), { logger, abortOnError: false });
  bootMark('nest app created');
  // First, so every answer carries them, the middlewares' own 400s and 415s included.
  app.disable('x-powered-by');
  app.use(securityHeaders);
  // The demo is dealt behind the first answer: a fresh server's first /health does not wait for it.
  const first = firstAnswer();
  app.use(first.middleware);
  // Every text answer (assets, JSON, event pages) goes out brotli or gzip (see compress for why
  // that is no BREACH oracle here); socket.io answers its own requests and is left alone.
  app.use(compress);
  // Before any route: malformed targets (NUL, bad UTF-8, repeated or bracketed params) are 400s.
  app.use(requestGuard);
  // Every body this API takes is JSON: anything else is one clear 415, not a form parsed half-way.
  app.use(jsonOnly);
  // A read waits a few seconds for a database that went away, then answers 503: games wait out
  // minutes (TILTYARD_STORE_RETRY_MS), a person at a page should not. Writes keep the full budget,
  // since a game or tournament they start runs on in the request's context.
  app.use(readRetryBudget(store));
  app.useWebSocketAdapter(new SpectateIoAdapter(app, settings, logger));
  app.enableShutdownHooks();
  setupDocs(app);
  mountVisualizer(app);
  try {
    await app.listen(settings.port, settings.host);
  } catch (e) {
    // Nothing was resumed or dealt yet (that waits for listening): release the store and fail.
    await app.close().catch(() => undefined);
    unlogWaits();
    if (!options.store) await store.close().catch(() => undefined);
    throw e;
  }
  bootMark('listening');
  // Games and tournaments resume after listening: /health answers meanwhile, and a server that
  // cannot listen has created nothing. A failure here is logged; the server keeps serving.
  let spare: SpareJob | null = null;
  let stopping!: () => void;
  const stopped = new Promise<null>((r) => (stopping = () => r(null)));
  const ready = (async () => {
    await app.get(GameService).afterListen();
    await app.get(TournamentsService).afterListen();
    // A close before the gate opens deals no demo game (and does not wait for the gate).
    const open = await Promise.race([(options.demoGate ?? first.answered)().then(() => true), stopped]);
    if (open) await app.get(GameService).dealDemo();
    // Skills run by python3 resolve it once per process (a version-manager shim can take seconds
    // under load); done here, off the event loop, the first GET /agents does not wait for it.
    void warmInterpreter();
    // A fresh data dir took the template's spare copy: the next one is made now, off the start's path.
    spare = await replenishSpare();
  })().catch((e: unknown) => logger.emit('error', 'cannot resume games at start', { error: e instanceof Error ? e.message : String(e) }));
  const http: Server = app.getHttpServer();
  // Idle keep-alive connections stay open KEEP_ALIVE_MS (Node's default is 5 s). A client that
  // reuses one just as the server drops it gets ECONNRESET: fetch (undici) keeps a socket until
  // 1 s before the server's `Keep-Alive: timeout` hint, and a busy client can be later than that
  // (a loaded CI run lost a POST /games so). Above the 60 s idle timeout of common load balancers,
  // as they advise; headersTimeout must exceed it. close() still drops idle sockets at once.
  http.keepAliveTimeout = KEEP_ALIVE_MS;
  http.headersTimeout = KEEP_ALIVE_MS + 1_000;
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
    ready,
    close() {
      closing ??= (async () => {
        stopping();
        await ready;
        await spare?.stop();
        await app.close();
        unlogWaits();
        if (!options.store) await store.close();
      })();
      return closing;
    },
  };
}
