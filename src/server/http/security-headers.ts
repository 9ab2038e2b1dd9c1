import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * The security headers of every response, in one place: helmet sets them all (with the API's CSP)
 * on REST, errors, /health, static files and socket.io's polling; the two kinds of page replace
 * the CSP with theirs (the visualizer's pages, Swagger UI at /docs).
 */

type Directives = Readonly<Record<string, readonly string[]>>;

/** What no response of this server allows: being framed, plugins, a `<base>`, form posts. */
const LOCKED: Directives = {
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
};

/** JSON, errors, /health, assets: none of them is a page, so none may load anything. */
export const API_CSP: Directives = LOCKED;

/**
 * The visualizer: scripts and styles only from files of this origin (no inline script, no eval),
 * the API and the socket on this origin. Agent names and speech are untrusted; this is the second
 * wall behind rendering them as text.
 */
export const VISUALIZER_CSP: Directives = {
  ...LOCKED,
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'manifest-src': ["'self'"],
};

/**
 * Swagger UI (@nestjs/swagger's page): its three scripts are files of this origin (the document
 * is inside swagger-ui-init.js), so scripts stay `'self'` only. Styles inline in the page, two
 * `<style>` blocks and the `style` attribute of its SVG sprite, and the `<style>` of the logo that
 * swagger-ui renders, are allowed by their hashes alone. A new @nestjs/swagger or swagger-ui-dist
 * that changes them fails test/server/headers.e2e.spec.ts (the page's hashes are printed there,
 * the logo's shows as a CSP violation in the browser test). Its icons are data: URIs; "Try it
 * out" calls the API on this origin.
 */
export const DOCS_CSP: Directives = {
  ...LOCKED,
  'script-src': ["'self'"],
  'style-src': [
    "'self'",
    "'sha256-/jDKvbQ8cdux+c5epDIqkjHbXDaIY8RucT1PmAe8FG4='",
    "'sha256-eaPyLWVdqMc60xuz5bTp2yBRgVpQSoUggte1+40ONPU='",
    // The topbar logo's `<style>`: .logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}
    "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
    // Lets hashes match style attributes, and nothing else: only the SVG sprite's has this one.
    "'unsafe-hashes'",
    "'sha256-ezdv1bOGcoOD7FKudKN0Y2Mb763O6qVtM8LT2mtanIU='",
  ],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
};

/**
 * The header value of a policy.
 *
 * @example cspHeader({ 'default-src': ["'none'"] }) // "default-src 'none'"
 */
export function cspHeader(policy: Directives): string {
  return Object.entries(policy)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * Every response's headers: nosniff, the API's CSP with `frame-ancestors 'none'` and
 * `X-Frame-Options: DENY` for older browsers, `Referrer-Policy: no-referrer`, same-origin
 * opener and resource policies, no `X-Powered-By`. No HSTS: this server speaks plain HTTP; the
 * TLS terminator in front of it is the one to say it (docs/security.md).
 */
export const securityHeaders: Middleware = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: API_CSP },
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  strictTransportSecurity: false,
});

/**
 * Middleware replacing the CSP for the responses it sees (mounted after securityHeaders).
 *
 * @example app.use('/docs', withCsp(DOCS_CSP))
 */
export function withCsp(policy: Directives): Middleware {
  const header = cspHeader(policy);
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', header);
    next();
  };
}
