import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** npm's own range logic (semver is in the tree through many packages; it ships no types). */
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } }> };

/**
 * Packages that want a newer Node than we promise, and why that is harmless (the README says so).
 * Anything else wanting more than our oldest Node is a warning on every `npm install` and a
 * possible break: pin it (package.json `overrides`) instead.
 */
const HARMLESS: Record<string, string> = {
  '@prisma/streams-local': 'pulled by the Prisma CLI for `prisma dev`, which Tiltyard never runs',
};

describe('npm install on the oldest Node the README promises', () => {
  it('every locked package runs on it, but the ones the README names as harmless', () => {
    // Prisma 7, Vite and friends need 20.19: that is the oldest Node we can promise.
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    expect(oldest).toBe('20.19.0');
    const tooNew = Object.entries(lock.packages)
      .filter(([path, p]) => path && p.engines?.node && !semver.satisfies(oldest, p.engines.node))
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect([...new Set(tooNew)].sort()).toEqual(Object.keys(HARMLESS).sort());
    const install = readFileSync(join(root, 'docs', 'install.md'), 'utf8');
    for (const name of Object.keys(HARMLESS)) expect(install).toContain(`\`${name}\``);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('You need Node 20.19 or later');
  });

  it('promises the Node versions CI runs (20, 22, 24: .ci/run, CI_NODES) and no untested major', () => {
    for (const v of ['20.19.0', '22.12.0', '22.23.3', '24.0.0', '24.21.0']) expect(semver.satisfies(v, pkg.engines.node), v).toBe(true);
    for (const v of ['20.18.3', '21.7.3', '22.11.0', '23.11.1', '25.0.0']) expect(semver.satisfies(v, pkg.engines.node), v).toBe(false);
  });
});
