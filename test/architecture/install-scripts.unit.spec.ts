import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };

/**
 * npm 11 lists every dependency whose install script package.json's `allowScripts` does not decide
 * (and npm 12 will skip them). Tiltyard needs none of them, so each is denied by name: a fresh
 * install prints no advisory, and a new dependency with an install script fails here until
 * someone decides about it (and says why in the README).
 */
describe('dependencies install scripts', () => {
  it('every locked package with an install script is decided in allowScripts, and denied', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, p]) => path && p.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort());
    expect(Object.values(pkg.allowScripts ?? {}).every((allowed) => allowed === false)).toBe(true);
  });

  it('the install page (linked from the README) says why each denied script is not needed', () => {
    const install = readFileSync(join(root, 'docs', 'install.md'), 'utf8');
    for (const name of Object.keys(pkg.allowScripts ?? {})) expect(install).toContain(`\`${name}\``);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('](docs/install.md)');
  });
});
