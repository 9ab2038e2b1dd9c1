import { describe } from 'vitest';
import { coldSuite } from './cold-suite.js';
import { openPgliteStore, openPostgresStore, postgresAvailable } from './support.js';

describe('cold storage on PGlite (embedded)', () => {
  coldSuite((options) => openPgliteStore(options));
});

describe.skipIf(!(await postgresAvailable()))('cold storage on PostgreSQL (a fresh database per run)', () => {
  coldSuite((options) => openPostgresStore(options));
});
