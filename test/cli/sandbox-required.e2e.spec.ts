import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { which } from '../../src/agents/sandbox/index.js';
import type { AgentCheckReport } from '../../src/check/report.js';
import type { GameRecord } from '../../src/store/index.js';
import { writeSkillAgent } from '../runner/skill-agent.js';
import { spawnServer, until } from '../server/spawn-server.js';
import { root } from './agent-check-support.js';
import { tiltyardWith } from './run-cli.js';

/**
 * Subprocess agents fail closed: on a machine without bubblewrap — here, a PATH that holds `sh`
 * and nothing else, which is all the lookup sees — a skill seat is refused up front (exit 2, a
 * 400), naming bubblewrap and how to install it, while built-in agents play as ever; only an
 * explicit TILTYARD_SANDBOX=off runs the skill, unconfined, with a warning.
 */
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-no-bwrap-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const bin = join(tmp, 'bin');
mkdirSync(bin);
symlinkSync(which('sh')!, join(bin, 'sh'));
/** Where the skill writes when it runs: outside any work dir, which only an unconfined process can. */
const escaped = join(tmp, 'escaped');
const skill = `skill:${writeSkillAgent(tmp, 'outsider', ['#!/bin/sh', 'read -r request', `echo ran >> ${escaped}`, 'echo \'{"version":"0","type":"done","ok":true}\'', ''].join('\n'))}`;
const ENV = { PATH: bin, TILTYARD_DATA_DIR: join(tmp, 'data'), DATABASE_URL: undefined, TILTYARD_SANDBOX: undefined };
const REFUSED = /subprocess agents run only in the bubblewrap sandbox, and bubblewrap \(bwrap\) is not installed \(not found on PATH\): install bubblewrap \(apt-get install bubblewrap/;

describe('without bubblewrap on PATH', () => {
  it('given a skill seat, then tiltyard run, play and simulate refuse it with exit 2, naming bubblewrap, before anything is played', async () => {
    for (const command of ['run', 'play', 'simulate']) {
      const r = await tiltyardWith({ cwd: tmp, env: ENV }, command, '--agents', `${skill},random`);
      expect(r.code, `${command}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(REFUSED);
      expect(r.stdout).toBe('');
    }
    expect(existsSync(escaped)).toBe(false);
  });

  it('given built-in agents only, then a game plays to the end', async () => {
    const r = await tiltyardWith({ cwd: tmp, env: ENV }, 'play', '--agents', 'balanced,aggressor,random', '--compact');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Game over');
    expect(r.stderr).toBe('');
  });

  it('given TILTYARD_SANDBOX=off, then the skill runs, unconfined, after a loud warning', async () => {
    const r = await tiltyardWith({ cwd: tmp, env: { ...ENV, TILTYARD_SANDBOX: 'off' } }, 'play', '--agents', `${skill},random`, '--compact');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/!!! tiltyard: subprocess agents run UNSANDBOXED \(TILTYARD_SANDBOX=off\)/);
    expect(readFileSync(escaped, 'utf8')).toMatch(/^ran\n/);
    rmSync(escaped);
  });

  it('given agent-check, then it reports one error naming bubblewrap, runs nothing else, and says sandboxed nowhere', async () => {
    const json = await tiltyardWith({ cwd: tmp, env: ENV }, 'agent-check', join(root, 'skills', 'shell-example'), '--json', '--games', '0');
    expect(json.code).toBe(1);
    const r = JSON.parse(json.stdout) as AgentCheckReport;
    expect(r.findings).toEqual([expect.objectContaining({ check: 'containment', severity: 'error', message: expect.stringMatching(/^the agent cannot run here: .*bubblewrap \(bwrap\) is not installed/) })]);
    expect(r.assertions.filter((a) => a.status !== 'skip').map((a) => [a.name, a.status])).toEqual([['load', 'pass'], ['containment', 'fail']]);
    const text = await tiltyardWith({ cwd: tmp, env: ENV }, 'agent-check', join(root, 'skills', 'shell-example'), '--games', '0');
    expect(text.stdout).toMatch(/✗ containment +1 error/);
    expect(text.stdout).not.toMatch(/✓ containment|sandboxed \(bubblewrap/);
  });

  it('given a server, then its summary says skill agents are refused, a game or tournament with a skill seat is a 400 naming bubblewrap, and the demo of built-ins plays', async () => {
    const ADMIN = 'no-bwrap-admin';
    const server = await spawnServer({ ...ENV, TILTYARD_DATA_DIR: join(tmp, 'server-data'), TILTYARD_ADMIN_TOKEN: ADMIN, TILTYARD_DEMO: undefined, TILTYARD_PACE_MS: undefined });
    try {
      expect(server.output().stderr).toMatch(/agents +skill agents are refused: bubblewrap is not on PATH \(install bubblewrap \(apt-get install bubblewrap/);
      const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const game = await post('/games', { agents: [skill, 'random'] });
      expect(game.status).toBe(400);
      expect(((await game.json()) as { message: string }).message).toMatch(REFUSED);
      const tournament = await post('/tournaments', { format: 'round-robin', entrants: [skill, 'random', 'balanced'], seats: 2, seeds: 1 });
      expect(tournament.status).toBe(400);
      expect(((await tournament.json()) as { message: string }).message).toMatch(/bubblewrap/);
      const demo = await until(
        'a demo game that has moved',
        async () => ((await (await fetch(`${server.url}/games`)).json()) as { games: GameRecord[] }).games.find((g) => g.options['demo'] === true && g.last_seq > 0),
        240_000,
        100,
      );
      expect(demo.seats.map((s) => s.agent)).toEqual(['balanced', 'aggressor', 'manipulator', 'trickster']);
    } finally {
      server.child.kill('SIGTERM');
      const hard = setTimeout(() => server.child.kill('SIGKILL'), 60_000);
      await server.exited;
      clearTimeout(hard);
    }
    expect(existsSync(escaped)).toBe(false);
  });
});
