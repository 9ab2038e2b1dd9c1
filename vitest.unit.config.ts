import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { MEMORY_TIERS } from './test/tiers.js';

/**
 * The in-memory tiers, without the global setup's build of dist/: `npm run test:unit` (the
 * *.unit.spec.ts files, the fast tier, seconds), `npm run test:prop` (*.prop.spec.ts: property
 * tests, in memory too but hundreds of generated games) and `npm run test:slow` (*.slow.spec.ts:
 * balance and strength bands over hundreds of seeded games). No database, no server, no browser.
 * The other tiers run through vitest.config.ts with a name filter (`npm run test:int`, `npm run
 * test:e2e`); `npm test` runs everything.
 */
export default defineConfig({
  test: {
    include: [MEMORY_TIERS],
    // As in vitest.config.ts: files share a worker's module cache.
    isolate: false,
    // These files only compute: one worker per core (vitest's default leaves one core idle).
    maxWorkers: availableParallelism(),
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
