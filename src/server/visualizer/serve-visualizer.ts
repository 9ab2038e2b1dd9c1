import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { cspHeader, VISUALIZER_CSP } from '../http/security-headers.js';

/** Where `npm run build` puts the visualizer (from dist/server or src/server alike). */
export const VISUALIZER_DIR = join(import.meta.dirname, '..', '..', '..', 'dist', 'visualizer');

/** Pages of the single-page app. The JSON API keeps `/games/:id`; pages live under `/watch/`, a human seat's under `/seat/`. */
const PAGE = /^\/(?:$|watch\/replay\/?$|watch\/(?:games|tournaments|ladders)\/[^/]+\/?$|seat\/[^/]+\/[^/]+\/?$)/;
/** A browser navigating to an API path of a game, tournament or ladder is sent to its page. */
const NAVIGABLE_API = /^\/(games|tournaments|ladders)\/([^/?]+)\/?(\?.*)?$/;

type Req = IncomingMessage & { path?: string };
type Next = (err?: unknown) => void;

/** The pages' CSP; every other security header comes from securityHeaders, mounted first. */
const PAGE_CSP = cspHeader(VISUALIZER_CSP);

/**
 * Serves the built visualizer: `/` (the lobby), `/watch/games/:id`, `/watch/tournaments/:id`, `/watch/ladders/:id`, `/watch/replay`, `/seat/:game/:player`
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
    res.setHeader('Content-Security-Policy', PAGE_CSP);
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
