import { basename } from 'node:path';
import { MIB } from './settings.js';

/** Node by any of its usual names (`node`, Debian's `nodejs`, a versioned `node22`). */
const NODE = /^(node|nodejs)[0-9.]*$/;

/**
 * Address space Node reserves at start and never touches, allowed on top of an agent's memory
 * limit: that limit is RLIMIT_AS, which counts reservations too, and V8's grew. The smallest
 * RLIMIT_AS under which `node -e 0` starts at all: Node 20.20 ≈ 724 MiB, 22.23 ≈ 739 MiB,
 * 24.21 ≈ 1,120 MiB — below it Node 24 dies at start with SIGTRAP ("Fatal process out of memory:
 * Failed to reserve virtual memory for CodeRange"), so under the 1 GiB default no Node 24 agent
 * could run. With this allowance a Node agent has about what it asked for on every version.
 */
export const NODE_RESERVED_BYTES = 1024 * MIB;

/**
 * What to add to RLIMIT_AS for this program (its real path): NODE_RESERVED_BYTES for Node, else 0
 * (Python, shells, native tools map about what they use).
 *
 * @example
 * reservedAddressSpace('/usr/bin/node'); // 1073741824
 * reservedAddressSpace('/usr/bin/python3'); // 0
 */
export function reservedAddressSpace(program: string): number {
  return NODE.test(basename(program)) ? NODE_RESERVED_BYTES : 0;
}
