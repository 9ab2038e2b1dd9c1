import { describe, expect, it } from 'vitest';
import type { Command } from '../../src/cli/commands/command.js';
import type { CliIo } from '../../src/cli/io.js';
import { COMMAND_NAMES, commandByName } from '../../src/cli/commands/by-name.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { main } from '../../src/cli/main.js';

function capture(): CliIo & { stdout: string; stderr: string } {
  const io = { stdout: '', stderr: '', errIsTTY: false, out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) };
  return io;
}

const broken: Command = {
  name: 'broken',
  summary: 'always fails',
  usage: '',
  run() {
    throw new Error('disk on fire\nsecond line');
  },
};

describe('main', () => {
  it('runs a command in process and returns its exit code', async () => {
    const io = capture();
    expect(await main(['simulate', '--games', '1', '--seats', '2', '--agents', 'random', '--json'], io)).toBe(0);
    expect(JSON.parse(io.stdout)).toMatchObject({ games: 1, seats: 2 });
  });

  it('reports an unexpected error as one line and exit 1', async () => {
    const io = capture();
    expect(await main(['broken'], io, [broken])).toBe(1);
    expect(io.stderr).toBe('tiltyard: unexpected error: disk on fire\n');
  });

  it('lists the command table in usage', async () => {
    const io = capture();
    expect(await main([], io, [broken])).toBe(0);
    expect(io.stdout).toMatch(/Commands:\n {2}broken +always fails\n/);
  });

  it('loads a command from its own module alone: the same command as the table, every one, nothing for other names', async () => {
    expect([...COMMAND_NAMES].sort()).toEqual(COMMANDS.map((c) => c.name).sort());
    for (const command of COMMANDS) expect(await commandByName(command.name), command.name).toBe(command);
    for (const name of ['index', 'command', 'nope', 'toString', '__proto__', '']) expect(await commandByName(name), name).toBeUndefined();
  });
});
