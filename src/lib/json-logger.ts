import type { LoggerService } from '@nestjs/common';

type Level = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/** Fields every game-related line carries when known. */
export type LogFields = { game_id?: string; turn?: number; phase?: string; player_id?: string; [k: string]: unknown };

/**
 * One JSON object per line on stdout (stderr for errors): `{ts, level, msg, context?, game_id?,
 * turn?, phase?, player_id?, …}`. Nest's own messages go through the same writer.
 */
export class JsonLogger implements LoggerService {
  constructor(
    private readonly level: Level | 'silent' = 'info',
    private readonly write: (line: string, level: Level) => void = (line, lvl) => (lvl === 'error' ? process.stderr : process.stdout).write(`${line}\n`),
  ) {}

  emit(level: Level, msg: string, fields: LogFields = {}): void {
    if (RANK[level] < RANK[this.level]) return;
    this.write(JSON.stringify({ ts: new Date().toISOString(), level, msg, ...fields }), level);
  }

  /** Nest's own notes (modules loaded, routes mapped, app started): ~30 lines a start, so debug. */
  log(message: unknown, context?: string): void {
    this.emit('debug', String(message), context ? { context } : {});
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.emit('error', message instanceof Error ? message.message : String(message), { ...(context ? { context } : {}), ...(trace ? { trace } : {}) });
  }
  warn(message: unknown, context?: string): void {
    this.emit('warn', String(message), context ? { context } : {});
  }
  debug(message: unknown, context?: string): void {
    this.emit('debug', String(message), context ? { context } : {});
  }
  verbose(message: unknown, context?: string): void {
    this.emit('debug', String(message), context ? { context } : {});
  }
}
