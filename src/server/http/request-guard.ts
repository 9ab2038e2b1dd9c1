import { STATUS_CODES } from 'node:http';
import { unsafeText } from '../safe-text.js';
import type { ErrorBody } from './error-filter.js';

type Req = { url?: string };
type Res = { statusCode: number; setHeader(name: string, value: string): void; end(body: string): void };

/** Raw request targets are ASCII (RFC 3986): anything else was never percent-encoded. */
const RAW_OK = /^[\x21-\x7e]*$/;

/**
 * Why a request target is refused before any route sees it, or null: raw bytes outside printable
 * ASCII, percent-encoding that is not UTF-8 (`%FF`), a decoded path segment or query part holding
 * a NUL or another control character, and query parameters given twice (`?limit=1&limit=2`) or in
 * bracket form (`after[]=1`, `view[admin]=1`) — every parameter of this API is one plain string.
 *
 * @example badTarget('/games/game_%00x') // 'path segment "game_%00x" contains a control character (U+0000)'
 */
export function badTarget(url: string): string | null {
  if (!RAW_OK.test(url)) return 'the request target holds bytes outside printable ASCII (percent-encode them as UTF-8)';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  for (const segment of path.split('/')) {
    const why = decodedProblem(segment);
    if (why) return `path segment ${JSON.stringify(segment)} ${why}`;
  }
  if (q === -1) return null;
  const seen = new Set<string>();
  for (const pair of url.slice(q + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const keyWhy = decodedProblem(rawKey.replaceAll('+', ' '));
    if (keyWhy) return `query parameter name ${JSON.stringify(rawKey)} ${keyWhy}`;
    const key = decodeURIComponent(rawKey.replaceAll('+', ' '));
    if (/[[\]]/.test(key)) return `query parameter ${JSON.stringify(key)}: brackets are not supported (every parameter is one plain value)`;
    if (seen.has(key)) return `query parameter ${JSON.stringify(key)} is given more than once (give it once; status takes a comma-separated list)`;
    seen.add(key);
    const valueWhy = decodedProblem(rawValue.replaceAll('+', ' '));
    if (valueWhy) return `query parameter ${JSON.stringify(key)} ${valueWhy}`;
  }
  return null;
}

function decodedProblem(raw: string): string | null {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    return 'is not valid UTF-8 percent-encoding';
  }
  return unsafeText(text);
}

/**
 * Express middleware answering 400 (the API's JSON error shape) for a request target badTarget
 * refuses, before routing, so no controller, store query or socket ever sees such input.
 */
export function requestGuard(req: Req, res: Res, next: () => void): void {
  const why = badTarget(req.url ?? '/');
  if (why === null) return next();
  const body: ErrorBody = { statusCode: 400, error: STATUS_CODES[400]!, message: `malformed request: ${why}` };
  res.statusCode = 400;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}
