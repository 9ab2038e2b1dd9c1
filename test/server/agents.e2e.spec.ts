import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NAMES, AGENT_VERSIONS } from '../../src/agents/builtin/index.js';
import { serverSettings } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { JsonLogger } from '../../src/lib/json-logger.js';

const SECRET_KEY = 'sk-secret-test';
const SECRET_URL = 'https://user:pw-in-url-secret@llm.internal.example/v1';

type Catalog = {
  builtins: Array<{ name: string; spec: string; version: number }>;
  skills: Array<{ name: string; spec: string; description: string; kind: string; fallback: string }>;
  problems: Array<{ folder: string; message: string }>;
  humans: Array<{ name: string; spec: string; description: string }>;
  providers: Array<{ name: string; kind: string; spec: string; default_model: string | null }>;
  provider_problem: string | null;
};

/**
 * The server runs from a scratch folder whose ./skills holds a broken skill and one whose config
 * takes the OpenAI key; the product's own skills/ is the second skill root either way.
 */
describe('GET /agents', () => {
  let server: RunningServer;
  let dir: string;
  const cwd = process.cwd();
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  let text: string;
  let catalog: Catalog;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tiltyard-agents-'));
    const skill = (name: string, files: Record<string, string>) => {
      mkdirSync(join(dir, 'skills', name), { recursive: true });
      for (const [file, body] of Object.entries(files)) writeFileSync(join(dir, 'skills', name, file), body);
    };
    skill('broken-one', { 'SKILL.md': '---\nname: broken-one\n---\nno description\n' });
    skill('keyed', {
      'SKILL.md': '---\nname: keyed\ndescription: Calls a model with the OpenAI key.\nmetadata:\n  command: sh scripts/agent.sh\n  fallback: turtle\n---\n',
      'config.schema.json': JSON.stringify({ fields: [{ name: 'api_key', type: 'string', sensitive: true }, { name: 'endpoint', type: 'string' }] }),
      'config.json': JSON.stringify({ api_key: '${OPENAI_API_KEY}', endpoint: '${OPENAI_BASE_URL}' }),
    });
    skill('bad-config', {
      'SKILL.md': '---\nname: bad-config\ndescription: Its config.json is not JSON.\nmetadata:\n  command: sh x.sh\n---\n',
      'config.schema.json': JSON.stringify({ fields: [{ name: 'key', type: 'string', sensitive: true }] }),
      'config.json': '{"key": "${OPENAI_API_KEY}" oops',
    });
    process.env.OPENAI_API_KEY = SECRET_KEY;
    process.env.OPENAI_BASE_URL = SECRET_URL;
    process.chdir(dir);
    server = await createServer(serverSettings({ PORT: '0', TILTYARD_DATA_DIR: 'memory://', TILTYARD_DEMO: 'off' }), { logger: new JsonLogger('silent') });
    const res = await fetch(`${server.url}/agents`);
    expect(res.status).toBe(200);
    text = await res.text();
    catalog = JSON.parse(text) as Catalog;
  });
  afterAll(async () => {
    await server?.close();
    process.chdir(cwd);
    for (const [name, value] of [['OPENAI_API_KEY', saved.key], ['OPENAI_BASE_URL', saved.url]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('given the built-in agents, then each is listed by the name POST /games takes', () => {
    expect(catalog.builtins).toEqual(AGENT_NAMES.map((name) => ({ name, spec: name, version: AGENT_VERSIONS[name] })));
  });

  it('lists `human`: a seat a person holds over HTTP, on a server only (issue 40)', () => {
    expect(catalog.humans).toEqual([{ name: 'human', spec: 'human', description: expect.stringMatching(/over HTTP.*Server only/s) }]);
  });

  it('given the shipped skills and a local one, then each is listed with its description, kind and fallback', () => {
    const byName = new Map(catalog.skills.map((s) => [s.name, s]));
    expect(byName.get('python-example')).toEqual({ name: 'python-example', spec: 'skill:python-example', description: expect.stringContaining('Python'), kind: 'command', fallback: 'balanced' });
    expect(byName.get('plan-example')).toMatchObject({ kind: 'plan' });
    expect(byName.get('llm')).toMatchObject({ kind: 'llm' });
    expect(byName.get('balanced')).toMatchObject({ kind: 'builtin' });
    expect(byName.get('keyed')).toMatchObject({ kind: 'command', fallback: 'turtle' });
    expect(catalog.skills.length).toBe(byName.size);
  });

  it('given broken skill folders, then they are listed as problems saying what to fix', () => {
    expect(catalog.problems).toEqual(
      expect.arrayContaining([
        { folder: 'broken-one', message: expect.stringContaining('description') },
        { folder: 'bad-config', message: expect.stringContaining('config.json') },
      ]),
    );
  });

  it('given the mock and an OpenAI key in the environment, then both providers are listed by name and kind', () => {
    expect(catalog.providers).toEqual(
      expect.arrayContaining([
        { name: 'mock', kind: 'mock', spec: 'llm:mock', default_model: null },
        { name: 'openai', kind: 'openai', spec: 'llm:openai', default_model: 'gpt-4o-mini' },
      ]),
    );
    expect(catalog.provider_problem).toBeNull();
  });

  it('given keys and a URL with credentials in the environment and in a skill config, then the answer holds none of them, nor a server path', () => {
    for (const secret of [SECRET_KEY, 'pw-in-url-secret', 'llm.internal.example', 'base_url', 'api_key', dir, cwd]) expect(text).not.toContain(secret);
  });
});
