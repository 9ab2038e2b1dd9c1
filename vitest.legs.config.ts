import { defineConfig } from 'vitest/config';

/**
 * The cross-runtime check that .ci/run runs after its legs (test/runtimes/*.legs.spec.ts): it reads
 * what each leg wrote (TILTYARD_PARITY_DIR), so `npm test` leaves it out (vitest.config.ts).
 */
export default defineConfig({
  test: {
    include: ['test/runtimes/*.legs.spec.ts'],
    testTimeout: 900_000,
    hookTimeout: 900_000,
  },
});
