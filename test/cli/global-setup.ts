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

const builtAt = (): number => {
  try {
    return statSync(entry).mtimeMs;
  } catch {
    return 0;
  }
};

/**
 * The CLI e2e tests run what users run: bin/tiltyard.js over dist/. Build once before the suite,
 * and only when src/ changed since the last build (npm install has usually just built it).
 */
export function setup(): void {
  build();
  // Fresh embedded databases in the tests start from the migrated template (a no-op when current).
  execFileSync(process.execPath, [join(root, 'scripts', 'pglite-template.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
}

function build(): void {
  if (builtAt() > newestSource(join(root, 'src'))) return;
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
