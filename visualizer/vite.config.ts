import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The visualizer: Preact through Vite 8's own JSX transform (oxc), no preset plugin. Built into
 * dist/visualizer, which the Nest server serves at `/`. `npm run dev:visualizer` proxies the API
 * and the socket to a server on :3000 (TILTYARD_URL to change it).
 */
export default defineConfig({
  root: here,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/visualizer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Nothing inline: the served CSP forbids inline script.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything a page needs before it draws goes in the entry's one file. Left to itself,
          // Rolldown cut the entry's modules into a chunk per set of lazy chunks sharing them
          // (socket.io and signals, the view fold, seat colours, Preact): five scripts where one
          // does, each paying its own response headers and compressing worse alone (~5 KB on a
          // game page). Lazy chunks import what they share from the entry, loaded first anyway.
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      ['/games', '/tournaments', '/ladders', '/health', '/docs', '/agents', '/socket.io'].map((p) => [p, { target: process.env['TILTYARD_URL'] ?? 'http://127.0.0.1:3000', ws: p === '/socket.io', changeOrigin: true }]),
    ),
  },
});
