import { describe, expect, it } from 'vitest';
import { bwrapArgv } from '../../../src/agents/sandbox/bwrap-argv.js';
import { NODE_RESERVED_BYTES, reservedAddressSpace } from '../../../src/agents/sandbox/runtime-reserve.js';

const MIB = 1024 * 1024;
const TOOLS = { bwrap: '/usr/bin/bwrap', prlimit: '/usr/bin/prlimit', setpriv: '/usr/bin/setpriv' };
const asLimit = (argv: string[]) => argv.find((a) => a.startsWith('--as='));

describe('address space a runtime reserves, on top of an agent’s memory limit', () => {
  it('given node by any of its names or prefixes, then Node’s reservation; given other programs, then none', () => {
    for (const p of ['/usr/bin/node', '/usr/bin/nodejs', '/home/a/.nvm/versions/node/v24.21.0/bin/node', '/opt/node22']) {
      expect(reservedAddressSpace(p)).toBe(NODE_RESERVED_BYTES);
    }
    for (const p of ['/usr/bin/python3', '/bin/sh', '/usr/bin/nodemon', '/skills/x/node.sh']) expect(reservedAddressSpace(p)).toBe(0);
  });

  it('given a reservation, then RLIMIT_AS is the memory limit plus it; given none, then the memory limit alone', () => {
    const plan = (reservedBytes?: number) => ({
      tools: TOOLS,
      command: ['/usr/bin/node', '/skills/x/agent.mjs'],
      readOnly: ['/skills/x'],
      workDir: '/tmp/agents/x-seat1',
      network: false,
      limits: { memoryBytes: 128 * MIB, cpuSeconds: 6, processes: 32, diskBytes: 8 * MIB, ...(reservedBytes === undefined ? {} : { reservedBytes }) },
      uid: null,
    });
    expect(asLimit(bwrapArgv(plan(NODE_RESERVED_BYTES)))).toBe(`--as=${128 * MIB + NODE_RESERVED_BYTES}`);
    expect(asLimit(bwrapArgv(plan()))).toBe(`--as=${128 * MIB}`);
  });
});
