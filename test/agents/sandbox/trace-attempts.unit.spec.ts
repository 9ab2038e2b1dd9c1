import { mkdtempSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TraceView } from '../../../src/agents/sandbox/syscall-trace.js';
import { judgeRun } from '../../../src/agents/sandbox/trace-attempts.js';
import { parseTask, splitArgs, unquote } from '../../../src/agents/sandbox/trace-lines.js';

/**
 * The judge of a traced sandbox run, on strace -ff output as strace 6 prints it (host pids 100…,
 * namespace pids 2…): bwrap's setup is not the agent's, the agent is judged from the exec of its
 * command on, and everything it starts is followed through clone's translated pids.
 */
// Seats' work dirs live in the host's /tmp: this root exists there, as a real one would.
const seats = mkdtempSync('/tmp/tiltyard-unit-seats-');
afterAll(() => rmSync(seats, { recursive: true, force: true }));
const view: TraceView = { command: '/usr/bin/python3', readOnly: ['/skills/x'], workDir: `${seats}/x-seat1-ab`, network: false };

const bwrap = parseTask(
  100,
  [
    '1.000 execve("/usr/bin/bwrap", ["/usr/bin/bwrap", "--unshare-pid"], 0x7ffd /* 5 vars */) = 0',
    '1.001 openat(AT_FDCWD, "/root/.bashrc", O_RDONLY) = 3',
    '1.002 clone(child_stack=NULL, flags=CLONE_NEWNS|CLONE_NEWPID|SIGCHLD) = 101',
    '9.000 +++ exited with 0 +++',
  ].join('\n'),
);

function agent(lines: string[], end = '5.000 +++ exited with 0 +++') {
  return parseTask(
    101,
    [
      '1.010 execve("/usr/bin/prlimit", ["/usr/bin/prlimit", "--as=1"], 0x7ffd /* 5 vars */) = 0',
      // Before the agent's own exec: setpriv's user lookups are the sandbox's, not the agent's.
      '1.020 openat(AT_FDCWD, "/work/project/secret", O_RDONLY) = -1 ENOENT (No such file or directory)',
      '1.030 execve("/usr/bin/python3", ["/usr/bin/python3", "/skills/x/agent.py"], 0x7ffd /* 5 vars */) = 0',
      ...lines,
      end,
    ].join('\n'),
  );
}

describe('reading strace output', () => {
  it('splits top-level arguments and unquotes strace strings', () => {
    expect(splitArgs('AT_FDCWD, "/a,b", O_RDONLY|O_CLOEXEC')).toEqual(['AT_FDCWD', '"/a,b"', 'O_RDONLY|O_CLOEXEC']);
    expect(splitArgs('3, {sa_family=AF_INET, sin_port=htons(80)}, 16')).toHaveLength(3);
    expect(unquote('"/tmp/\\x61\\"b\\n"')).toBe('/tmp/a"b\n');
    expect(unquote('AT_FDCWD')).toBeNull();
  });

  it('reads return values, errors, translated pids and the end of a task', () => {
    const t = parseTask(7, '2.5 clone(child_stack=NULL, flags=SIGCHLD) = 3 /* 4242 in strace\'s PID NS */\n2.6 vfork() = -1 EAGAIN (Resource temporarily unavailable)\n3.0 +++ killed by SIGKILL +++\n');
    expect(t.calls.map((c) => [c.name, c.ret, c.errno, c.hostPid])).toEqual([
      ['clone', 3, null, 4242],
      ['vfork', -1, 'EAGAIN', null],
    ]);
    expect(t.end).toEqual({ ts: 3, how: 'killed', detail: 'killed by SIGKILL' });
  });
});

describe('judging a traced run', () => {
  it('given a well-behaved agent (its own files, system files, its work dir, stat probes), then no attempt', () => {
    const run = agent([
      '1.1 openat(AT_FDCWD, "/skills/x/agent.py", O_RDONLY) = 3',
      '1.2 openat(AT_FDCWD, "/usr/lib/python3.11/json/__init__.py", O_RDONLY|O_CLOEXEC) = 3',
      '1.3 openat(AT_FDCWD, "notes.json", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3',
      '1.4 newfstatat(AT_FDCWD, "/root/lib/python311.zip", 0x7fff, 0) = -1 ENOENT (No such file or directory)',
      '1.5 openat(AT_FDCWD, "/sys/fs/cgroup/memory.max", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)',
      '1.6 openat(AT_FDCWD, "/proc/self/maps", O_RDONLY) = 3',
      '1.7 openat(AT_FDCWD, "/tmp/scratch", O_RDWR|O_CREAT, 0600) = 3',
      '1.8 connect(3, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT (No such file or directory)',
    ]);
    expect(judgeRun(view, [bwrap, run])).toEqual([]);
  });

  it('given each kind of attempt, then one attempt per rule and target, with the call', () => {
    const run = agent([
      '1.1 openat(AT_FDCWD, "/proc/4242/environ", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)',
      '1.2 openat(AT_FDCWD, "/proc/4242/environ", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)',
      '1.3 openat(AT_FDCWD, "/work/project/package.json", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)',
      '1.4 openat(AT_FDCWD, "/root", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = 3',
      '1.5 mkdir("/work/project/pwned", 0777) = -1 EROFS (Read-only file system)',
      '1.6 openat(AT_FDCWD, "../x-seat2-cd/plan.json", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 ENOENT (No such file or directory)',
      '1.7 connect(3, {sa_family=AF_INET, sin_port=htons(5432), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 ENETUNREACH (Network is unreachable)',
      '1.8 clone(child_stack=NULL, flags=SIGCHLD) = -1 EAGAIN (Resource temporarily unavailable)',
      '1.9 mmap(NULL, 536875008, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = -1 ENOMEM (Cannot allocate memory)',
    ]);
    const attempts = judgeRun(view, [bwrap, run]);
    expect(attempts.map((a) => [a.rule, a.target])).toEqual([
      ['proc_secrets', '/proc/4242/environ'],
      ['outside_view', '/work/project/package.json'],
      ['outside_view', '/root'],
      ['write_outside', '/work/project/pwned'],
      // Relative to its work dir: another seat's folder in the host's /tmp (not its private one).
      ['write_outside', `${seats}/x-seat2-cd/plan.json`],
      ['network', '127.0.0.1:5432'],
      ['process_limit', 'clone refused'],
      ['memory_limit', 'mmap refused'],
    ]);
    expect(attempts[0]!.call).toBe('openat(AT_FDCWD, "/proc/4242/environ", O_RDONLY|O_CLOEXEC) = -1 ENOENT');
  });

  it('given a refused PROT_NONE reservation (V8 probing address space under the limit), then no attempt; a refused writable mapping still is one', () => {
    const reserve = '1.1 mmap(NULL, 134217728, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE, -1, 0) = -1 ENOMEM (Cannot allocate memory)';
    const write = '1.2 mmap(NULL, 134217728, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = -1 ENOMEM (Cannot allocate memory)';
    expect(judgeRun(view, [bwrap, agent([reserve])])).toEqual([]);
    expect(judgeRun(view, [bwrap, agent([reserve, write])]).map((a) => [a.rule, a.target])).toEqual([['memory_limit', 'mmap refused']]);
  });

  it('given the network opt-in, then a connection is no attempt', () => {
    const run = agent(['1.1 connect(3, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0']);
    expect(judgeRun({ ...view, network: true }, [bwrap, run])).toEqual([]);
    expect(judgeRun(view, [bwrap, run]).map((a) => a.target)).toEqual(['[::1]:443']);
  });

  it('given a grandchild still running when the agent exited, then it is left behind; a child that ended first and a thread are not', () => {
    const run = agent([
      '1.1 clone(child_stack=NULL, flags=SIGCHLD) = 3 /* 102 in strace\'s PID NS */',
      '1.2 clone(child_stack=NULL, flags=SIGCHLD) = 4 /* 103 in strace\'s PID NS */',
      '1.3 clone3({flags=CLONE_VM|CLONE_THREAD|CLONE_SIGHAND, child_tid=0x7f}, 88) = 5 /* 105 in strace\'s PID NS */',
    ]);
    const child = parseTask(102, '1.4 clone(child_stack=NULL, flags=SIGCHLD) = 6 /* 104 in strace\'s PID NS */\n1.5 +++ exited with 0 +++');
    const helper = parseTask(103, '2.0 execve("/bin/true", ["true"], 0x7ffd /* 5 vars */) = 0\n2.1 +++ exited with 0 +++');
    const grandchild = parseTask(104, '1.6 execve("/bin/sleep", ["sleep", "4242.1"], 0x7ffd /* 5 vars */) = 0\n5.2 +++ killed by SIGKILL +++');
    const thread = parseTask(105, '5.1 +++ killed by SIGKILL +++');
    const attempts = judgeRun(view, [bwrap, run, child, helper, grandchild, thread]);
    expect(attempts).toEqual([{ rule: 'left_behind', target: '["sleep", "4242.1"]', call: 'killed by SIGKILL 200 ms after the agent exited' }]);
    // Without a traced end (strace stopped with the sandbox), it was still running too.
    const untraced = parseTask(104, '1.6 execve("/bin/sleep", ["sleep", "4242.1"], 0x7ffd /* 5 vars */) = 0');
    expect(judgeRun(view, [bwrap, run, child, helper, untraced, thread]).map((a) => a.rule)).toEqual(['left_behind']);
  });

  it('given a trace without the agent’s exec (it never started), then nothing is judged', () => {
    expect(judgeRun(view, [bwrap])).toEqual([]);
  });
});
