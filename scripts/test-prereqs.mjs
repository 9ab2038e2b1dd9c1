#!/usr/bin/env node
// `npm test` runs this first: the suite drives real programs that npm cannot install — bubblewrap
// (the agents' sandbox), slirp4netns (a sandboxed skill's network), strace (agent-check's trace of
// what an agent tries) and Chromium (the visualizer's browser tests). A fresh Debian machine like
// CI's has none of them, and the suite would fail in dozens of places that all mean "install these".
// So: nothing to do when all are there; as root with apt-get, install what is missing (once,
// quietly, saying so); otherwise print the one `apt-get install` line and stop before any test runs.
// TILTYARD_TEST_PREREQS=skip runs the suite without looking (the tests that need a missing program fail).
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What the suite needs: the Debian package, the program the tests look for, and why. */
export const NEEDS = [
  { pkg: 'bubblewrap', program: 'bwrap', why: "the agents' sandbox" },
  { pkg: 'slirp4netns', program: 'slirp4netns', why: "a sandboxed skill's network" },
  { pkg: 'strace', program: 'strace', why: "agent-check's trace of what an agent tries" },
  { pkg: 'chromium', program: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', why: "the visualizer's browser tests" },
];

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Whether `program` (a path, or a name looked up on PATH as the sandbox does) can be run. */
export function found(program, path = process.env['PATH'] ?? '') {
  if (program.includes('/')) return executable(program);
  return path.split(delimiter).some((dir) => dir !== '' && executable(join(dir, program)));
}

/**
 * What to do about the missing packages: nothing, install them (root with apt-get), or tell the
 * user the one line that would (anyone else).
 *
 * @example decide(['chromium'], { root: true, apt: true }) // → { action: 'install', packages: ['chromium'], command: … }
 */
export function decide(missing, { root, apt }) {
  if (missing.length === 0) return { action: 'none' };
  const line = `apt-get install -y ${missing.join(' ')}`;
  if (root && apt) return { action: 'install', packages: missing, command: line };
  return { action: 'tell', packages: missing, command: apt ? `sudo ${line}` : line };
}

function main() {
  if (process.env['TILTYARD_TEST_PREREQS'] === 'skip') return 0;
  const missing = NEEDS.filter((n) => !found(n.program));
  const plan = decide(
    missing.map((n) => n.pkg),
    { root: typeof process.getuid === 'function' && process.getuid() === 0, apt: found('apt-get') },
  );
  if (plan.action === 'none') return 0;
  const list = missing.map((n) => `  ${n.pkg} (${n.why})`).join('\n');
  if (plan.action === 'tell') {
    process.stderr.write(
      `The test suite needs Debian packages that are not installed:\n${list}\n` +
        `Install them, then run npm test again:\n\n  ${plan.command}\n\n` +
        `(Or TILTYARD_TEST_PREREQS=skip npm test to run without them: the tests that need them fail.)\n`,
    );
    return 1;
  }
  process.stderr.write(`Installing the Debian packages the test suite needs (once):\n${list}\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  const update = run(['update', '-qq']);
  const install = update.status === 0 ? run(['install', '-y', '-qq', ...plan.packages]) : update;
  const still = missing.filter((n) => !found(n.program));
  if (install.status !== 0 || still.length > 0) {
    const why = install.error ? install.error.message : `apt-get exited with ${install.status ?? install.signal}`;
    process.stderr.write(`Could not install them (${why}). Try by hand:\n\n  ${plan.command}\n\n`);
    return 1;
  }
  process.stderr.write(`Installed: ${plan.packages.join(', ')}.\n`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exit(main());
