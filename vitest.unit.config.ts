import { defineConfig } from 'vitest/config';

/**
 * The fast tier (`npm run test:unit`): pure unit and property tests, in memory — no database,
 * no server, no browser, no build of dist/ (so no global setup). The other tiers run through
 * vitest.config.ts with a name filter (`npm run test:int`, `npm run test:e2e`); `npm test` runs all.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.unit.spec.ts', 'src/**/*.prop.spec.ts', 'test/**/*.unit.spec.ts', 'test/**/*.prop.spec.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
