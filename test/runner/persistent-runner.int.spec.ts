import { describe, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import {
  ADMIN_URL,
  openPgliteStore,
  openPostgresStore,
  postgresAvailable,
} from '../store/support.js';
import { runnerSuite } from './runner-suite.js';

const pgUp = await postgresAvailable();
if (!pgUp) {
  console.warn(
    `\n⚠ persistent runner on PostgreSQL: SKIPPED — no server answers at ${ADMIN_URL} (set TILTYARD_TEST_PG to point elsewhere)\n`,
  );
}

describe('persistent runner on PGlite (embedded)', () => {
  runnerSuite(() => openPgliteStore());
});

describe.skipIf(!pgUp)('persistent runner on PostgreSQL (a fresh database per run)', () => {
  runnerSuite(async () => {
    const t = await openPostgresStore();
    const openAnother = async () => {
      const store = await openStore({ databaseUrl: t.url });
      return { store, dispose: () => store.close() };
    };
    return { ...t, openAnother };
  });
});

// CI machines run PostgreSQL: there a missing server is a failure, not a skip.
if (!pgUp && process.env['CI']) {
  describe('PostgreSQL on CI', () => {
    it('is reachable', () => {
      throw new Error(`CI has no PostgreSQL at ${ADMIN_URL}`);
    });
  });
}
