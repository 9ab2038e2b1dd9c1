import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  agentProtocolSchemas,
  SCHEMAS_DIR,
  schemaFileText,
} from '../../src/protocol/json-schemas.js';
import { researchSchemas } from '../../src/research/export-record.js';

const dir = join(import.meta.dirname, '../..', SCHEMAS_DIR);

describe('docs/schemas (the agent protocol as JSON Schema)', () => {
  const schemas = agentProtocolSchemas();

  it('given the zod schemas, then the checked-in files are exactly what `npm run docs:schemas` writes', () => {
    const written = { ...schemas, ...researchSchemas() };
    const onDisk = readdirSync(dir)
      .filter((f) => f.endsWith('.schema.json'))
      .sort();
    expect(onDisk).toEqual(Object.keys(written).sort());
    for (const [name, schema] of Object.entries(written))
      expect(readFileSync(join(dir, name), 'utf8'), name).toBe(schemaFileText(schema));
  });

  it('given every window, then there is a decision schema and the action one requires selected_action', () => {
    for (const w of ['intent', 'talk', 'action', 'reaction', 'reflect'])
      expect(schemas[`decision.${w}.schema.json`]).toBeDefined();
    expect(schemas['decision.action.schema.json']!['required']).toContain('selected_action');
  });

  it('given legal_actions, then every kind the engine offers is in the schema', () => {
    const kinds = JSON.stringify(schemas['legal-action.schema.json']);
    for (const k of [
      'play_card',
      'activate',
      'reaction',
      'speak',
      'commit_plan',
      'reflect',
      'pass',
    ])
      expect(kinds).toContain(`"${k}"`);
  });
});
