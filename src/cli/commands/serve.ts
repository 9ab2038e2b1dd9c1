import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bootCpuMarks, bootMark, bootMarks } from '../../lib/boot-marks.js';
import type { SandboxSettings } from '../../agents/sandbox/index.js';
import type { ServerSettings } from '../../server/config.js';
import type { RunningServer } from '../../server/create-server.js';
import { parseFlags } from '../flags.js';
import { EXIT, UsageError, type CliIo } from '../io.js';
import type { Command } from './command.js';

/**
 * How long a stopped server's process may linger before it is ended anyway: everything is closed and
 * stored by then, but a library timer can hold the event loop (opening a store that applied
 * migrations leaves Prisma's WASM schema engine a 10 s timer).
 */
const EXIT_GRACE_MS = 500;

/** The environment with the flags layered on top: flags win, as `serve --help` says. */
function serveEnv(values: { port?: string | undefined; host?: string | undefined; 'no-demo'?: boolean | undefined; 'demo-spectators'?: string | undefined }): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  if (values.port !== undefined) {
    const p = values.port.trim();
    if (!/^\d+$/.test(p) || Number(p) > 65535) throw new UsageError(`--port: must be a port number 0–65535 (0: any free port), got "${values.port}"`);
    env['PORT'] = p;
  }
  if (values.host !== undefined) {
    if (!values.host.trim()) throw new UsageError('--host: must name an interface, e.g. 127.0.0.1 or 0.0.0.0');
    env['HOST'] = values.host.trim();
  }
  if (values['no-demo']) env['TILTYARD_DEMO'] = 'off';
  const mode = values['demo-spectators'];
  if (mode !== undefined) {
    if (mode !== 'public' && mode !== 'broadcast') throw new UsageError(`--demo-spectators: must be broadcast (every seat, a round behind) or public (the public table), got "${mode}"`);
    env['TILTYARD_DEMO_SPECTATORS'] = mode;
  }
  return env;
}

const where = (s: ServerSettings, redactUrl: (url: string) => string): string =>
  s.databaseUrl ? `PostgreSQL ${redactUrl(s.databaseUrl)}` : s.dataDir === 'memory://' ? 'embedded PGlite in memory (nothing kept)' : `embedded PGlite in ${resolve(s.dataDir ?? './data')}`;

/** What a person starting the server needs to know: where everything is and what is on. */
function banner(s: ServerSettings, agents: string, url: string, redactUrl: (url: string) => string): string {
  const shown = s.demoSpectators === 'broadcast' ? 'broadcast: anyone sees every seat, a round behind' : 'public table only';
  const demo = s.demo ? `on: ${s.demoAgents.join(', ')} play one game after another, ${s.paceMs} ms between steps, ${shown} (off: --no-demo)` : 'off';
  return [
    `Tiltyard server listening on ${url}`,
    `  watch      ${url}/   (the visualizer: live games, replays)`,
    `  API        ${url}/games`,
    `  docs       ${url}/docs`,
    `  health     ${url}/health`,
    `  spectate   socket.io namespace ${url}/spectate`,
    `  store      ${where(s, redactUrl)}`,
    ...(s.databaseUrl || s.dataDir === 'memory://' ? [] : ['             (tiltyard games, run, replay, verify… use it too while this server runs)']),
    `  demo       ${demo}`,
    `  games      up to ${s.maxGames} at once; unfinished ones resume at start`,
    `  agents     ${agents}`,
    s.adminTokens.length ? `  admin      admin features are on (${s.adminTokens.length} admin token${s.adminTokens.length > 1 ? 's' : ''})` : '  admin      no TILTYARD_ADMIN_TOKEN: admin features are off',
    'Stop with Ctrl-C or SIGTERM: games pause after their current step and resume at the next start.',
    '',
  ].join('\n');
}

/**
 * `--ladder <id>`: the ladder kept running beside the server (its games are stored and watchable
 * like any other). With REDIS_URL its games play on the workers and one API node coordinates it.
 */
async function backgroundLadder(id: string | undefined, server: RunningServer, prefix: string | null): Promise<{ stop: () => Promise<void> } | null> {
  if (id === undefined || id.trim() === '') return null;
  const every = process.env['TILTYARD_LADDER_EVERY_MS'];
  const { DEFAULT_LADDER_EVERY_MS, keepLadderRunning } = await import('../../ladder/background.js');
  const everyMs = every === undefined ? DEFAULT_LADDER_EVERY_MS : Number(every);
  if (!Number.isSafeInteger(everyMs) || everyMs < 0) throw new UsageError(`TILTYARD_LADDER_EVERY_MS: a whole number of ms, got "${every}"`);
  try {
    await server.store.ladders.get(id.trim());
  } catch (e) {
    await server.close();
    throw new UsageError(`--ladder: ${e instanceof Error ? e.message : String(e)} (tiltyard ladder list lists them)`);
  }
  const stop = new AbortController();
  const log = (message: string, fields: Record<string, unknown>) => server.logger.emit('warn', message, fields);
  const { ladderOnWorkers } = await import('../../server/ladders/ladder-on-workers.js');
  const scaled = ladderOnWorkers(server.app, server.store, { prefix, ladderId: id.trim(), signal: stop.signal });
  const running = keepLadderRunning(server.store, id.trim(), { everyMs, signal: stop.signal, log, ...(scaled ?? {}), onEvent: (e) => e.type === 'deal_ended' && server.logger.emit('info', 'ladder deal ended', { ladder_id: e.ladder_id, deal: e.deal, status: e.status }) });
  return {
    stop: async () => {
      stop.abort();
      await running;
    },
  };
}

/** Resolves on the first SIGTERM or SIGINT. The listeners stay: see `run` for why. */
const stopSignal = (): Promise<NodeJS.Signals> =>
  new Promise((done) => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => done(signal));
  });

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the server: REST API, live spectating, and a demo game always playing',
  usage: `Usage: tiltyard serve [--port N] [--host H] [--no-demo] [--demo-spectators broadcast|public] [--ladder <id>]

Starts the Tiltyard server: the REST API (/games, /docs), /health, the socket.io spectator
namespace /spectate, and — unless turned off — a demo table of built-in agents playing one game
after another. Games persist in the store (DATABASE_URL, else the embedded database in
TILTYARD_DATA_DIR or ./data); unfinished games resume when the server starts again. SIGTERM or
Ctrl-C stops it gracefully: running games stop after their current step (exit code 0).

  --port N           listen on port N (default $PORT, else 3000; 0: any free port)
  --host H           listen on interface H (default $HOST, else 127.0.0.1; 0.0.0.0: all)
  --no-demo          no demo table (default $TILTYARD_DEMO, else on)
  --demo-spectators M  what anonymous viewers of the demo table see: broadcast (every seat's hand,
                     plans, private speech and emotions, at least one full round behind; the
                     default, $TILTYARD_DEMO_SPECTATORS) or public (the public table, live)
  --ladder ID        keep that ladder running (default $TILTYARD_LADDER): a deal, then
                     $TILTYARD_LADDER_EVERY_MS ms (default 10000), then the next; watchable
                     like any game. With REDIS_URL its games play on the workers and one API
                     node runs it (a Redis lease; the others take over if it stops)

Environment: TILTYARD_ADMIN_TOKEN / TILTYARD_RESEARCHER_TOKEN (comma-separated; without an admin
token nothing can be created), TILTYARD_DEMO_AGENTS, TILTYARD_PACE_MS (ms between a live game's
steps), TILTYARD_MAX_GAMES (games played at once), TILTYARD_COMPACT (on|off: move each ended game
to compressed cold storage in the background, and any left hot at start, and store games played
whole cold at once — the CLI's tournaments too; default on), TILTYARD_SOCKETS_PER_IP / TILTYARD_SOCKETS_MAX
(spectator sockets per client address, default 20, and in all, default 2000),
TILTYARD_JOINS_PER_MIN (spectator joins per address, default 120), TILTYARD_TRUST_PROXY (proxy
addresses or CIDR ranges whose X-Forwarded-For names the client; default none), TILTYARD_LOG
(debug|info|warn|error|silent; default warn). Logs are JSON lines on stdout (TILTYARD_LOG=info for every game started and
stopped); this summary goes to stderr. TILTYARD_BOOT_TIMES=1 adds one JSON line to stderr once
started: {"boot_ms": {phase: ms since the process began}, "boot_cpu_ms": {phase: CPU ms used by
then}}.

While it runs, the other commands (games, run, replay, verify…) reach its embedded database
through a unix socket in the data folder (only this user's), so they work beside it.
`,
  async run(argv: readonly string[], io: CliIo) {
    const { values } = parseFlags(() =>
      parseArgs({
        args: [...argv],
        options: { port: { type: 'string' }, host: { type: 'string' }, 'no-demo': { type: 'boolean' }, 'demo-spectators': { type: 'string' }, ladder: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
        strict: true,
        allowPositionals: false,
      }),
    );
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    // Loaded here, not at the top, and in this order: the settings, then the store (which starts
    // opening the database), then Nest and the server's modules (heavy) while it opens.
    const { assertSharedStore, serverSettings, ServerConfigError } = await import('../../server/config.js');
    const { SandboxConfigError, sandboxBanner, sandboxSettings } = await import('../../agents/sandbox/index.js');
    let settings: ServerSettings;
    let sandbox: SandboxSettings;
    try {
      settings = serverSettings(serveEnv(values));
      assertSharedStore(settings);
      sandbox = sandboxSettings();
    } catch (e) {
      if (e instanceof ServerConfigError || e instanceof SandboxConfigError) throw new UsageError(e.message);
      throw e;
    }
    // A busy port is refused before the database is opened (or created, on a first start): a
    // server that cannot listen leaves nothing behind. createServer checks again (the port may be
    // taken meanwhile) before it resumes or deals any game.
    const { assertPortFree } = await import('../../server/http/port-free.js');
    try {
      await assertPortFree(settings.host, settings.port);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
      io.err(`tiltyard: ${settings.host}:${settings.port} is in use (choose another with --port or PORT)\n`);
      return EXIT.failure;
    }
    // Listening for signals from the start: one arriving while the server starts stops it once it has.
    const stopped = stopSignal();
    // The database opens while Nest's code loads: PGlite's WASM compiles on V8's background
    // threads and its files are read meanwhile (createServer reports a failure to open).
    const { openServerStore } = await import('../../server/open-server-store.js');
    const opening = openServerStore(settings);
    opening.catch(() => {});
    let server: RunningServer;
    try {
      const { createServer } = await import('../../server/create-server.js');
      bootMark('server code loaded');
      server = await createServer(settings, { opening });
    } catch (e) {
      const { reportFailure } = await import('../store-session.js');
      setTimeout(() => process.exit(EXIT.failure), EXIT_GRACE_MS).unref();
      if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        io.err(`tiltyard: ${settings.host}:${settings.port} is in use (choose another with --port or PORT)\n`);
        return EXIT.failure;
      }
      return reportFailure(io, e);
    }
    const { redactUrl } = await import('../../store/connect.js');
    io.err(banner(settings, sandboxBanner(sandbox), server.url, redactUrl));
    server.logger.emit('info', 'server listening', { url: server.url, demo: settings.demo, admin: settings.adminTokens.length > 0 });
    if (process.env['TILTYARD_BOOT_TIMES']) void server.ready.then(() => io.err(`${JSON.stringify({ boot_ms: bootMarks(), boot_cpu_ms: bootCpuMarks() })}\n`));
    const ladder = await backgroundLadder(values.ladder ?? process.env['TILTYARD_LADDER'], server, settings.scale?.prefix ?? null);
    const signal = await stopped;
    server.logger.emit('info', `${signal}: stopping`, { signal });
    await ladder?.stop();
    // Nest's own shutdown hook re-raises the signal once the app is closed; our listeners stay
    // attached so that it lands on them instead of killing the process before the store is closed.
    await server.close();
    server.logger.emit('info', 'server stopped');
    setTimeout(() => process.exit(EXIT.ok), EXIT_GRACE_MS).unref();
    return EXIT.ok;
  },
};
