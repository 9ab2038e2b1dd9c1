import { existsSync, mkdirSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { errorChain } from './transient.js';

/**
 * The file-system causes an operator can act on, by POSIX name. PGlite runs PostgreSQL in
 * WebAssembly over Emscripten's file system, whose errors carry only a WASI errno number
 * (`ErrnoError { errno: 51 }`, no message: the "…: undefined" of a full disk); Node's carry
 * `code`. Both are named here.
 */
const WORDS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EIO: 'input/output error',
  EFBIG: 'file too large',
};

/** WASI errno numbers (what Emscripten's ErrnoError holds) of the causes above. */
const WASI_ERRNO: Readonly<Record<number, string>> = {
  51: 'ENOSPC',
  19: 'EDQUOT',
  69: 'EROFS',
  2: 'EACCES',
  63: 'EPERM',
  44: 'ENOENT',
  54: 'ENOTDIR',
  29: 'EIO',
  22: 'EFBIG',
};

/** The POSIX code of the first file-system error in `e`'s cause chain, or null. */
export function fsErrorCode(e: unknown): string | null {
  for (const f of errorChain(e)) {
    if (typeof f.code === 'string' && f.code in WORDS) return f.code;
    const wasi = (f as { name?: unknown; errno?: unknown }).name === 'ErrnoError' ? WASI_ERRNO[Number((f as { errno?: unknown }).errno)] : undefined;
    if (wasi) return wasi;
  }
  return null;
}

/** What a full disk says in words only (a worker's failure reason, PostgreSQL's message). */
const FULL_MESSAGE = /No space left on device|disk quota exceeded|StoreFullError/i;

/**
 * Whether `e` says the disk under the database is full: ENOSPC or EDQUOT (Node, or PGlite's WASI
 * errno), PostgreSQL's SQLSTATE 53100 disk_full, or those words in a cause chain passed on as text.
 *
 * @example isDiskFull(Object.assign(new Error('could not extend file'), { code: '53100' })) // true
 */
export function isDiskFull(e: unknown): boolean {
  const code = fsErrorCode(e);
  if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  return errorChain(e).some((f) => f.code === '53100' || (typeof f.message === 'string' && FULL_MESSAGE.test(f.message)));
}

/** What to do about it, where there is one thing to do. */
const ADVICE: Readonly<Record<string, string>> = {
  ENOSPC: 'free space there or set TILTYARD_DATA_DIR to a folder on another disk',
  EDQUOT: 'free space there or set TILTYARD_DATA_DIR to a folder on another disk',
  EROFS: 'set TILTYARD_DATA_DIR to a writable folder',
  EACCES: 'make it writable for this user or set TILTYARD_DATA_DIR to a folder that is',
  EPERM: 'make it writable for this user or set TILTYARD_DATA_DIR to a folder that is',
};

/**
 * Why a file-system step failed, in words with the code: "no space left on device (ENOSPC): free
 * space there or …". Anything else: its own message, else its cause chain's first words, so a
 * message never ends in "undefined".
 *
 * @example describeFsError(Object.assign(new Error('x'), { code: 'EROFS' })) // 'read-only file system (EROFS): set TILTYARD_DATA_DIR to a writable folder'
 */
export function describeFsError(e: unknown): string {
  const code = fsErrorCode(e);
  if (code) return `${WORDS[code]} (${code})${ADVICE[code] ? `: ${ADVICE[code]}` : ''}`;
  const message = errorChain(e)
    .map((f) => (typeof f.message === 'string' ? f.message.trim() : ''))
    .find((m) => m !== '');
  return message ?? String((e as { name?: unknown })?.name ?? e);
}

/** Below this many free bytes a file system counts as full: PostgreSQL cannot even start its WAL there. */
const FULL_BELOW = 1024 * 1024;

/** Free bytes for this user on the file system holding `path` (or its nearest existing parent); null if unknown. */
function freeBytes(path: string): number | null {
  for (let p = resolve(path); ; p = dirname(p)) {
    try {
      const s = statfsSync(p);
      return s.bavail * s.bsize;
    } catch {
      if (dirname(p) === p) return null;
    }
  }
}

/**
 * describeFsError for a step on `path`, and when the error itself names no cause (PostgreSQL in
 * WebAssembly that cannot write its WAL just aborts: "Aborted()"), whether the disk under it is
 * full, which is then the likely cause.
 *
 * @example describeFsErrorAt(new Error('Aborted()'), '/full/data/pglite') // 'Aborted() (the file system holding it has 0 KiB free: it is full; free space there or …)'
 */
export function describeFsErrorAt(e: unknown, path: string): string {
  const said = describeFsError(e);
  if (fsErrorCode(e)) return said;
  const free = freeBytes(path);
  if (free === null || free >= FULL_BELOW) return said;
  return `${said} (the file system holding it has ${Math.floor(free / 1024)} KiB free: it is full; ${ADVICE['ENOSPC']})`;
}

/**
 * `mkdir -p` whose failure carries the real cause: Node's recursive mkdir reports ENOENT where the
 * disk said EROFS or EACCES, so the first missing folder is made alone to hear what it says.
 */
export function makeDirs(path: string): void {
  try {
    mkdirSync(path, { recursive: true });
  } catch (e) {
    let missing = resolve(path);
    while (!existsSync(dirname(missing)) && dirname(missing) !== missing) missing = dirname(missing);
    mkdirSync(missing);
    throw e;
  }
}
