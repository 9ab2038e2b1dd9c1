import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';

/** Where `npm run build` puts the visualizer (from dist/server or src/server alike). */
export const VISUALIZER_DIR = join(import.meta.dirname, '..', '..', '..', 'dist', 'visualizer');

/**
 * The app's Content-Security-Policy: scripts and styles only from files of this origin (no
 * inline script, no eval), the API and the socket on this origin, no plugins, frames or forms
 * elsewhere. Agent names and speech are untrusted; this is the second wall behind rendering them
 * as text.
 */
export const VISUALIZER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Pages of the single-page app. The JSON API keeps `/games/:id`; pages live under `/watch/`. */
const PAGE = /^\/(?:$|watch\/(?:games|tournaments)\/[^/]+\/?$)/;
/** A browser navigating to an API path of a game or tournament is sent to its page. */
const NAVIGABLE_API = /^\/(games|tournaments)\/([^/?]+)\/?(\?.*)?$/;

type Req = IncomingMessage & { path?: string };
type Next = (err?: unknown) => void;

function securityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', VISUALIZER_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
}

/**
 * Serves the built visualizer: `/` (the lobby), `/watch/games/:id` and `/watch/tournaments/:id`
 * (the same index.html; the client routes), and `/assets/*` (hashed, immutable). A browser
 * navigation (`Sec-Fetch-Dest: document`) to `/games/:id` is redirected to its page; every other
 * request to the API, `/docs`, `/health` and socket.io is untouched. Without a build, `/` says how
 * to make one.
 *
 * @example mountVisualizer(app) // before app.listen()
 */
export function mountVisualizer(app: NestExpressApplication, dir = VISUALIZER_DIR): void {
  const indexPath = join(dir, 'index.html');
  let index: Buffer | null = null;
  const page = (): Buffer | null => (index ??= existsSync(indexPath) ? readFileSync(indexPath) : null);
  if (existsSync(join(dir, 'assets'))) {
    app.useStaticAssets(join(dir, 'assets'), {
      prefix: '/assets/',
      index: false,
      immutable: true,
      maxAge: '365d',
      fallthrough: false,
      setHeaders: (res: ServerResponse) => securityHeaders(res),
    });
  }
  app.use((req: Req, res: ServerResponse, next: Next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const nav = NAVIGABLE_API.exec(url);
    if (nav && req.headers['sec-fetch-dest'] === 'document') {
      res.statusCode = 302;
      res.setHeader('Location', `/watch/${nav[1]}/${nav[2]}${nav[3] ?? ''}`);
      return res.end();
    }
    if (!PAGE.test(path)) return next();
    const html = page();
    securityHeaders(res);
    if (!html) {
      res.statusCode = 503;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      return res.end('The visualizer is not built: run `npm run build` (or `npm install`). The API is at /games, its docs at /docs.\n');
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.end(req.method === 'HEAD' ? undefined : html);
  });
}
