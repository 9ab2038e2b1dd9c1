import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalEnv, runProcess } from '../../../src/agents/runtime/process-runner.js';
import { PersistentProcess } from '../../../src/agents/runtime/persistent-process.js';
import { networkAvailability, sandboxDecision } from '../../../src/agents/sandbox/index.js';
import type { JsonObject } from '../../../src/protocol/index.js';

/**
 * The network opt-in, with real processes in the real sandbox: the sandbox gets the internet
 * through slirp4netns in a network namespace of its own, and nothing of this machine. No packet
 * is sent to any address but this host's own: a test listener on all of this host's addresses
 * stands for PostgreSQL and Redis, and is reachable from outside the sandbox at each of them, so
 * a fence that let one through would fail the test, never pass it by luck.
 */
const PROBE = fileURLToPath(new URL('../fixtures/sandbox/probe.py', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'tiltyard-seat-'));
let listener: Server;
let port = 0;

/** Every IPv4 address of this host, loopback included. */
const hostAddresses = Object.values(networkInterfaces())
  .flat()
  .flatMap((i) => (i && i.family === 'IPv4' ? [i.address] : []));

const reachable = (host: string, p: number) =>
  new Promise<boolean>((resolve) => {
    const s = createConnection({ host, port: p, timeout: 2_000 });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });

beforeAll(async () => {
  // CI installs bubblewrap and slirp4netns: without them these tests must fail, not skip.
  expect(sandboxDecision().kind).toBe('bwrap');
  expect(networkAvailability()).toMatchObject({ ok: true });
  listener = createServer((s) => s.end()).listen(0, '0.0.0.0');
  await new Promise((r) => listener.once('listening', r));
  port = (listener.address() as { port: number }).port;
});

afterAll(() => {
  listener.close();
  rmSync(work, { recursive: true, force: true });
});

function probe(input: JsonObject, network: boolean) {
  return runProcess({
    argv: ['python3', PROBE],
    cwd: work,
    env: minimalEnv(work),
    input: { requestId: 'r1', tool: 'hostile', operation: 'action', input },
    deadlineMs: 60_000,
    sandbox: { network },
  });
}

/** This host's services as a skill would aim at them: the listener at each address, PostgreSQL, Redis, slirp's gateway (the host's loopback unless shut off). */
const targets = () => [...hostAddresses.map((a) => [a, port]), ['127.0.0.1', 5432], ['127.0.0.1', 6379], ['10.0.2.2', port], ['10.0.2.2', 5432]];

describe('the network opt-in (slirp4netns)', () => {
  it("given the listener, then outside the sandbox it answers on each of this host's addresses (what the fence must stop)", async () => {
    expect(hostAddresses.length).toBeGreaterThan(0);
    for (const address of hostAddresses) expect(await reachable(address, port)).toBe(true);
  });

  it("given the opt-in, then the sandbox has a network of its own (a default route through slirp's tap0), and reaches none of this host's services", async () => {
    const outcome = await probe({ default_route: true, connect: targets() }, true);
    expect(outcome.failure).toBeNull();
    const results = outcome.state['results'] as Record<string, string>;
    expect(results['default route']).toBe("ok ['tap0']");
    const connects = Object.entries(results).filter(([k]) => k.startsWith('connect '));
    expect(connects).toHaveLength(targets().length);
    for (const [target, result] of connects) expect(`${target}: ${result}`).toMatch(/: error /);
  });

  it("given no opt-in, then there is no route out at all, and the same connections fail", async () => {
    const outcome = await probe({ default_route: true, connect: targets() }, false);
    const results = outcome.state['results'] as Record<string, string>;
    expect(results['default route']).toBe('ok []');
    for (const [target, result] of Object.entries(results)) if (target.startsWith('connect ')) expect(`${target}: ${result}`).toMatch(/: error /);
  });

  it('given a persistent agent with the opt-in, then its one process gets the same fenced network', async () => {
    const agent = new PersistentProcess({ argv: ['python3', '-c', PERSISTENT_PROBE], cwd: work, env: minimalEnv(work), sandbox: { network: true } });
    try {
      const outcome = await agent.request({ requestId: 'r1', tool: 'hostile', operation: 'action', input: { connect: [[hostAddresses[0]!, port]] } }, 60_000);
      expect(outcome.failure, outcome.stderr).toBeNull();
      expect(outcome.state).toEqual({ route: ['tap0'], [`${hostAddresses[0]}:${port}`]: expect.stringMatching(/^error /) });
    } finally {
      await agent.close();
    }
  });
});

/** probe.py's two tries in long-lived form: each stdin line a request, each answer carrying its requestId. */
const PERSISTENT_PROBE = `
import json, socket, sys
for line in sys.stdin:
    r = json.loads(line)
    state = {"route": [l.split()[0] for l in open("/proc/net/route").read().splitlines()[1:] if l.split()[1] == l.split()[7] == "00000000"]}
    for host, port in r["input"]["connect"]:
        try:
            socket.create_connection((host, port), timeout=2).close()
            state["%s:%d" % (host, port)] = "ok connected"
        except Exception as e:
            state["%s:%d" % (host, port)] = "error " + str(e)
    print(json.dumps({"version": "0", "requestId": r["requestId"], "type": "state_patch", "patch": state}))
    print(json.dumps({"version": "0", "requestId": r["requestId"], "type": "done", "ok": True}), flush=True)
`;
