/**
 * `npm run db:migrate`: applies prisma/migrations to the configured database — PostgreSQL when
 * DATABASE_URL is set, else the embedded PGlite in $TILTYARD_DATA_DIR (default ./data) — with
 * Prisma's WASM schema engine, recording them in `_prisma_migrations` as `prisma migrate deploy`
 * would. Then diffs the live database against prisma/schema.prisma and reports any drift.
 * Exit codes: 0 up to date, 1 error, 2 migrated but the database still differs from the schema.
 */
import { connectPglite, connectPostgres } from '../src/store/connect.js';
import { applyMigrations, diffToSchema } from '../src/store/migrations.js';

const url = process.env['DATABASE_URL'] || undefined;
const backend = await (
  url ? connectPostgres(url) : connectPglite(process.env['TILTYARD_DATA_DIR'] ?? './data')
).catch((e: unknown) => {
  console.error(`db:migrate: ${(e as Error).message}`);
  process.exit(1);
});
try {
  const applied = await backend.exclusive((session) => applyMigrations(session.factory));
  console.log(
    `db:migrate: ${backend.where}: ${applied.length ? `applied ${applied.join(', ')}` : 'already up to date'}`,
  );
  const drift = await diffToSchema(backend.factory);
  if (drift) {
    console.error(
      `db:migrate: the database differs from prisma/schema.prisma (run db:diff for a migration?):\n${drift}`,
    );
    process.exitCode = 2;
  }
} catch (e) {
  console.error(`db:migrate: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await backend.close();
}
