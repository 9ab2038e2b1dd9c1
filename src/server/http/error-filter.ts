import { STATUS_CODES } from 'node:http';
import { Catch, HttpException, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  ConcurrencyConflictError,
  GameExistsError,
  GameNotFoundError,
  IntegrityError,
  InvalidInputError,
  SeqOutOfRangeError,
  StoreUnavailableError,
} from '../../store/index.js';
import type { JsonLogger } from '../../lib/json-logger.js';
import { integrityMessage } from '../integrity-message.js';
import { LOGGER } from '../tokens.js';

/** Every error response of the API. */
export type ErrorBody = { statusCode: number; error: string; message: string; /** A namespaced reason a client can act on (the engine's rejection code on a seat's 422). */ code?: string };

type Request = { method?: string; url?: string; params?: Record<string, string | undefined> };

/** Store failures a caller can act on, with the status and words that say so; the rest are 500s. */
function storeFailure(e: unknown): { status: number; message: string } | null {
  if (e instanceof GameNotFoundError) return { status: 404, message: `no game ${e.gameId} (GET /games lists them)` };
  if (e instanceof SeqOutOfRangeError || e instanceof InvalidInputError) return { status: 400, message: e.message };
  if (e instanceof ConcurrencyConflictError || e instanceof GameExistsError) return { status: 409, message: e.message };
  // A database being down is worth saying; its driver's words (hosts, users) are not.
  if (e instanceof StoreUnavailableError) return { status: 503, message: 'the database is unavailable; try again later' };
  // Stored data that fails its check is never served; its seqs go to the log (see integrityMessage).
  if (e instanceof IntegrityError) return { status: 500, message: integrityMessage(e) };
  return null;
}

function messageOf(response: unknown, fallback: string): string {
  if (typeof response === 'string') return response;
  const m = (response as { message?: unknown } | null)?.message;
  if (Array.isArray(m)) return m.map(String).join('; ');
  return typeof m === 'string' && m ? m : fallback;
}

/**
 * Errors thrown by Express middleware (the JSON body parser's "bad JSON" or "too large") carry
 * their status and mark whether the message is safe to show (`expose`, the http-errors convention).
 */
function exposedClientError(e: unknown): { status: number; message: string } | null {
  const x = e as { status?: unknown; statusCode?: unknown; expose?: unknown; message?: unknown } | null;
  const status = typeof x?.status === 'number' ? x.status : typeof x?.statusCode === 'number' ? x.statusCode : null;
  if (status === null || status < 400 || status > 499 || x?.expose !== true) return null;
  return { status, message: typeof x.message === 'string' ? x.message : (STATUS_CODES[status] ?? 'error') };
}

/**
 * One error shape for every HTTP failure: `{statusCode, error, message}` with a message that says
 * what to fix. Unexpected errors are logged in full (structured, with the game when the route names
 * one) and answered 500 without internals: a stack trace or a driver message would tell a stranger
 * about the server, and sometimes about hidden state.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(LOGGER) private readonly logger: JsonLogger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    // Gateways answer over their own channel; this filter is for HTTP only.
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const body = this.bodyFor(exception, req);
    this.adapterHost.httpAdapter.reply(http.getResponse(), body, body.statusCode);
  }

  private bodyFor(e: unknown, req: Request): ErrorBody {
    const of = (statusCode: number, message: string): ErrorBody => ({ statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message });
    if (e instanceof HttpException) {
      const status = e.getStatus();
      if (status >= 500) this.log(e, req);
      const code = (e.getResponse() as { code?: unknown } | null)?.code;
      return { ...of(status, messageOf(e.getResponse(), e.message)), ...(typeof code === 'string' ? { code } : {}) };
    }
    const known = storeFailure(e) ?? exposedClientError(e);
    if (known) {
      if (known.status >= 500) this.log(e, req);
      return of(known.status, known.message);
    }
    this.log(e, req);
    return of(500, 'internal error: the server logged the details');
  }

  private log(e: unknown, req: Request): void {
    const err = e instanceof Error ? e : new Error(String(e));
    const routeGame = req.url?.startsWith('/games/') ? req.params?.['id'] : undefined;
    const gameId = routeGame ?? (e as { gameId?: unknown } | null)?.gameId;
    this.logger.emit('error', `${req.method ?? '?'} ${req.url ?? '?'} failed: ${err.message}`, {
      context: 'http',
      ...(typeof gameId === 'string' ? { game_id: gameId } : {}),
      error: err.name,
      ...(e instanceof IntegrityError ? { part: e.part, first_seq: e.firstSeq, last_seq: e.lastSeq } : {}),
      ...(err.stack ? { stack: err.stack } : {}),
    });
  }
}
