// Bundles the built CLI (dist/cli/main.js and everything it imports, node_modules included) into
// dist/bundle/, which bin/tiltyard.js runs when it is at least as new as dist/. Why: a start loaded
// ~2,900 files one by one — resolving, reading and compiling each was most of `npm start`'s time to
// /health. The bundle is ESM split at the CLI's dynamic imports, so `serve` still loads only its
// own code and starts opening the database before Nest's code is in. tsc's output is bundled (not
// the TypeScript), so Nest keeps the decorator metadata tsc emitted.
//
// Run by `npm run build` after tsc, and by build-if-stale and the test setup when they rebuild.
// Without esbuild (an install without dev dependencies) it says so and leaves the bin on dist/.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

const root = join(import.meta.dirname, '..');
const outdir = join(root, 'dist', 'bundle');
const entry = join(root, 'dist', 'cli', 'main.js');

/**
 * Left out of the bundle and loaded from node_modules at run time, as before: packages that load
 * WASM or data files (PGlite, Prisma's schema engine and query compiler), swagger-ui's assets, and
 * the Redis scale-out stack (bullmq, ioredis, with an optional native addon), which only `worker`
 * and a server with REDIS_URL load.
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@prisma/schema-engine-wasm',
  '@prisma/client/runtime/query_compiler_*',
  'swagger-ui-dist',
  'bullmq',
  'ioredis',
];

/**
 * How a module names its own location, outside strings and property accesses. Every bundled file
 * keeps meaning the file it was (see keepLocation), so a package serving its own files (socket.io
 * its client script) or resolving from itself (createRequire) finds them where they are.
 */
const OWN_URL = /(?<![.\w$'"`])import\.meta\.url\b/g;
const OWN_FILE = /(?<![.\w$'"`])(?:__filename|import\.meta\.filename)\b(?!['"`])/g;
const OWN_DIR = /(?<![.\w$'"`])(?:__dirname|import\.meta\.dirname)\b(?!['"`])/g;
/** A relative require.resolve would resolve from dist/bundle/: refused rather than bundled wrong. */
const RELATIVE_RESOLVE = /require\.resolve\(\s*['"`]\./;

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.error('tiltyard: esbuild is not installed; the CLI runs from dist/ unbundled (slower to start)');
  process.exit(0);
}

const isExternal = (spec) =>
  EXTERNAL.some((e) => (e.endsWith('*') ? spec.startsWith(e.slice(0, -1)) : spec === e || spec.startsWith(`${e}/`)));

/** Rewrites a file's references to its own location into its location as it was built. */
const keepLocation = {
  name: 'tiltyard-keep-location',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (RELATIVE_RESOLVE.test(source))
        throw new Error(`${args.path} resolves a relative path with require.resolve: add its package to EXTERNAL in scripts/bundle.mjs`);
      // Relative to the chunk it lands in: every chunk sits in dist/bundle/.
      const rel = (path) => relative(outdir, path).split(sep).join('/');
      const contents = source
        .replace(OWN_URL, `new URL(${JSON.stringify(rel(args.path))}, import.meta.url).href`)
        .replace(OWN_FILE, `__tiltyardPath(${JSON.stringify(rel(args.path))})`)
        .replace(OWN_DIR, `__tiltyardPath(${JSON.stringify(rel(dirname(args.path)))})`);
      return { contents, loader: 'js' };
    });
  },
};

/**
 * Externals, and optional packages that are not installed (Nest's microservices, class-validator…:
 * their importers catch the failure at run time, as they do unbundled), stay imports.
 */
const externals = {
  name: 'tiltyard-externals',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.inner || args.path.startsWith('node:')) return undefined;
      if (isExternal(args.path)) return { path: args.path, external: true };
      const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { inner: true } });
      return found.errors.length ? { path: args.path, external: true } : found;
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: { main: entry },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  splitting: true,
  outdir,
  chunkNames: '[name]-[hash]',
  // Class names stay as written: Nest and the OpenAPI document use them.
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  absWorkingDir: root,
  // Paths stay under this package's node_modules (relative to dist/bundle/), even where it is a link.
  preserveSymlinks: true,
  plugins: [externals, keepLocation],
  // ESM has no require: CommonJS packages in the bundle require node's modules and the externals.
  banner: {
    js: [
      "import { createRequire as __tiltyardRequire } from 'node:module';",
      "import { fileURLToPath as __tiltyardFileURLToPath } from 'node:url';",
      'const require = __tiltyardRequire(import.meta.url);',
      'const __tiltyardPath = (rel) => __tiltyardFileURLToPath(new URL(rel, import.meta.url));',
    ].join(' '),
  },
});
