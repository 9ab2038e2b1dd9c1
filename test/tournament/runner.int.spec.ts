import { describe, it } from 'vitest';
import { ADMIN_URL, openPgliteStore, openPostgresStore, postgresAvailable } from '../store/support.js';
import { tournamentSuite } from './runner-suite.js';

const pgUp = await postgresAvailable();
if (!pgUp) console.warn(`\n⚠ tournaments on PostgreSQL: SKIPPED — no server answers at ${ADMIN_URL}\n`);

describe('tournament store and runner on PGlite (embedded)', () => {
  tournamentSuite(() => openPgliteStore());
});

describe.skipIf(!pgUp)('tournament store and runner on PostgreSQL (a fresh database per run)', () => {
  tournamentSuite(() => openPostgresStore());
});

if (!pgUp && process.env['CI']) {
  describe('PostgreSQL on CI', () => {
    it('is reachable', () => {
      throw new Error(`CI has no PostgreSQL at ${ADMIN_URL}`);
    });
  });
}
