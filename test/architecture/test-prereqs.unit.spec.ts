import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decide, found, NEEDS } from '../../scripts/test-prereqs.mjs';

/** `npm test` on a fresh Debian machine: what the prerequisite check decides before any test runs. */
describe('the test suite prerequisites (scripts/test-prereqs.mjs)', () => {
  it('given every package present, then it does nothing', () => {
    expect(decide([], { root: false, apt: false })).toEqual({ action: 'none' });
  });

  it('given missing packages and root with apt-get, then it installs exactly those', () => {
    expect(decide(['bubblewrap', 'chromium'], { root: true, apt: true })).toEqual({ action: 'install', packages: ['bubblewrap', 'chromium'], command: 'apt-get install -y bubblewrap chromium' });
  });

  it('given missing packages and no root, then it tells the one sudo line and stops', () => {
    expect(decide(['slirp4netns'], { root: false, apt: true })).toEqual({ action: 'tell', packages: ['slirp4netns'], command: 'sudo apt-get install -y slirp4netns' });
    expect(decide(['strace'], { root: true, apt: false })).toMatchObject({ action: 'tell', command: 'apt-get install -y strace' });
  });

  it('looks programs up on PATH as the sandbox does, and only executable files count', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prereqs-'));
    writeFileSync(join(dir, 'bwrap'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(dir, 'strace'), 'not executable', { mode: 0o644 });
    expect(found('bwrap', dir)).toBe(true);
    expect(found('strace', dir)).toBe(false);
    expect(found('slirp4netns', dir)).toBe(false);
    expect(found(join(dir, 'bwrap'))).toBe(true);
  });

  it('names the four Debian packages the suite drives', () => {
    expect(NEEDS.map((n) => n.pkg)).toEqual(['bubblewrap', 'slirp4netns', 'strace', 'chromium']);
  });
});
