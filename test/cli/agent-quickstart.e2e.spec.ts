import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin } from './run-cli.js';

const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'agent-quickstart.md'), 'utf8');

/** The page's code blocks in order: files to create (```lang file=path) and commands (```sh). */
const blocks = [...page.matchAll(/^```(\w+)(?: file=(\S+))?\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, file: m[2], text: m[3]! }));

/**
 * The reader's clone, as far as the page needs it: `npx tiltyard` finds the bin in
 * node_modules/.bin, as it does after `npm install` in the clone (here the bin is this checkout's).
 */
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-quickstart-'));
mkdirSync(join(tmp, 'node_modules', '.bin'), { recursive: true });
symlinkSync(bin, join(tmp, 'node_modules', '.bin', 'tiltyard'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sh = (command: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const env = { ...process.env, TILTYARD_DATA_DIR: join(tmp, 'data'), DATABASE_URL: '', TILTYARD_DEBUG: '' };
    execFile('sh', ['-c', command], { cwd: tmp, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });

// Hang detector only: a Python agent per decision is slow on a loaded machine.
describe('docs/agent-quickstart.md, followed literally', { timeout: 1_800_000 }, () => {
  it('has files to create and commands to run', () => {
    expect(blocks.filter((b) => b.file).map((b) => b.file)).toEqual(['my-agent/SKILL.md', 'my-agent/agent.py']);
    expect(blocks.filter((b) => b.lang === 'sh').length).toBeGreaterThanOrEqual(2);
  });

  it('the agent it builds passes agent-check, then plays', async () => {
    const ran: string[] = [];
    for (const block of blocks) {
      if (block.file) {
        mkdirSync(dirname(join(tmp, block.file)), { recursive: true });
        writeFileSync(join(tmp, block.file), block.text);
        continue;
      }
      if (block.lang !== 'sh') continue;
      for (const command of block.text.split('\n').filter((l) => l.trim() && !l.startsWith('#'))) {
        const run = await sh(command);
        expect(run.code, `${command}\n${run.stdout}\n${run.stderr}`).toBe(0);
        if (command.includes('agent-check')) {
          expect(run.stdout).toMatch(/^agent-check my-agent \(command: /);
          expect(run.stdout).toMatch(/\nok: 0 errors/);
          expect(run.stdout).not.toMatch(/^ {2}✗/m);
        }
        if (command.includes(' play ')) expect(run.stdout).toContain('my-agent');
        ran.push(command);
      }
    }
    expect(ran.some((c) => c.startsWith('npx tiltyard agent-check my-agent'))).toBe(true);
  });

  it('is linked from the README and from docs/agents.md', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('](docs/agent-quickstart.md)');
    expect(readFileSync(join(root, 'docs', 'agents.md'), 'utf8')).toContain('](agent-quickstart.md)');
  });
});
