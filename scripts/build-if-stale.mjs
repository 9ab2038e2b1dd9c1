// `npm start` runs what `npm install` built (dist/); this rebuilds it first when anything in src/
// changed since, so a fresh edit is never served stale.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const entry = join(root, 'dist', 'cli', 'main.js');

const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((m, d) => {
    const p = join(dir, d.name);
    return Math.max(m, d.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }, 0);

const builtAt = existsSync(entry) ? statSync(entry).mtimeMs : 0;
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
// An installed package ships dist/ without src/ or TypeScript: nothing to rebuild there.
if (existsSync(join(root, 'src')) && existsSync(tsc) && builtAt <= newest(join(root, 'src'))) {
  console.error('tiltyard: src/ changed since the last build; building dist/ …');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  } catch (e) {
    // tsc still emits on type errors; only a missing build is fatal.
    if (!existsSync(entry)) throw e;
    console.error('tiltyard: the build reported type errors; starting the emitted code anyway');
  }
}

// The bundle bin/tiltyard.js prefers (scripts/bundle.mjs), whenever it is older than dist/ (which
// tsc alone, e.g. the test setup, may have rebuilt): until then the bin runs dist/, just slower.
const bundle = join(root, 'dist', 'bundle', 'main.js');
const bundler = join(root, 'scripts', 'bundle.mjs');
if (existsSync(entry) && existsSync(bundler) && (existsSync(bundle) ? statSync(bundle).mtimeMs : -1) < statSync(entry).mtimeMs) {
  try {
    execFileSync(process.execPath, [bundler], { cwd: root, stdio: 'inherit' });
  } catch {
    console.error('tiltyard: bundling failed; starting from dist/ unbundled');
  }
}

// The visualizer (dist/visualizer) likewise, when its sources or the shared view code changed.
const page = join(root, 'dist', 'visualizer', 'index.html');
const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const viewSources = ['visualizer', 'src/view', 'src/game', 'src/protocol'].map((d) => join(root, d)).filter(existsSync);
if (existsSync(join(root, 'visualizer')) && existsSync(vite) && (existsSync(page) ? statSync(page).mtimeMs : 0) <= Math.max(...viewSources.map(newest))) {
  console.error('tiltyard: the visualizer changed since the last build; building dist/visualizer …');
  try {
    execFileSync(process.execPath, [vite, 'build', '-c', 'visualizer/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  } catch {
    console.error('tiltyard: the visualizer build failed; the API still works');
  }
}
