import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
    // Generous: a timeout is a hang detector, never a speed check (the suite must pass on a loaded
    // machine; timings live in bench/).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Builds dist/ for the CLI e2e tests when src/ is newer (they spawn bin/tiltyard.js).
    globalSetup: ['test/cli/global-setup.ts'],
  },
});
