import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/store/migrations.js';
import { openStore } from '../../src/store/index.js';
import { freshDatabase, postgresAvailable } from './support.js';

const RENAME = readdirSync(MIGRATIONS_DIR).find((n) => n.endsWith('_tournament_stopped_by_budget'));

// A database migrated before the rename holds tournaments `stopped_budget`: after the rename's
// migration they read back as `stopped_by_budget`, and the constraint refuses the old name.
describe.runIf(await postgresAvailable())('migration: stopped_budget → stopped_by_budget', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let before: string;
  beforeAll(async () => {
    db = await freshDatabase();
    before = mkdtempSync(join(tmpdir(), 'tiltyard-migrations-'));
    cpSync(MIGRATIONS_DIR, before, { recursive: true });
    if (RENAME) rmSync(join(before, RENAME), { recursive: true });
  });
  afterAll(async () => {
    rmSync(before, { recursive: true, force: true });
    await db.drop();
  });

  it('given a tournament stored as stopped_budget, when the migrations run, then it reads as stopped_by_budget and the old name is refused', async () => {
    expect(RENAME).toBeDefined();
    const old = await openStore({ databaseUrl: db.url, migrationsDir: before });
    const t = await old.tournaments.create({ config: { format: 'round-robin', entrants: ['random', 'balanced'], seats: 2, seed: 5 } });
    await old.close();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query(`UPDATE tournaments SET status = 'stopped_budget' WHERE tournament_id = $1`, [t.tournament_id]);
      const store = await openStore({ databaseUrl: db.url });
      try {
        expect((await store.tournaments.get(t.tournament_id)).status).toBe('stopped_by_budget');
      } finally {
        await store.close();
      }
      await expect(client.query(`UPDATE tournaments SET status = 'stopped_budget' WHERE tournament_id = $1`, [t.tournament_id])).rejects.toThrow(/tournaments_status_check/);
    } finally {
      await client.end();
    }
  });
});
