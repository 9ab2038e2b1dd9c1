import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSettings } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { cspHeader, DOCS_CSP, VISUALIZER_CSP } from '../../src/server/http/security-headers.js';
import { JsonLogger } from '../../src/lib/json-logger.js';
import { launchBrowser, type Browser } from '../visualizer/browser.js';

type Headers = Record<string, string | string[] | undefined>;

/** The headers every response must carry, whatever answered it (a route, a middleware, engine.io). */
function expectHardened(what: string, h: Headers): void {
  expect(h['x-content-type-options'], what).toBe('nosniff');
  expect(h['content-security-policy'], what).toContain("frame-ancestors 'none'");
  expect(h['x-frame-options'], what).toBe('DENY');
  expect(h['referrer-policy'], what).toBe('no-referrer');
  expect(h['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(h['cross-origin-resource-policy'], what).toBe('same-origin');
  expect(h['x-powered-by'], what).toBeUndefined();
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('security headers on every kind of response', () => {
  let server: RunningServer;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await createServer(serverSettings({ PORT: '0', TILTYARD_DATA_DIR: 'memory://', TILTYARD_DEMO: 'off', TILTYARD_ADMIN_TOKEN: 'adm' }), {
      logger: new JsonLogger('silent'),
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const get = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${server.url}${path}`, { redirect: 'manual', ...init });
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };

  it('given REST answers and errors, from routes and from the middlewares before them, then each is hardened with the API CSP', async () => {
    const json = { 'content-type': 'application/json' };
    const cases: Array<[string, number, Promise<Awaited<ReturnType<typeof get>>>]> = [
      ['GET /games', 200, get('/games')],
      ['GET /health', 200, get('/health')],
      ['GET /docs/openapi.json', 200, get('/docs/openapi.json')],
      ['unknown route', 404, get('/nope')],
      ['unknown game', 404, get('/games/game_missing')],
      ['repeated parameter (requestGuard)', 400, get('/games?limit=1&limit=2')],
      ['form body (jsonOnly)', 415, get('/games', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x=1' })],
      ['broken JSON (body parser)', 400, get('/games', { method: 'POST', headers: json, body: '{' })],
      ['huge body (body parser)', 413, get('/games', { method: 'POST', headers: json, body: JSON.stringify({ agents: ['x'.repeat(2_000_000)] }) })],
      ['no token (role guard)', 403, get('/games', { method: 'POST', headers: json, body: '{}' })],
    ];
    for (const [what, status, answer] of cases) {
      const res = await answer;
      expect(res.status, what).toBe(status);
      expectHardened(what, res.headers);
      expect(res.headers['content-security-policy'], what).toMatch(/^default-src 'none'/);
    }
  });

  it('given socket.io over HTTP (long-polling, its errors, a websocket upgrade), then engine.io answers hardened too', async () => {
    const handshake = await get('/socket.io/?EIO=4&transport=polling');
    expect(handshake.status).toBe(200);
    expectHardened('polling handshake', handshake.headers);
    const bad = await get('/socket.io/?EIO=4&transport=carrier-pigeon');
    expect(bad.status).toBe(400);
    expectHardened('engine.io error', bad.headers);
    const upgrade = await new Promise<Headers>((resolve, reject) => {
      const req = request(`${server.url}/socket.io/?EIO=4&transport=websocket`, {
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
      });
      req.on('upgrade', (res, socket) => {
        socket.destroy();
        resolve(res.headers);
      });
      req.on('response', (res) => reject(new Error(`no upgrade: ${res.statusCode}`)));
      req.on('error', reject);
      req.end();
    });
    expectHardened('websocket upgrade', upgrade);
  });

  it('given the visualizer, then its pages keep their strict CSP and its assets (found or not) are hardened', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expectHardened('/', page.headers);
    expect(page.headers['content-security-policy']).toBe(cspHeader(VISUALIZER_CSP));
    for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "base-uri 'none'", "object-src 'none'"])
      expect(page.headers['content-security-policy']).toContain(directive);
    expect(page.headers['content-security-policy']).not.toMatch(/unsafe-|\*/);
    const watch = await get('/watch/games/game_x');
    expectHardened('/watch/games/:id', watch.headers);
    expect(watch.headers['content-security-policy']).toBe(cspHeader(VISUALIZER_CSP));
    // The seat page holds a seat token in its tab: the same strict CSP (no inline or foreign script to read it).
    const seat = await get('/seat/game_x/plr_1');
    expect(seat.status).toBe(200);
    expectHardened('/seat/:game/:player', seat.headers);
    expect(seat.headers['content-security-policy']).toBe(cspHeader(VISUALIZER_CSP));
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(asset, 'the built index.html names its script').toBeDefined();
    const script = await get(asset!);
    expect(script.status).toBe(200);
    expectHardened(asset!, script.headers);
    const missing = await get('/assets/missing.js');
    expect(missing.status).toBe(404);
    expectHardened('missing asset', missing.headers);
  });

  it("given /docs, then its CSP allows Swagger UI's own files and exactly the page's inline styles, never an inline script", async () => {
    for (const path of ['/docs', '/docs/', '/docs/index.html']) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      expectHardened(path, page.headers);
      const csp = page.headers['content-security-policy']!;
      expect(csp, path).toBe(cspHeader(DOCS_CSP));
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      // Every inline style of the page must be allowed by its hash (this names the ones missing).
      const styles = [...page.body.matchAll(/<style>([\s\S]*?)<\/style>/g), ...page.body.matchAll(/\sstyle="([^"]*)"/g)].map((m) => sha256(m[1]!));
      expect(styles.length).toBeGreaterThan(0);
      expect(styles.filter((h) => !csp.includes(h)), `hashes ${path} needs in DOCS_CSP`).toEqual([]);
      expect([...page.body.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!.trim()).filter(Boolean), 'inline scripts').toEqual([]);
    }
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-ui-init.js']) expectHardened(asset, (await get(`/docs/${asset}`)).headers);
  });

  it('given /docs in a real browser, then Swagger UI renders and calls the API without one CSP violation, and an injected inline script is blocked', async () => {
    browser = await launchBrowser();
    const page = await browser.page();
    // Page code as strings: this project's TypeScript has no DOM types (test/visualizer does the same).
    await page.addInitScript(
      "window.cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(`${e.effectiveDirective} ${e.blockedURI}`));",
    );
    const violations = () => page.evaluate<string[]>('window.cspViolations');
    await page.goto(`${server.url}/docs`);
    await page.locator('.swagger-ui .info .title', { hasText: 'Tiltyard' }).waitFor();
    const health = page.locator('.opblock', { hasText: '/health' }).first();
    await health.locator('.opblock-summary').click();
    await health.getByRole('button', { name: 'Try it out' }).click();
    await health.getByRole('button', { name: 'Execute' }).click();
    await health.locator('.live-responses-table .response-col_status', { hasText: '200' }).waitFor();
    // The page's own styles applied (allowed by hash): the SVG sprite takes no room.
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('body > svg')).position")).toBe('absolute');
    expect(await violations()).toEqual([]);
    expect(browser.errors).toEqual([]);
    // The policy is enforced, so the empty list above means something.
    await page.evaluate("const s = document.createElement('script'); s.textContent = 'window.injected = 1'; document.body.append(s)");
    await expect.poll(violations).toEqual([expect.stringMatching(/^script-src-elem inline/)]);
    expect(await page.evaluate<unknown>('window.injected')).toBeUndefined();
  });
});
