import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const entry = join(root, 'dist', 'cli', 'main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    newest = Math.max(newest, d.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const mtime = (path: string): number => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
};
const builtAt = (): number => mtime(entry);
const bundledAt = (): number => mtime(join(root, 'dist', 'bundle', 'main.js'));

/**
 * The CLI e2e tests run what users run: bin/tiltyard.js over dist/. Build once before the suite,
 * and only when src/ changed since the last build (npm install has usually just built it).
 */
export function setup(): void {
  buildServer();
  buildVisualizer();
  // Fresh embedded databases in the tests start from the migrated template (a no-op when current).
  execFileSync(process.execPath, [join(root, 'scripts', 'pglite-template.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
}

function buildServer(): void {
  if (builtAt() <= newestSource(join(root, 'src'))) compile();
  // What bin/tiltyard.js runs once it is as new as dist/ (scripts/bundle.mjs): the tests run that too.
  if (bundledAt() < builtAt()) execFileSync(process.execPath, [join(root, 'scripts', 'bundle.mjs')], { cwd: root, stdio: 'inherit' });
}

function compile(): void {
  try {
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: root, stdio: 'inherit' },
    );
  } catch (e) {
    // tsc still emits on type errors (the typecheck step reports them); only a missing CLI is fatal.
    if (builtAt() === 0) throw e;
    console.warn('build reported errors; testing the emitted CLI anyway');
  }
}

const visualizerIndex = join(root, 'dist', 'visualizer', 'index.html');

/**
 * The browser tests load the visualizer the server serves from dist/visualizer: rebuild it (≈ 2 s)
 * only when visualizer/ or the shared code it bundles is newer.
 */
function buildVisualizer(): void {
  let built = 0;
  try {
    built = statSync(visualizerIndex).mtimeMs;
  } catch {
    built = 0;
  }
  const sources = ['visualizer', 'src/view', 'src/game', 'src/protocol'].map((d) => newestSource(join(root, d)));
  if (built > Math.max(...sources)) return;
  try {
    // vitest sets NODE_ENV=test, and Vite passed on builds a development bundle (JSX with source
    // positions, socket.io's debug build): ~35 KB more than `npm run build` ships, which the browser
    // tests would run and bench:visualizer (which reuses a fresh dist) would measure.
    execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '-c', 'visualizer/vite.config.ts', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  } catch {
    // Only the browser tests need it; they fail with their own message, the rest of the suite runs.
    console.warn('the visualizer build failed; the browser tests will fail');
  }
}
