import { describe, it } from 'vitest';
import { ADMIN_URL, openPgliteStore, openPostgresStore, postgresAvailable } from '../store/support.js';
import { tournamentSuite } from './runner-suite.js';

/** Small, so the short games of the suite cross several snapshot boundaries. */
const SNAPSHOT_EVERY = 40;

const pgUp = await postgresAvailable();
if (!pgUp) console.warn(`\n⚠ tournaments on PostgreSQL: SKIPPED — no server answers at ${ADMIN_URL}\n`);

describe('tournament store and runner on PGlite (embedded)', () => {
  tournamentSuite(() => openPgliteStore({ snapshotEvery: SNAPSHOT_EVERY }));
});

describe.skipIf(!pgUp)('tournament store and runner on PostgreSQL (a fresh database per run)', () => {
  tournamentSuite(() => openPostgresStore({ snapshotEvery: SNAPSHOT_EVERY }));
});

if (!pgUp && process.env['CI']) {
  describe('PostgreSQL on CI', () => {
    it('is reachable', () => {
      throw new Error(`CI has no PostgreSQL at ${ADMIN_URL}`);
    });
  });
}
