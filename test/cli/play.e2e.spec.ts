import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GameEvent } from '../../src/protocol/index.js';
import { tiltyard } from './run-cli.js';
import { tiltyardAtTerminal } from './pty.js';

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

  describe('a human seat at the terminal (issue 40)', () => {
    const GAME = ['play', '--seed', '3', '--compact', '--agents', 'human:Ada,balanced,aggressor,turtle'];
    /** The option number of the first menu entry (in the last menu on screen) whose label starts with `label`. */
    const optionOf = (screen: string, label: string): string | null => {
      const menu = screen.slice(screen.lastIndexOf('\n', screen.lastIndexOf('1. ') - 1));
      return new RegExp(`(\\d+)\\. ${label}`).exec(menu)?.[1] ?? null;
    };

    /** How the story tells Ada's first action: "plays" a card or "passes". */
    const firstMove = (output: string) => /\n {2}Ada (plays|passes)\b/.exec(output)?.[1];

    it('given a person who only presses Enter, then every menu takes its marked legal choice and the game plays to its end, told from their seat', async () => {
      const run = await tiltyardAtTerminal(GAME, () => '');
      expect(run.code, run.output.slice(-2000)).toBe(0);
      expect(run.answers).toBeGreaterThan(5);
      // What the seat sees before deciding: its cards with what they do, its feelings, the table.
      expect(run.output).toMatch(/your cards:\n {4}[A-Z][\w ]+: tempo \d/);
      expect(run.output).toMatch(/emotions: valence/);
      expect(run.output).toMatch(/Your turn: talk and act\nCard\n {2}\* 1\. /);
      expect(run.output).toMatch(/=== Game over after \d+ rounds/);
      expect(run.output).toMatch(/Placements\n/);
      // The story is the seat's: no seed, and no one else's private view.
      expect(run.output).toContain('seed ?');
      expect(firstMove(run.output)).toBe('plays');
      expect(run.output.match(/Private view of (P\d)/g)?.every((l) => l.endsWith('P1'))).toBe(true);
    });

    it('given a person who picks pass in their first action menu, then that is carried out as shown ("Ada passes")', async () => {
      let edited = false;
      const run = await tiltyardAtTerminal(GAME, (screen) => {
        const pass = !edited && screen.trimEnd().endsWith(']:') && /\nCard\n(?:.*\n)+?Choose 1–\d+ \[Enter: \d+\]: *$/.test(screen) ? optionOf(screen, 'pass') : null;
        if (!pass) return '';
        edited = true;
        return pass;
      });
      expect(run.code, run.output.slice(-2000)).toBe(0);
      expect(edited).toBe(true);
      expect(firstMove(run.output)).toBe('passes');
    });

    it('given stdin that is not a terminal, more than one human seat, or --json (or simulate, run, tournament with a human seat), then a clear refusal and exit 2', async () => {
      const piped = await tiltyard(...GAME);
      expect([piped.code, piped.stderr]).toEqual([2, expect.stringMatching(/plr_1 is a human seat, played at this terminal, but stdin is not a terminal/)]);
      const two = await tiltyard('play', '--agents', 'human,human:Bo,balanced');
      expect([two.code, two.stderr]).toEqual([2, expect.stringMatching(/one human seat per terminal, got 2 \(plr_1, plr_2\)/)]);
      const json = await tiltyard('play', '--agents', 'human,balanced', '--json');
      expect([json.code, json.stderr]).toEqual([2, expect.stringMatching(/--json: a human seat plays at the terminal/)]);
      // Commands with no one at hand to answer refuse human seats up front.
      for (const [command, says] of [['simulate', 'simulate'], ['run', 'run'], ['tournament', 'a tournament']] as const) {
        const r = await tiltyard(command, '--agents', 'human:Bo,balanced');
        expect([r.code, r.stderr], command).toEqual([2, expect.stringContaining(`--agents: ${says} takes no human seats (human:Bo): a person plays on a server`)]);
      }
    });
  });
});

