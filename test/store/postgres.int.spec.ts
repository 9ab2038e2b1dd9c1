import { describe, it } from 'vitest';
import { storeSuite } from './store-suite.js';
import { ADMIN_URL, openPostgresStore, postgresAvailable } from './support.js';

const available = await postgresAvailable();
if (!available) {
  console.warn(
    `\n⚠ event store on PostgreSQL: SKIPPED — no server answers at ${ADMIN_URL} (set TILTYARD_TEST_PG to point elsewhere)\n`,
  );
}

describe.skipIf(!available)('event store on PostgreSQL (a fresh database per run)', () => {
  storeSuite((options) => openPostgresStore(options));
});

// CI machines run PostgreSQL: there a missing server is a failure, not a skip.
if (!available && process.env['CI']) {
  describe('PostgreSQL on CI', () => {
    it('is reachable', () => {
      throw new Error(`CI has no PostgreSQL at ${ADMIN_URL}`);
    });
  });
}
