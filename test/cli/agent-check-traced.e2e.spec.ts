import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentCheckReport } from '../../src/check/report.js';
import { about, hostileSkill, report, root, useTempDir } from './agent-check-support.js';
import { tiltyardWith } from './run-cli.js';

const tmp = useTempDir();

/**
 * Issue 12: "agent-check reports each such attempt as a finding". Each hostile fixture of the
 * sandbox tests, run as a skill, gets the finding of its own rule, naming what it aimed at. The
 * sandbox makes every attempt fail silently (ENOENT, EAGAIN…): only the traced pass sees them.
 */
describe.concurrent('tiltyard agent-check traces what a sandboxed agent tries', () => {
  const pid = process.pid;
  const run = async (dir: string, env: Record<string, string> = {}) =>
    report(await tiltyardWith({ env }, 'agent-check', dir, '--json', '--games', '0'));
  const finding = (r: AgentCheckReport, rule: string) => {
    const f = about(r, 'containment', `containment/${rule}`);
    expect(f, `containment/${rule} in ${JSON.stringify(r.findings)}`).toMatchObject({ severity: 'error' });
    return f!.message;
  };

  it("reading another process's /proc/<pid>/environ, cmdline and mem: proc_secrets, naming each", async () => {
    const paths = ['environ', 'cmdline', 'mem'].map((e) => `/proc/${pid}/${e}`);
    const r = await run(hostileSkill(tmp(), 'proc-reader', 'probe.py', { read: paths }));
    const message = finding(r, 'proc_secrets');
    for (const path of paths) expect(message).toContain(path);
    expect(r.ok).toBe(false);
  });

  it("reading the data folder, the project root, another seat's work dir and home: outside_view, naming each place", async () => {
    const data = mkdtempSync(join(tmpdir(), 'tiltyard-data-'));
    const seats = join(tmpdir(), 'tiltyard-agents');
    mkdirSync(seats, { recursive: true });
    const otherSeat = mkdtempSync(join(seats, 'other-seat2-'));
    try {
      writeFileSync(join(data, 'games.db'), 'hidden hands');
      writeFileSync(join(otherSeat, 'plan.json'), 'secret plan');
      const r = await run(
        hostileSkill(tmp(), 'snoop', 'probe.py', {
          read: [join(data, 'games.db'), join(root, 'package.json'), join(otherSeat, 'plan.json'), join(homedir(), '.bashrc')],
          list: [otherSeat],
        }),
        { TILTYARD_DATA_DIR: data },
      );
      const message = finding(r, 'outside_view');
      expect(message).toContain(`${join(data, 'games.db')} (the data folder)`);
      expect(message).toContain(`${join(root, 'package.json')} (the project folder)`);
      expect(message).toContain(`${join(otherSeat, 'plan.json')} (another seat's work dir)`);
      expect(message).toContain(`${join(homedir(), '.bashrc')} (the home folder)`);
    } finally {
      rmSync(data, { recursive: true, force: true });
      rmSync(otherSeat, { recursive: true, force: true });
    }
  });

  it('writing outside its work dir: write_outside naming the paths, nothing written, its own dir allowed', async () => {
    const seats = join(tmpdir(), 'tiltyard-agents');
    mkdirSync(seats, { recursive: true });
    const otherSeat = mkdtempSync(join(seats, 'other-seat3-'));
    const inRoot = join(root, `pwned-check-${pid}`);
    try {
      const r = await run(hostileSkill(tmp(), 'writer', 'probe.py', { write: [join(otherSeat, 'pwned'), inRoot, 'mine.txt'] }));
      const message = finding(r, 'write_outside');
      expect(message).toContain(join(otherSeat, 'pwned'));
      expect(message).toContain(inRoot);
      expect(message).not.toContain('mine.txt');
      expect(existsSync(inRoot)).toBe(false);
      expect(existsSync(join(otherSeat, 'pwned'))).toBe(false);
    } finally {
      rmSync(otherSeat, { recursive: true, force: true });
      rmSync(inRoot, { force: true });
    }
  });

  it('a TCP connection to 127.0.0.1:5432 without the network opt-in: network, naming the address', async () => {
    const r = await run(hostileSkill(tmp(), 'dialer', 'probe.py', { connect: [['127.0.0.1', 5432]] }));
    expect(finding(r, 'network')).toContain('127.0.0.1:5432');
    // The trace is certain: the stderr guess for the same rule is not reported on top.
    expect(about(r, 'containment', 'sandbox/network_denied')).toBeUndefined();
  });

  it('with metadata.network the same connection is no finding', async () => {
    const r = await run(hostileSkill(tmp(), 'dialer-allowed', 'probe.py', { connect: [['127.0.0.1', 5432]] }, '  network: "true"\n'));
    expect(about(r, 'containment', 'containment/network')).toBeUndefined();
  });

  it('a memory hog over its memory_mb: memory_limit', async () => {
    const r = await run(hostileSkill(tmp(), 'hog', 'memory-hog.py', { mb: 512 }, '  memory_mb: "128"\n'));
    expect(finding(r, 'memory_limit')).toMatch(/mmap refused|mremap refused/);
  });

  it('a fork bomb: process_limit', async () => {
    const r = await run(hostileSkill(tmp(), 'bomb', 'fork-bomb.py', { tries: 140 }));
    expect(finding(r, 'process_limit')).toMatch(/clone|fork/);
  });

  it('a setsid double-forked grandchild: left_behind, naming the program', async () => {
    const marker = `${6000 + pid}.77`;
    const r = await run(hostileSkill(tmp(), 'daemon', 'double-fork.py', { marker }));
    expect(finding(r, 'left_behind')).toContain(`"sleep", "${marker}"`);
  });
});
