import { describe } from 'vitest';
import { storeSuite } from './store-suite.js';
import { openPgliteStore } from './support.js';

describe('event store on PGlite (embedded)', () => {
  storeSuite((options) => openPgliteStore(options));
});
