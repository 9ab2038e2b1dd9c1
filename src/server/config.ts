import { isIP } from 'node:net';
import { z } from 'zod';
import { formatIssues } from '../protocol/permissive.js';
import { ScaleConfigError, scaleSettings, type ScaleSettings } from '../scale/settings.js';

const Tokens = z
  .string()
  .optional()
  .transform((s) => (s ?? '').split(',').map((t) => t.trim()).filter(Boolean));
const Flag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
  .optional()
  .transform((v) => (v === undefined ? undefined : ['1', 'true', 'on', 'yes'].includes(v)));
const Int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
/** An IPv4 or IPv6 address, or a CIDR range of them (`10.0.0.0/8`, `fd00::/8`). */
const isAddressOrRange = (t: string): boolean => {
  const [address = '', prefix, extra] = t.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
};
const Proxies = Tokens.refine((list) => list.every(isAddressOrRange), 'must be comma-separated IP addresses or CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8)');

/**
 * The server's configuration, from the environment (and CLI flags layered on top by `serve`).
 * Every value is validated here; a bad one stops the server at start with the variable's name.
 */
export const ServerConfig = z.object({
  PORT: Int(0, 65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().optional(),
  TILTYARD_DATA_DIR: z.string().optional(),
  /** Comma-separated; none configured ⇒ admin features are off (said at start-up). */
  TILTYARD_ADMIN_TOKEN: Tokens,
  TILTYARD_RESEARCHER_TOKEN: Tokens,
  /** Keep a demo table of built-in agents playing (default on). */
  TILTYARD_DEMO: Flag,
  TILTYARD_DEMO_AGENTS: z.string().default('balanced,aggressor,manipulator,trickster'),
  /** What anonymous viewers of the demo table see: broadcast (every seat, a round behind; default) or public. */
  TILTYARD_DEMO_SPECTATORS: z.enum(['public', 'broadcast']).default('broadcast'),
  /** Milliseconds between a live game's steps, so people can follow it (0: as fast as possible). */
  TILTYARD_PACE_MS: Int(0, 60_000).default(250),
  TILTYARD_MAX_GAMES: Int(1, 256).default(8),
  /** Move each ended game to cold storage in the background (default on; src/store/README.md "Cold storage"). */
  TILTYARD_COMPACT: Flag,
  TILTYARD_HEARTBEAT_MS: Int(100, 600_000).default(10_000),
  TILTYARD_STALE_MS: Int(100, 3_600_000).default(30_000),
  /** A state hash goes to spectators every N events. */
  TILTYARD_HASH_EVERY: Int(1, 100_000).default(50),
  /** socket.io connections one client address may hold at once (TILTYARD_TRUST_PROXY says what its address is). */
  TILTYARD_SOCKETS_PER_IP: Int(1, 1_000_000).default(20),
  /** socket.io connections this server holds at once, all addresses together. */
  TILTYARD_SOCKETS_MAX: Int(1, 1_000_000).default(2_000),
  /** Spectator `join`s one client address may send a minute, in bursts of up to a quarter of that. */
  TILTYARD_JOINS_PER_MIN: Int(1, 1_000_000).default(120),
  /**
   * Proxies in front of the server (comma-separated addresses or CIDR ranges) whose
   * X-Forwarded-For names the client. None by default: the client is the peer address.
   */
  TILTYARD_TRUST_PROXY: Proxies,
  /** JSON log lines on stdout from this level on; warn by default, so a start prints only the human summary (stderr). */
  TILTYARD_LOG: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('warn'),
});
export type ServerConfigInput = z.input<typeof ServerConfig>;

export type ServerSettings = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string | undefined;
  adminTokens: string[];
  researcherTokens: string[];
  demo: boolean;
  demoAgents: string[];
  /** The demo table's spectator mode (see live/game-options.ts). */
  demoSpectators: 'public' | 'broadcast';
  paceMs: number;
  maxGames: number;
  /** Ended games are compacted in the background (GameCompactor). */
  compact: boolean;
  heartbeatMs: number;
  staleMs: number;
  hashEvery: number;
  /** Limits on socket.io clients by address (docs/security.md). */
  socketsPerIp: number;
  socketsMax: number;
  joinsPerMin: number;
  /** Addresses and CIDR ranges of trusted proxies (empty: X-Forwarded-For is ignored). */
  trustProxy: string[];
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** REDIS_URL set: games run on `tiltyard worker` processes and steps reach spectators over Redis (docs/scale-out.md). */
  scale?: ScaleSettings | null;
};

export class ServerConfigError extends Error {}

/**
 * Workers share the API node's database, so scale-out needs PostgreSQL: checked before anything is
 * opened (`serve` says it as a usage error, not an unexpected one) and again by createServer.
 */
export function assertSharedStore(settings: Pick<ServerSettings, 'scale' | 'databaseUrl'>): void {
  if (settings.scale && !settings.databaseUrl)
    throw new ServerConfigError('REDIS_URL is set, so games run on workers, but DATABASE_URL is not: workers and API nodes must share one PostgreSQL (the embedded PGlite database lives in this process only). Set DATABASE_URL, or unset REDIS_URL to play games in this process.');
}

/**
 * Reads the settings from an environment-like record.
 *
 * @example serverSettings({ PORT: '0', TILTYARD_DEMO: 'off' }).port // 0
 */
export function serverSettings(env: Readonly<Record<string, string | undefined>> = process.env): ServerSettings {
  const parsed = ServerConfig.safeParse(env);
  if (!parsed.success) throw new ServerConfigError(`invalid server configuration: ${formatIssues(parsed.error.issues)}`);
  const c = parsed.data;
  let scale: ScaleSettings | null;
  try {
    scale = scaleSettings(env);
  } catch (e) {
    if (e instanceof ScaleConfigError) throw new ServerConfigError(e.message);
    throw e;
  }
  return {
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL || undefined,
    dataDir: c.TILTYARD_DATA_DIR,
    adminTokens: c.TILTYARD_ADMIN_TOKEN,
    researcherTokens: c.TILTYARD_RESEARCHER_TOKEN,
    demo: c.TILTYARD_DEMO ?? true,
    demoAgents: c.TILTYARD_DEMO_AGENTS.split(',').map((a) => a.trim()).filter(Boolean),
    demoSpectators: c.TILTYARD_DEMO_SPECTATORS,
    paceMs: c.TILTYARD_PACE_MS,
    maxGames: c.TILTYARD_MAX_GAMES,
    compact: c.TILTYARD_COMPACT ?? true,
    heartbeatMs: c.TILTYARD_HEARTBEAT_MS,
    staleMs: c.TILTYARD_STALE_MS,
    hashEvery: c.TILTYARD_HASH_EVERY,
    socketsPerIp: c.TILTYARD_SOCKETS_PER_IP,
    socketsMax: c.TILTYARD_SOCKETS_MAX,
    joinsPerMin: c.TILTYARD_JOINS_PER_MIN,
    trustProxy: c.TILTYARD_TRUST_PROXY,
    logLevel: c.TILTYARD_LOG,
    scale,
  };
}
