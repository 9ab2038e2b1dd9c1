import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { preview } from '../../protocol/index.js';
import type { Violation } from './outcome.js';

/**
 * Bytes (UTF-8) in an asset path. Far above any real asset's path, far below Linux's PATH_MAX
 * (4,096), and small enough that resolving one costs next to nothing.
 */
export const MAX_ASSET_PATH_BYTES = 1024;
/** Components in an asset path as sent ('/'-separated, empty ones not counted): each may cost two fs calls. */
export const MAX_ASSET_PATH_DEPTH = 32;

/**
 * Why `path` is refused before anything resolves it (too long, too deep), or null. Bounded work
 * whatever it is given: a string with more UTF-16 units than the byte bound has more UTF-8 bytes
 * too, so only a short one is measured and split.
 *
 * @example
 * assetPathShape('out/a.png');     // null
 * assetPathShape('x/'.repeat(40)); // { code: 'asset/path_too_deep', message: 'path "x/x/…" has 40 components, more than 32' }
 */
export function assetPathShape(path: string): Violation | null {
  if (path.length > MAX_ASSET_PATH_BYTES || Buffer.byteLength(path, 'utf8') > MAX_ASSET_PATH_BYTES) {
    return { code: 'asset/path_too_long', message: `path ${preview(path, 40)} is longer than ${MAX_ASSET_PATH_BYTES} bytes` };
  }
  const depth = components(path).length;
  if (depth > MAX_ASSET_PATH_DEPTH) {
    return { code: 'asset/path_too_deep', message: `path ${preview(path, 40)} has ${depth} components, more than ${MAX_ASSET_PATH_DEPTH}` };
  }
  return null;
}

/**
 * Whether `path` (relative to the work dir, or absolute) names something strictly inside the work
 * dir, symlinks followed the way the kernel would open it. The longest prefix that exists goes
 * through realpath as written — so `link/..` is the parent of link's target, which resolving `..`
 * by hand first would get wrong — and the rest, which does not exist (yet), is appended. An
 * existing entry that cannot be resolved (a dangling or looping symlink, no permission) makes it
 * false: such a path could point anywhere.
 *
 * Asynchronous, at most two fs calls a component: check assetPathShape first, since a path of
 * 60,000 components resolved synchronously once blocked the server for most of a minute.
 *
 * @example
 * await insideWorkDir(await realpath(workDir), 'out/a.png'); // true
 * await insideWorkDir(await realpath(workDir), '../x');      // false
 */
export async function insideWorkDir(realWorkDir: string, path: string): Promise<boolean> {
  const base = isAbsolute(path) ? sep : realWorkDir;
  const parts = components(path);
  for (let k = parts.length; k >= 0; k--) {
    const found = await locate(joinAsWritten(base, parts.slice(0, k)));
    if (found === MISSING) continue;
    if (found === UNRESOLVABLE) return false;
    return isInside(realWorkDir, resolve(found, ...parts.slice(k)));
  }
  return false;
}

const MISSING = Symbol('missing');
const UNRESOLVABLE = Symbol('unresolvable');

/** Where an existing path really is; MISSING when nothing is there; UNRESOLVABLE when something is but cannot be followed. */
async function locate(path: string): Promise<string | typeof MISSING | typeof UNRESOLVABLE> {
  try {
    return await realpath(path);
  } catch {
    // Not there, or there but unresolvable: lstat tells which.
  }
  try {
    await lstat(path);
    return UNRESOLVABLE;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // ENOTDIR: a component is a file, so what is below it does not exist either.
    return code === 'ENOENT' || code === 'ENOTDIR' ? MISSING : UNRESOLVABLE;
  }
}

/** No normalisation (path.join would resolve `..` by hand): the kernel resolves what is written. */
function joinAsWritten(base: string, parts: readonly string[]): string {
  if (parts.length === 0) return base;
  return `${base.endsWith(sep) ? base : base + sep}${parts.join(sep)}`;
}

function components(path: string): string[] {
  return path.split(sep).filter((c) => c !== '');
}

/** Strictly below root (root itself is a directory, not an asset). */
function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
