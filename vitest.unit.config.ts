import { defineConfig } from 'vitest/config';

/**
 * The in-memory tiers, without the global setup's build of dist/: `npm run test:unit` (the
 * *.unit.spec.ts files, the fast tier) and `npm run test:prop` (*.prop.spec.ts: property tests,
 * in memory too but hundreds of generated games). No database, no server, no browser. The other
 * tiers run through vitest.config.ts with a name filter (`npm run test:int`, `npm run test:e2e`);
 * `npm test` runs everything.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.unit.spec.ts', 'src/**/*.prop.spec.ts', 'test/**/*.unit.spec.ts', 'test/**/*.prop.spec.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
