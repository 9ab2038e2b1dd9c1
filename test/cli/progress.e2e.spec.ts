import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { redrawn, tiltyardInPty } from './pty.js';
import { tiltyardWith } from './run-cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-cli-progress-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * Each command gets its own embedded database; the progress delay is 0 so that even a quick run
 * on an idle machine draws (the real default waits 300 ms, which a loaded machine may or may not
 * reach: the tests must not depend on it).
 */
const envFor = (name: string) => ({ cwd: tmp, env: { TILTYARD_DATA_DIR: join(tmp, name), DATABASE_URL: undefined, TILTYARD_PROGRESS_AFTER_MS: '0' } });
const ESC = '\x1b[';

// Generous timeouts: hang detectors only (each command opens an embedded database).
describe('progress on a terminal, none with --json or into a pipe', { timeout: 900_000 }, () => {
  it('simulate draws a bar with an honest throughput on a TTY', async () => {
    const run = await tiltyardInPty(envFor('sim'), 'simulate', '--games', '6');
    expect(run.code).toBe(0);
    expect(redrawn(run.output, 'simulate [')).toBe(true);
    // The last redraw: all games done, with a rate in games per second or minute, or s per game.
    expect(run.output).toMatch(/simulate \[#{30}\] 100% 6\/6 .* · [\d.,]+ (games\/s|games\/min|s\/game)/);
    expect(run.output).toContain('Tiltyard simulation: 6 games');

    // Quiet whatever the length: fewer games show it as well.
    const json = await tiltyardInPty(envFor('sim'), 'simulate', '--games', '2', '--json');
    expect(json.code).toBe(0);
    expect(json.output).not.toContain(ESC);
    expect(JSON.parse(json.output)).toMatchObject({ games: 2 });

    const piped = await tiltyardWith(envFor('sim'), 'simulate', '--games', '2');
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
  });

  // One data dir for these (creating a database costs seconds on a loaded machine): run creates it.
  let gameId = '';
  it('run on a new data dir says it creates the database, then shows the game being played', async () => {
    const run = await tiltyardInPty(envFor('run'), 'run', '--seed', '3');
    expect(run.code).toBe(0);
    expect(redrawn(run.output, `creating the embedded database in ${join(tmp, 'run')}`)).toBe(true);
    expect(redrawn(run.output, 'playing game_')).toBe(true);
    expect(run.output).toMatch(/playing game_\w+ · seq \d+ · round \d+/);
  });

  it('run --json and run into a pipe show nothing', async () => {
    const json = await tiltyardInPty(envFor('run'), 'run', '--seed', '3', '--json');
    expect(json.code).toBe(0);
    expect(json.output).not.toContain(ESC);
    ({ gameId } = JSON.parse(json.output) as { gameId: string });
    const piped = await tiltyardWith(envFor('run'), 'run', '--seed', '3');
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
  });

  it('verify and replay of a stored game: the database opening, then each stage, on a terminal only', async () => {
    const verify = await tiltyardInPty(envFor('run'), 'verify', gameId);
    expect(verify.code).toBe(0);
    // The database exists now: "opening", not "creating".
    expect(redrawn(verify.output, `opening the embedded database in ${join(tmp, 'run')}`)).toBe(true);
    expect(verify.output).not.toContain('creating the embedded database');
    // Some stage of the four is drawn (a redraw is throttled, so which ones show depends on speed).
    expect(redrawn(verify.output, `verify ${gameId}: `)).toBe(true);
    const verifyJson = await tiltyardInPty(envFor('run'), 'verify', gameId, '--json');
    expect(verifyJson.output).not.toContain(ESC);
    const replay = await tiltyardInPty(envFor('run'), 'replay', gameId);
    expect(replay.code).toBe(0);
    expect(redrawn(replay.output, `replay ${gameId}: rebuilding the state`)).toBe(true);
    const replayPiped = await tiltyardWith(envFor('run'), 'replay', gameId);
    expect(replayPiped.stderr).toBe('');
  });

  it('agent-check names the stage it is in', async () => {
    const args = ['agent-check', join(import.meta.dirname, '..', '..', 'skills', 'node-example'), '--games', '1'];
    const run = await tiltyardInPty(envFor('check'), ...args);
    expect(run.code).toBe(0);
    expect(redrawn(run.output, `agent-check ${args[1]}: 1/2 one request per decision window`)).toBe(true);
    expect(redrawn(run.output, `agent-check ${args[1]}: 2/2 1 full game against built-ins`)).toBe(true);
    // --json draws no line at all, whatever the skill: a built-in one checks it without the
    // sandboxed processes (the stages above need a skill slow enough to show them).
    const json = await tiltyardInPty(envFor('check'), 'agent-check', join(import.meta.dirname, '..', '..', 'skills', 'balanced'), '--games', '1', '--json');
    expect(json.output).not.toContain(ESC);
    expect(JSON.parse(json.output)).toMatchObject({ ok: true });
  });

  it('tournament redraws its bar and standings, quiet with --json', async () => {
    const args = ['tournament', '--agents', 'random,balanced', '--seeds', '2'];
    const run = await tiltyardInPty(envFor('tour'), ...args);
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/tournament \[#+\.*\] \d+\/\d+ games/);
    // The same database: a second one would only cost its creation.
    const json = await tiltyardInPty(envFor('tour'), ...args, '--json');
    expect(json.code).toBe(0);
    expect(json.output).not.toContain(ESC);
  });
});
