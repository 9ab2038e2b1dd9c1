import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Builds dist/ for the CLI e2e tests when src/ is newer (they spawn bin/tiltyard.js).
    globalSetup: ['test/cli/global-setup.ts'],
  },
});
