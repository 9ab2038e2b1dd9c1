import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GameEvent } from '../../src/protocol/index.js';
import { tiltyard } from './run-cli.js';

describe('tiltyard play', () => {
  it('--json prints the full log as NDJSON: valid events, in order, ending in game_ended', async () => {
    const run = await tiltyard('play', '--seed', '5', '--json');
    expect(run.code).toBe(0);
    expect(run.stdout.endsWith('\n')).toBe(true);
    const events = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => GameEvent.parse(JSON.parse(line)));
    expect(events[0]!.type).toBe('game_started');
    expect(events.at(-1)!.type).toBe('game_ended');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });

  it('plays game 0 of simulate: its NDJSON hashes to simulate --games 1 logHash', async () => {
    const [play, sim] = await Promise.all([
      tiltyard('play', '--seed', '9', '--agents', 'random', '--seats', '3', '--json'),
      tiltyard('simulate', '--games', '1', '--seed', '9', '--agents', 'random', '--seats', '3', '--json'),
    ]);
    const hash = createHash('sha256').update(play.stdout).digest('hex');
    expect(hash).toBe((JSON.parse(sim.stdout) as { logHash: string }).logHash);
  });

  it('prints a readable transcript ending in placements', async () => {
    const run = await tiltyard('play', '--seed', '2', '--agents', 'random', '--compact');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Game game_\w+ · seed 2 · rules .* \(compact windows\) · 4 seats/);
    expect(run.stdout).toContain('=== Round 1 ===');
    // The shared narrator's sentences: names, card names and plans in words, no ids or snake_case keys.
    expect(run.stdout).toMatch(/\n {6}Attack plan: .+ to .+ through .+, delivered .+; confidence \d+%\./);
    expect(run.stdout).toMatch(/\n {2}.+ plays [A-Z][\w ]+ on .+ \(\d tempo\)\./);
    expect(run.stdout).toMatch(/\n★ .+ is eliminated\./);
    expect(run.stdout).toMatch(/\nKey moments\n {2}round \d+ +\w+ +event \d+ +\w/);
    expect(run.stdout).toMatch(/=== Game over after \d+ rounds/);
    expect(run.stdout).toMatch(/Placements\n +# +seat +agent[^\n]*\n +1 +P\d +random/);
  });

  it('rejects bad flags with exit 2 and one line', async () => {
    const run = await tiltyard('play', '--games', '3');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('tiltyard: unknown flag --games\n');
  });
});
