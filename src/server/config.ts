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
  /** Milliseconds between a live game's steps, so people can follow it (0: as fast as possible). */
  TILTYARD_PACE_MS: Int(0, 60_000).default(250),
  TILTYARD_MAX_GAMES: Int(1, 256).default(8),
  TILTYARD_HEARTBEAT_MS: Int(100, 600_000).default(10_000),
  TILTYARD_STALE_MS: Int(100, 3_600_000).default(30_000),
  /** A state hash goes to spectators every N events. */
  TILTYARD_HASH_EVERY: Int(1, 100_000).default(50),
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
  paceMs: number;
  maxGames: number;
  heartbeatMs: number;
  staleMs: number;
  hashEvery: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** REDIS_URL set: games run on `tiltyard worker` processes and steps reach spectators over Redis (docs/scale-out.md). */
  scale?: ScaleSettings | null;
};

export class ServerConfigError extends Error {}

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
    paceMs: c.TILTYARD_PACE_MS,
    maxGames: c.TILTYARD_MAX_GAMES,
    heartbeatMs: c.TILTYARD_HEARTBEAT_MS,
    staleMs: c.TILTYARD_STALE_MS,
    hashEvery: c.TILTYARD_HASH_EVERY,
    logLevel: c.TILTYARD_LOG,
    scale,
  };
}
