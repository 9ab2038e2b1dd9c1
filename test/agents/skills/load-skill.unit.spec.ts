import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverSkills, loadSkill } from '../../../src/agents/skills/load-skill.js';
import { parseSkillMd } from '../../../src/agents/skills/manifest.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Writes a skill folder `name` under a fresh root with the given files. */
function skill(name: string, files: Record<string, string>): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'skills-'));
  dirs.push(root);
  const dir = join(root, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { root, dir };
}

const md = (front: string) => `---\n${front}\n---\n# Body\n`;

describe('SKILL.md', () => {
  it('given frontmatter, then name, description and string metadata are read', () => {
    const r = parseSkillMd(md('name: my-agent\ndescription: plays\nmetadata:\n  command: sh scripts/a.sh\n  timeout_ms: 2000'));
    expect(r).toMatchObject({ ok: true, manifest: { name: 'my-agent', metadata: { command: 'sh scripts/a.sh', timeout_ms: '2000' } } });
  });

  it('given no frontmatter, bad YAML or a bad name, then a message says what to fix', () => {
    expect(parseSkillMd('# just markdown')).toMatchObject({ ok: false, message: expect.stringContaining('frontmatter') });
    expect(parseSkillMd(md('name: [unclosed'))).toMatchObject({ ok: false, message: expect.stringContaining('YAML') });
    expect(parseSkillMd(md('name: My_Agent\ndescription: x'))).toMatchObject({ ok: false, message: expect.stringContaining('lowercase') });
    expect(parseSkillMd(md('name: a'))).toMatchObject({ ok: false, message: expect.stringContaining('description') });
  });
});

describe('loadSkill', () => {
  it('given a command skill, then its own script paths become absolute and interpreters stay as typed', () => {
    const { dir } = skill('sh-agent', { 'SKILL.md': md('name: sh-agent\ndescription: x\nmetadata:\n  command: sh scripts/agent.sh --fast'), 'scripts/agent.sh': 'echo' });
    const r = loadSkill(dir);
    expect(r.ok && r.skill).toMatchObject({ kind: 'command', argv: ['sh', join(dir, 'scripts/agent.sh'), '--fast'], fallback: 'balanced', timeoutMs: 5000 });
  });

  it('given a name that differs from the folder, then it is refused', () => {
    const { dir } = skill('folder-name', { 'SKILL.md': md('name: other-name\ndescription: x\nmetadata:\n  command: sh a.sh') });
    expect(loadSkill(dir)).toMatchObject({ ok: false, message: expect.stringContaining('must match') });
  });

  it('given a builtin skill, a plan skill, or neither, then the kind follows', () => {
    const b = skill('calm', { 'SKILL.md': md('name: calm\ndescription: x\nmetadata:\n  builtin: turtle') });
    expect(loadSkill(b.dir)).toMatchObject({ ok: true, skill: { kind: 'builtin', builtin: 'turtle' } });
    const bad = skill('nobody', { 'SKILL.md': md('name: nobody\ndescription: x\nmetadata:\n  builtin: nobody') });
    expect(loadSkill(bad.dir)).toMatchObject({ ok: false, message: expect.stringContaining('not a built-in') });
    const plan = { tools: [{ toolId: 'a', toolPath: 'node', args: ['scripts/a.mjs'] }] };
    const p = skill('planner', { 'SKILL.md': md('name: planner\ndescription: x'), 'plan.json': JSON.stringify(plan), 'scripts/a.mjs': '' });
    const loaded = loadSkill(p.dir);
    expect(loaded.ok && loaded.skill.plan?.tools[0]).toMatchObject({ toolPath: 'node', args: [join(p.dir, 'scripts/a.mjs')], required: true, retryPolicy: { maxRetries: 3, backoffMs: 100 } });
    const none = skill('empty', { 'SKILL.md': md('name: empty\ndescription: x') });
    expect(loadSkill(none.dir)).toMatchObject({ ok: false, message: expect.stringContaining('command') });
  });

  it('given bad metadata values, then each is named', () => {
    const t = skill('slow', { 'SKILL.md': md('name: slow\ndescription: x\nmetadata:\n  command: sh a\n  timeout_ms: soon') });
    expect(loadSkill(t.dir)).toMatchObject({ ok: false, message: expect.stringContaining('timeout_ms') });
    const f = skill('fb', { 'SKILL.md': md('name: fb\ndescription: x\nmetadata:\n  command: sh a\n  fallback: genius') });
    expect(loadSkill(f.dir)).toMatchObject({ ok: false, message: expect.stringContaining('fallback') });
  });

  it('given a config schema, then config.json values are typed, defaulted, and ${ENV} is substituted', () => {
    const schema = { fields: [{ name: 'aggression', type: 'number', default: 0.5 }, { name: 'api_key', type: 'string', sensitive: true, required: true }, { name: 'style', type: 'enum', options: ['calm', 'wild'], default: 'calm' }] };
    const { dir } = skill('configured', {
      'SKILL.md': md('name: configured\ndescription: x\nmetadata:\n  command: sh a'),
      'config.schema.json': JSON.stringify(schema),
      'config.json': JSON.stringify({ api_key: 'k-${MY_KEY}', aggression: '0.75' }),
    });
    const r = loadSkill(dir, { MY_KEY: 'secret123' });
    expect(r.ok && r.skill.config).toEqual({ values: { aggression: 0.75, api_key: 'k-secret123', style: 'calm' }, secrets: ['k-secret123'] });
    expect(loadSkill(dir, {})).toMatchObject({ ok: false, message: expect.stringContaining('MY_KEY') });
  });

  it('given config values that break the schema, then the field is named', () => {
    const schema = { fields: [{ name: 'style', type: 'enum', options: ['calm'] }] };
    const bad = skill('cfg', { 'SKILL.md': md('name: cfg\ndescription: x\nmetadata:\n  command: sh a'), 'config.schema.json': JSON.stringify(schema), 'config.json': '{"style":"wild"}' });
    expect(loadSkill(bad.dir)).toMatchObject({ ok: false, message: expect.stringContaining('style must be one of calm') });
    const typo = skill('cfg2', { 'SKILL.md': md('name: cfg2\ndescription: x\nmetadata:\n  command: sh a'), 'config.schema.json': JSON.stringify(schema), 'config.json': '{"stlye":"calm"}' });
    expect(loadSkill(typo.dir)).toMatchObject({ ok: false, message: expect.stringContaining('"stlye" is not a field') });
  });
});

describe('discoverSkills', () => {
  it('given a root with good and broken skills, then the good load and the broken are reported, not fatal', () => {
    const { root } = skill('good', { 'SKILL.md': md('name: good\ndescription: x\nmetadata:\n  builtin: random') });
    mkdirSync(join(root, 'broken'));
    writeFileSync(join(root, 'broken', 'SKILL.md'), 'no frontmatter');
    mkdirSync(join(root, 'not-a-skill'));
    const found = discoverSkills([root, join(root, 'missing')]);
    expect(found.skills.map((s) => s.name)).toEqual(['good']);
    expect(found.problems).toEqual([{ dir: join(root, 'broken'), message: expect.stringContaining('frontmatter') }]);
  });
});
