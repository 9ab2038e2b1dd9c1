import { constants } from 'node:os';
import type { Violation } from '../runtime/outcome.js';

const SIGNAL_NAMES = new Map<number, NodeJS.Signals>(Object.entries(constants.signals).map(([name, n]) => [n, name as NodeJS.Signals]));

/**
 * bwrap reports a sandboxed command killed by a signal as exit status 128 + signal, as shells do;
 * turned back into the signal so outcomes read the same with and without the sandbox. (A command
 * that exits 143 on its own is read as SIGTERM: the convention's known ambiguity.)
 */
export function unwrapExit(code: number | null, signal: string | null): { exitCode: number | null; signal: string | null } {
  if (signal !== null || code === null || code <= 128) return { exitCode: code, signal };
  const name = SIGNAL_NAMES.get(code - 128);
  return name ? { exitCode: null, signal: name } : { exitCode: code, signal };
}

/** Codes of what the sandbox stopped or refused (agent-check reports them as containment findings). */
export const SANDBOX_CODES = {
  cpu: 'sandbox/cpu_limit',
  memory: 'sandbox/memory_limit',
  processes: 'sandbox/process_limit',
  network: 'sandbox/network_denied',
  disk: 'sandbox/disk_quota',
} as const;

// What runtimes print when an allocation, a fork or a connection fails. Heuristics read from
// stderr: the sandbox itself says nothing when a limit bites (the call just fails).
const MEMORY = /MemoryError|out of memory|Cannot allocate memory|bad_alloc|ENOMEM|Allocation failed|failed to allocate/i;
const PROCESSES = /Resource temporarily unavailable|BlockingIOError|EAGAIN|fork: retry|Cannot fork|can't fork|pthread_create/i;
const DISK = /File too large|EFBIG|Disk quota exceeded|EDQUOT/i;
const NETWORK = /Network is unreachable|ENETUNREACH|Connection refused|ECONNREFUSED|Temporary failure in name resolution|EAI_AGAIN|getaddrinfo|Name or service not known/i;

/**
 * What one sandboxed run ran into, as violations: the CPU limit (SIGXCPU, or SIGKILL past the hard
 * limit, is certain), the file size limit (SIGXFSZ, certain), and — from what the agent printed on
 * stderr — failed allocations, failed forks, writes refused as too large and, without the network
 * opt-in, failed connections.
 *
 * @example limitHits({ signal: 'SIGXCPU', stderr: '', network: false }) // [{ code: 'sandbox/cpu_limit', … }]
 */
export function limitHits(run: { signal: string | null; stderr: string; network: boolean; cpuSeconds?: number }): Violation[] {
  const hits: Violation[] = [];
  if (run.signal === 'SIGXCPU')
    hits.push({ code: SANDBOX_CODES.cpu, message: `killed by the sandbox's CPU-time limit${run.cpuSeconds ? ` (${run.cpuSeconds} s per process)` : ''}` });
  if (run.signal === 'SIGXFSZ') hits.push({ code: SANDBOX_CODES.disk, message: "killed by the sandbox's file size limit (no file may be larger than the work dir's disk quota)" });
  const stderr = run.stderr;
  if (stderr === '') return hits;
  if (DISK.test(stderr)) hits.push({ code: SANDBOX_CODES.disk, message: `a write was refused (stderr: "${match(stderr, DISK)}"): a file reached the sandbox's disk quota` });
  if (MEMORY.test(stderr)) hits.push({ code: SANDBOX_CODES.memory, message: `an allocation failed (stderr: "${match(stderr, MEMORY)}"): the sandbox's memory limit was probably reached` });
  if (PROCESSES.test(stderr)) hits.push({ code: SANDBOX_CODES.processes, message: `starting a process or thread failed (stderr: "${match(stderr, PROCESSES)}"): the sandbox's process limit was probably reached` });
  if (!run.network && NETWORK.test(stderr))
    hits.push({ code: SANDBOX_CODES.network, message: `a network connection failed (stderr: "${match(stderr, NETWORK)}"): the skill has no network (metadata.network is not true)` });
  return hits;
}

function match(text: string, re: RegExp): string {
  const m = re.exec(text);
  if (!m) return '';
  const line = text.slice(text.lastIndexOf('\n', m.index) + 1).split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}
