/** One system call of one process or thread, as strace -ttt printed it. */
export type Syscall = {
  ts: number;
  name: string;
  /** The top-level arguments, as printed (strings still quoted). */
  args: string[];
  /** The return value; null when strace printed `?` (the process died inside the call). */
  ret: number | null;
  /** The error name on failure (ENOENT, EAGAIN…). */
  errno: string | null;
  /** For clone/fork: the child's pid in the tracer's namespace (`/* 1234 in strace's PID NS *\/`). */
  hostPid: number | null;
};

/** How a traced process or thread ended. */
export type Ending = { ts: number; how: 'exited' | 'killed'; detail: string };

export type TracedTask = { pid: number; calls: Syscall[]; end: Ending | null };

const CALL = /^(\d+\.\d+) (\w+)\((.*)\)\s+= (-?\d+|0x[0-9a-f]+|\?)(?: (E[A-Z0-9]+) \()?(?:.*\/\* (\d+) in strace's PID NS \*\/)?/;
const END = /^(\d+\.\d+) \+\+\+ (exited with \d+|killed by \w+(?: \(core dumped\))?) \+\+\+/;

/** Splits an argument list on its top-level commas (not inside quotes, brackets or braces). */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (text.trim()) out.push(text.slice(start).trim());
  return out;
}

/** A quoted strace string as its bytes read as UTF-8 (`\x2f`, `\n`, `\"`, octal escapes); null if not one. */
export function unquote(arg: string | undefined): string | null {
  if (!arg) return null;
  const m = /^"((?:[^"\\]|\\.)*)"(\.\.\.)?$/.exec(arg);
  if (!m) return null;
  const bytes: number[] = [];
  const s = m[1]!;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const n = s[++i]!;
    if (n === 'x') {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (/[0-7]/.test(n)) {
      const oct = /^[0-7]{1,3}/.exec(s.slice(i))![0];
      bytes.push(parseInt(oct, 8));
      i += oct.length - 1;
    } else bytes.push(({ n: 10, t: 9, r: 13, v: 11, f: 12 } as Record<string, number>)[n] ?? n.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * One strace -ff file (one process or thread) as its calls and its end. Lines strace could not
 * finish (`<unfinished ...>` when a process is killed mid-call) are skipped.
 *
 * @example parseTask(1234, '1.5 openat(AT_FDCWD, "/x", O_RDONLY) = -1 ENOENT (No such file or directory)\n')
 * // { pid: 1234, calls: [{ name: 'openat', args: ['AT_FDCWD', '"/x"', 'O_RDONLY'], ret: -1, errno: 'ENOENT', … }], end: null }
 */
export function parseTask(pid: number, text: string): TracedTask {
  const calls: Syscall[] = [];
  let end: Ending | null = null;
  for (const line of text.split('\n')) {
    const m = CALL.exec(line);
    if (m) {
      const ret = m[4] === '?' ? null : Number(m[4]);
      calls.push({ ts: Number(m[1]), name: m[2]!, args: splitArgs(m[3]!), ret, errno: m[5] ?? null, hostPid: m[6] ? Number(m[6]) : null });
      continue;
    }
    const e = END.exec(line);
    if (e) end = { ts: Number(e[1]), how: e[2]!.startsWith('exited') ? 'exited' : 'killed', detail: e[2]! };
  }
  return { pid, calls, end };
}
