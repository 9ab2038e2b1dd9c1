// Writes docs/schemas/*.json from the zod schemas (npm run docs:schemas). A test fails when the
// checked-in files differ from what this would write.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentProtocolSchemas, SCHEMAS_DIR, schemaFileText } from '../src/protocol/json-schemas.js';
import { researchSchemas } from '../src/research/export-record.js';

const dir = join(import.meta.dirname, '..', SCHEMAS_DIR);
mkdirSync(dir, { recursive: true });
const schemas = { ...agentProtocolSchemas(), ...researchSchemas() };
for (const f of readdirSync(dir))
  if (f.endsWith('.schema.json') && !(f in schemas)) rmSync(join(dir, f));
for (const [name, schema] of Object.entries(schemas))
  writeFileSync(join(dir, name), schemaFileText(schema));
console.log(`wrote ${Object.keys(schemas).length} schemas to ${SCHEMAS_DIR}/`);
