import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECISION_SCHEMAS, LegalAction } from '../../src/protocol/index.js';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'agents.md'), 'utf8');

/** The text of the `## <title>` section, up to the next `## `. */
function section(title: string): string {
  const start = doc.indexOf(`\n## ${title}`);
  expect(start, `docs/agents.md has a section "## ${title}"`).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

/** Each ```json block of a text, with the text before it (what it is an example of). */
const jsonBlocks = (text: string): { before: string; value: unknown }[] =>
  [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => ({ before: text.slice(0, m.index), value: JSON.parse(m[1]!) as unknown }));

/** The kinds the LegalAction union has. */
const KINDS = LegalAction.options.map((o) => o.shape.kind.value);

describe('docs/agents.md examples parse with the schemas they document', () => {
  it('legal_actions: one real example or more per entry kind, each exactly the schema (nothing missing, nothing extra)', () => {
    const blocks = jsonBlocks(section('legal_actions: every entry, with an example'));
    const documented = new Set<string>();
    for (const { value } of blocks) {
      const parsed = LegalAction.parse(value);
      // Parsing strips unknown keys: equal means the example holds no field the schema lacks.
      expect(parsed).toEqual(value);
      documented.add(parsed.kind);
    }
    expect([...documented].sort()).toEqual([...KINDS].sort());
  });

  it('commit_plan is documented with targets only', () => {
    const commit = LegalAction.options.find((o) => o.shape.kind.value === 'commit_plan')!;
    expect(Object.keys(commit.shape).sort()).toEqual(['kind', 'targets']);
    expect(section('Answers, window by window')).toContain('entry of `legal_actions` has only `targets`');
  });

  it('each answer under "Answers, window by window" parses with its window\'s decision schema', () => {
    const blocks = jsonBlocks(section('Answers, window by window'));
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    for (const { before, value } of blocks) {
      const window = /\*\*(intent|talk|action|reaction|reflect)\b[^*]*\*\*(?![\s\S]*\*\*(intent|talk|action|reaction|reflect)\b)/.exec(before)?.[1] as keyof typeof DECISION_SCHEMAS;
      expect(window, JSON.stringify(value)).toBeDefined();
      const r = DECISION_SCHEMAS[window].safeParse(value);
      expect(r.success, `${window}: ${JSON.stringify(value)} ${r.error?.message ?? ''}`).toBe(true);
    }
  });

  it('the quick start for agent authors is linked from here', () => {
    expect(doc).toContain('](agent-quickstart.md)');
  });
});
