import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'prisma/config';

// The Prisma CLI downloads its native schema engine before `generate`, `validate` and `format`
// even though they never run it, and that download fails offline. Naming an existing file in
// PRISMA_SCHEMA_ENGINE_BINARY skips it; this config loads before the check. The stub explains
// itself and exits 1: migrations run through the WASM engine (scripts/db-diff.ts, db-migrate.ts).
// Set PRISMA_SCHEMA_ENGINE_BINARY= (empty) to let an online machine use the real engine.
const stub = fileURLToPath(new URL('./scripts/prisma-schema-engine-stub.sh', import.meta.url));
if (process.env.PRISMA_SCHEMA_ENGINE_BINARY === undefined && existsSync(stub))
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = stub;

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});
