/**
 * `npm run db:diff -- <name>`: authors the next migration offline. Replays prisma/migrations into
 * a throwaway in-memory PGlite, diffs that database to prisma/schema.prisma with Prisma's WASM
 * schema engine, and writes prisma/migrations/<timestamp>_<name>/migration.sql.
 * With --empty, writes an empty migration.sql to fill by hand (what the schema cannot express:
 * functions, CHECK constraints), as `prisma migrate dev --create-only` would.
 * Exit codes: 0 written, 0 with a notice when nothing changed, 1 on error or a missing name.
 */
import { PGlite } from '@electric-sql/pglite';
import {
  applyMigrations,
  diffToSchema,
  MIGRATIONS_DIR,
  writeMigration,
} from '../src/store/migrations.js';
import { PGliteAdapterFactory } from '../src/store/pglite-adapter.js';

const args = process.argv.slice(2);
const empty = args.includes('--empty');
const name = args
  .filter((a) => a !== '--empty')
  .join(' ')
  .trim();
if (!name) {
  console.error('usage: npm run db:diff -- [--empty] <migration name>');
  process.exit(1);
}

const db = await PGlite.create();
try {
  const factory = new PGliteAdapterFactory(db);
  await applyMigrations(factory);
  const sql = await diffToSchema(factory);
  if (empty) {
    if (sql)
      console.warn(
        'db:diff: note: the schema also has changes; run db:diff without --empty for them first.',
      );
    const folder = await writeMigration(
      name,
      '-- Written by hand: what prisma/schema.prisma cannot express.\n',
    );
    console.log(`db:diff: wrote ${MIGRATIONS_DIR}/${folder}/migration.sql (empty)`);
  } else if (!sql) {
    console.log('db:diff: prisma/schema.prisma matches the migrations; nothing written.');
  } else {
    const folder = await writeMigration(name, sql);
    console.log(`db:diff: wrote ${MIGRATIONS_DIR}/${folder}/migration.sql`);
  }
} finally {
  await db.close();
}
