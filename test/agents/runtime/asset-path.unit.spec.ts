import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_ASSET_PATH_BYTES,
  MAX_ASSET_PATH_DEPTH,
  assetPathShape,
  insideWorkDir,
} from '../../../src/agents/runtime/asset-path.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A real (symlink-free) work dir holding out/a.png. */
function workDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tiltyard-asset-path-')));
  dirs.push(dir);
  mkdirSync(join(dir, 'out'));
  writeFileSync(join(dir, 'out', 'a.png'), 'png');
  return dir;
}

describe('assetPathShape', () => {
  it('given a path of exactly the byte bound, then it passes; one byte more is too long', () => {
    const at = `${'a/'.repeat(15)}${'b'.repeat(MAX_ASSET_PATH_BYTES - 30)}`;
    expect(Buffer.byteLength(at)).toBe(MAX_ASSET_PATH_BYTES);
    expect(assetPathShape(at)).toBeNull();
    expect(assetPathShape(`${at}c`)?.code).toBe('asset/path_too_long');
  });

  it('given multi-byte characters, then the bound counts UTF-8 bytes, not characters', () => {
    const e = 'é'.repeat(MAX_ASSET_PATH_BYTES / 2 + 1); // 513 characters, 1,026 bytes
    expect(assetPathShape(e)?.code).toBe('asset/path_too_long');
  });

  it('given the path of the report (x/ × 60,000), then it is too long and the message quotes only its start', () => {
    const v = assetPathShape('x/'.repeat(60_000));
    expect(v?.code).toBe('asset/path_too_long');
    expect(v!.message.length).toBeLessThan(200);
  });

  it('given the depth bound in components, then it passes; one more is too deep; empty components do not count', () => {
    const at = Array(MAX_ASSET_PATH_DEPTH).fill('d').join('/');
    expect(assetPathShape(at)).toBeNull();
    expect(assetPathShape(`/${at.replaceAll('/', '//')}/`)).toBeNull();
    const deeper = assetPathShape(`${at}/d`);
    expect(deeper).toEqual({
      code: 'asset/path_too_deep',
      message: expect.stringContaining(`${MAX_ASSET_PATH_DEPTH + 1} components`) as string,
    });
  });
});

describe('insideWorkDir', () => {
  it('given paths inside (existing, not yet written, absolute, "..x"), then they are inside', async () => {
    const dir = workDir();
    for (const path of ['out/a.png', 'out/new/b.png', join(dir, 'out', 'a.png'), '..x.png', 'out/../c.png']) {
      expect(await insideWorkDir(dir, path), path).toBe(true);
    }
  });

  it('given paths that leave (parent, absolute, the work dir itself), then they are not', async () => {
    const dir = workDir();
    for (const path of ['../x', '../../etc/passwd', '/etc/passwd', '.', dir, 'new/../../x']) {
      expect(await insideWorkDir(dir, path), path).toBe(false);
    }
  });

  it('given ".." after a symlink, then it is the parent of the link target, as the kernel reads it, not the work dir', async () => {
    const dir = workDir();
    const elsewhere = workDir();
    mkdirSync(join(elsewhere, 'deep'));
    writeFileSync(join(elsewhere, 'secret'), 's');
    symlinkSync(join(elsewhere, 'deep'), join(dir, 'link'));
    // Resolving ".." by hand first would read both as <work dir>/secret.
    expect(await insideWorkDir(dir, 'link/../secret')).toBe(false);
    expect(await insideWorkDir(dir, 'link/../not-yet')).toBe(false);
  });

  it('given a path of the full depth through symlinks that stay inside, then it is inside', async () => {
    const dir = workDir();
    // d0/d1/…, where every other level is reached through a link to a real folder next to it.
    let real = dir;
    const written: string[] = [];
    for (let i = 0; i < MAX_ASSET_PATH_DEPTH - 1; i++) {
      mkdirSync(join(real, `r${i}`));
      symlinkSync(`r${i}`, join(real, `l${i}`));
      written.push(`l${i}`);
      real = join(real, `r${i}`);
    }
    const path = [...written, 'asset.png'].join('/');
    expect(assetPathShape(path)).toBeNull();
    expect(await insideWorkDir(dir, path)).toBe(true);
  });

  it('given a symlink out of the work dir, dangling or looping on the way, then it is not inside', async () => {
    const dir = workDir();
    symlinkSync('/etc', join(dir, 'etc-link'));
    symlinkSync('/nonexistent/target', join(dir, 'dangling'));
    symlinkSync('loop-b', join(dir, 'loop-a'));
    symlinkSync('loop-a', join(dir, 'loop-b'));
    for (const path of ['etc-link/passwd', 'etc-link/new.png', 'dangling', 'dangling/x.png', 'loop-a/x.png']) {
      expect(await insideWorkDir(dir, path), path).toBe(false);
    }
  });

  it('given a NUL byte, then the path cannot be resolved and is not inside', async () => {
    expect(await insideWorkDir(workDir(), 'out/a\u0000.png')).toBe(false);
  });
});
