import { STATUS_CODES } from 'node:http';
import type { ErrorBody } from './error-filter.js';

type Req = { method?: string; url?: string; headers: Record<string, string | string[] | undefined> };
type Res = { statusCode: number; setHeader(name: string, value: string): void; end(body: string): void };

/** application/json, or any +json type (application/merge-patch+json…), with or without parameters. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * Why a request body is refused before any route sees it, or null: every body this API takes is
 * JSON. Without this, a form-encoded `POST /games` was parsed as a form and then failed field by
 * field with messages that contradicted each other (agents "must be a list" of what was sent).
 *
 * @example unsupportedBody('POST', { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '12' })
 */
export function unsupportedBody(method: string | undefined, headers: Req['headers']): string | null {
  const hasBody = Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
  if (!hasBody || method === 'GET' || method === 'HEAD') return null;
  const type = headers['content-type'];
  const given = Array.isArray(type) ? type.join(', ') : type;
  if (given !== undefined && JSON_TYPE.test(given)) return null;
  return `request bodies must be JSON: send Content-Type: application/json (got ${given === undefined ? 'no Content-Type' : JSON.stringify(given.split(';')[0]!.trim())})`;
}

/** Express middleware answering 415 (the API's JSON error shape) for a body unsupportedBody refuses. */
export function jsonOnly(req: Req, res: Res, next: () => void): void {
  // socket.io's long-polling transport posts text/plain; it is socket.io's to parse, not ours.
  if (req.url?.startsWith('/socket.io/')) return next();
  const why = unsupportedBody(req.method, req.headers);
  if (why === null) return next();
  const body: ErrorBody = { statusCode: 415, error: STATUS_CODES[415]!, message: why };
  res.statusCode = 415;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}
