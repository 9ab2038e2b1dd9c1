import { afterEach, describe, expect, it } from 'vitest';
import {
  assertCanSeatSubprocessAgents,
  bwrapArgv,
  confine,
  MIB,
  networkAvailability,
  sandboxAvailability,
  sandboxDecision,
  SandboxConfigError,
  SandboxRefusedError,
  sandboxSettings,
  sandboxWarnings,
  which,
} from '../../../src/agents/sandbox/index.js';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAgentSpec } from '../../../src/agents/seat/agent-spec.js';
import { skillSandbox } from '../../../src/agents/seat/skill-sandbox.js';
import { loadSkill } from '../../../src/agents/skills/load-skill.js';
import { SkillSandboxMetadata } from '../../../src/agents/skills/manifest.js';

const MISSING = { ok: false as const, reason: 'bubblewrap (bwrap) is not installed (not found on PATH)' };
const SHELL_SKILL = fileURLToPath(new URL('../../../skills/shell-example', import.meta.url));
const TOOLS = { bwrap: '/usr/bin/bwrap', prlimit: '/usr/bin/prlimit', setpriv: '/usr/bin/setpriv' };
const write = sandboxWarnings.write;
afterEach(() => {
  sandboxWarnings.write = write;
});

describe('sandbox settings', () => {
  it('given nothing, then required with a 1 GiB memory cap and a 64 MiB disk quota; given values, then they are checked', () => {
    expect(sandboxSettings({})).toEqual({ mode: 'required', maxMemoryBytes: 1024 * MIB, diskBytes: 64 * MIB });
    expect(sandboxSettings({ TILTYARD_SANDBOX: 'off', TILTYARD_SANDBOX_MEMORY_MB: '256', TILTYARD_SANDBOX_DISK_MB: '8' })).toEqual({ mode: 'off', maxMemoryBytes: 256 * MIB, diskBytes: 8 * MIB });
    expect(() => sandboxSettings({ TILTYARD_SANDBOX: 'maybe' })).toThrow(SandboxConfigError);
    expect(() => sandboxSettings({ TILTYARD_SANDBOX_MEMORY_MB: 'lots' })).toThrow(/TILTYARD_SANDBOX_MEMORY_MB/);
    expect(() => sandboxSettings({ TILTYARD_SANDBOX_DISK_MB: '0' })).toThrow(/TILTYARD_SANDBOX_DISK_MB/);
  });

  it('given the former default auto, then it means required: an old configuration never runs agents unconfined', () => {
    expect(sandboxSettings({ TILTYARD_SANDBOX: 'auto' }).mode).toBe('required');
  });

  it('given a bad TILTYARD_SANDBOX at a spawn, then the agent is refused with the reason instead of an exception', () => {
    process.env['TILTYARD_SANDBOX'] = 'bogus';
    try {
      expect(confine(['sh', '-c', 'true'], tmpdir())).toMatchObject({ ok: false, failure: { code: 'process/spawn_failed', message: expect.stringMatching(/TILTYARD_SANDBOX/) } });
    } finally {
      delete process.env['TILTYARD_SANDBOX'];
    }
  });
});

describe('the sandbox policy without bubblewrap', () => {
  it('given required (the default), then subprocess agents are refused with a message that names bubblewrap and how to install it', () => {
    const d = sandboxDecision(sandboxSettings({}), MISSING);
    expect(d.kind).toBe('refused');
    expect(d.kind === 'refused' && d.message).toMatch(/bubblewrap sandbox.*not installed.*apt-get install bubblewrap.*TILTYARD_SANDBOX=off/);
  });

  it('given off, then agents run unconfined and the warning is written once per process, loudly', () => {
    const lines: string[] = [];
    sandboxWarnings.write = (t) => void lines.push(t);
    const off = sandboxSettings({ TILTYARD_SANDBOX: 'off' });
    expect(sandboxDecision(off, MISSING)).toMatchObject({ kind: 'off' });
    sandboxDecision(off, MISSING);
    expect(lines.length).toBeLessThanOrEqual(1); // once per process (an earlier test may have used it)
    expect(lines.join('')).toMatch(lines.length ? /UNSANDBOXED \(TILTYARD_SANDBOX=off\)/ : /^$/);
  });

  it('given a PATH without bwrap, then bubblewrap is absent, whatever the system holds; a seat of a subprocess skill is refused naming it', () => {
    const empty = mkdtempSync(join(tmpdir(), 'tiltyard-no-bwrap-'));
    const path = process.env['PATH'];
    try {
      expect(which('bwrap', empty)).toBeNull();
      expect(sandboxAvailability(empty)).toEqual({ ok: false, reason: expect.stringMatching(/bubblewrap \(bwrap\) is not installed \(not found on PATH\)/) });
      process.env['PATH'] = empty;
      expect(() => assertCanSeatSubprocessAgents()).toThrow(SandboxRefusedError);
      expect(parseAgentSpec(`skill:${SHELL_SKILL}`)).toEqual({ ok: false, message: expect.stringMatching(/^skill:.*shell-example: .*bubblewrap.*apt-get install bubblewrap/) });
      // Built-ins need no sandbox.
      expect(parseAgentSpec('balanced')).toMatchObject({ ok: true });
    } finally {
      process.env['PATH'] = path;
      rmSync(empty, { recursive: true, force: true });
    }
    expect(parseAgentSpec(`skill:${SHELL_SKILL}`)).toMatchObject({ ok: true });
  });

  it('given a PATH with bubblewrap but without slirp4netns, then a skill with the network opt-in is refused naming it; one without is seated', () => {
    const bin = mkdtempSync(join(tmpdir(), 'tiltyard-no-slirp-'));
    for (const tool of ['bwrap', 'prlimit', 'setpriv', 'nsenter', 'ip']) symlinkSync(which(tool)!, join(bin, tool));
    const skills = mkdtempSync(join(tmpdir(), 'tiltyard-net-skill-'));
    const netty = join(skills, 'netty');
    mkdirSync(netty);
    writeFileSync(join(netty, 'SKILL.md'), '---\nname: netty\ndescription: calls its own model\nmetadata:\n  command: sh agent.sh\n  network: "true"\n---\n');
    const path = process.env['PATH'];
    try {
      expect(networkAvailability(bin)).toEqual({ ok: false, reason: expect.stringMatching(/slirp4netns is not installed.*apt-get install slirp4netns/) });
      process.env['PATH'] = bin;
      expect(parseAgentSpec(`skill:${netty}`)).toEqual({ ok: false, message: expect.stringMatching(/metadata\.network.*slirp4netns is not installed.*apt-get install slirp4netns/) });
      expect(parseAgentSpec(`skill:${SHELL_SKILL}`)).toMatchObject({ ok: true });
    } finally {
      process.env['PATH'] = path;
      rmSync(bin, { recursive: true, force: true });
      rmSync(skills, { recursive: true, force: true });
    }
  });
});

describe('bwrapArgv', () => {
  const plan = { tools: TOOLS, command: ['/usr/bin/python3', '/skills/x/agent.py'], readOnly: ['/skills/x'], workDir: '/tmp/agents/x-seat1', network: false, limits: { memoryBytes: 128 * MIB, cpuSeconds: 6, processes: 32, diskBytes: 8 * MIB }, uid: 1234567 };

  it('given a skill, then it gets new namespaces, its folder read-only, its work dir writable, the limits and its own uid, in that order', () => {
    const argv = bwrapArgv(plan);
    const text = argv.join(' ');
    expect(argv[0]).toBe('/usr/bin/bwrap');
    for (const flag of ['--unshare-pid', '--unshare-net', '--die-with-parent', '--new-session', '--proc /proc'])
      expect(text).toContain(flag);
    expect(text).toContain('--ro-bind /skills/x /skills/x');
    expect(text).toContain('--bind /tmp/agents/x-seat1 /tmp/agents/x-seat1 --chdir /tmp/agents/x-seat1');
    expect(text).toContain('--perms 0755 --dir /tmp/agents'); // a traversable parent, not bwrap's 0700
    expect(text).toContain('-- /usr/bin/prlimit --as=134217728 --cpu=6:7 --nproc=32 --fsize=8388608 -- /usr/bin/setpriv --reuid=1234567 --regid=1234567 --clear-groups -- /usr/bin/python3 /skills/x/agent.py');
    expect(text).not.toMatch(/--bind \/ |--ro-bind \/ |\/root|\/home|--info-fd|--block-fd/);
  });

  it('given the network opt-in, then the sandbox still has its own network namespace, and waits for the network to be attached', () => {
    const text = bwrapArgv({ ...plan, network: true, uid: null, root: true }).join(' ');
    expect(text).toContain('--unshare-net');
    expect(text).toContain('--info-fd 3 --block-fd 4');
    expect(text).not.toMatch(/setpriv|--cap-add|--unshare-user/);
  });

  it('given the network opt-in and a server that is not root, then one user namespace, uid 0 inside (no nested one that could not configure the network)', () => {
    expect(bwrapArgv({ ...plan, network: true, uid: null, root: false }).join(' ')).toContain('--info-fd 3 --block-fd 4 --unshare-user --uid 0 --gid 0');
    expect(bwrapArgv({ ...plan, uid: null, root: false }).join(' ')).not.toContain('--unshare-user');
  });
});

describe('skill sandbox metadata', () => {
  it('given network and memory_mb as YAML strings, then they are read; bad values are refused', () => {
    expect(SkillSandboxMetadata.parse({ network: 'true', memory_mb: '256' })).toEqual({ network: true, memory_mb: 256 });
    expect(SkillSandboxMetadata.parse({})).toEqual({ network: false });
    expect(SkillSandboxMetadata.safeParse({ network: 'yes' }).success).toBe(false);
    expect(SkillSandboxMetadata.safeParse({ memory_mb: '1.5' }).success).toBe(false);
    expect(SkillSandboxMetadata.safeParse({ memory_mb: '8' }).success).toBe(false);
  });

  it('given a skill folder asking for the network and 256 MiB, then its processes get exactly that sandbox; a bad value does not load', () => {
    const root = mkdtempSync(join(tmpdir(), 'tiltyard-skill-'));
    const skill = (meta: string) => {
      const dir = join(root, 'netty');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'SKILL.md'), `---\nname: netty\ndescription: calls its own model\nmetadata:\n  command: sh agent.sh\n${meta}---\n`);
      return loadSkill(dir);
    };
    try {
      const loaded = skill('  network: true\n  memory_mb: 256\n');
      if (!loaded.ok) throw new Error(loaded.message);
      expect(skillSandbox(loaded.skill)).toEqual({ readOnly: [loaded.skill.dir], network: true, memoryBytes: 256 * 1024 * 1024 });
      const plain = skill('');
      expect(plain.ok && skillSandbox(plain.skill)).toEqual({ readOnly: [join(root, 'netty')], network: false });
      expect(skill('  network: maybe\n')).toMatchObject({ ok: false, message: expect.stringMatching(/network: must be true or false/) });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
