import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './test/slowest-first.js';
import { MEMORY_TIERS } from './test/tiers.js';

/**
 * Files run side by side: most of the suite waits on processes it spawned (the CLI, servers,
 * sandboxed agents, Chromium) and on databases, not on its own CPU, so twice as many workers as
 * cores keeps the cores busy (vitest's default, cores − 1, ran one file at a time on two cores).
 * TILTYARD_TEST_WORKERS overrides it (1 runs the files one after another).
 */
const workers = Number(process.env['TILTYARD_TEST_WORKERS']) || Math.max(2, 2 * availableParallelism());
/**
 * TILTYARD_TEST_REPORT=<file> also writes vitest's JSON report there: .ci/run runs exactly the
 * README's `npm test` and tallies its results from this file.
 */
const report = process.env['TILTYARD_TEST_REPORT'];

export default defineConfig({
  test: {
    maxWorkers: workers,
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
    // The longest files start first, so the run does not end on one slow file alone.
    sequence: { sequencer: SlowestFirst },
    // Generous: a timeout is a hang detector, never a speed check (the suite must pass on a loaded
    // machine; timings live in bench/). With two CPU burners beside .ci/run a file runs 2–4× slower
    // than on a quiet machine, and the longest tests take over a minute there: 15 minutes leaves
    // room, and a real hang still ends the run well inside CI's budget.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    // TILTYARD_CPU_LOG=<file> logs each file's CPU seconds (test/support/cpu-meter.ts); no-op otherwise.
    setupFiles: ['test/support/cpu-meter.ts'],
    projects: [
      {
        extends: true,
        test: {
          // The in-memory tiers (vitest.unit.config.ts runs them alone) share a worker's module
          // cache from file to file: each file importing the engine, zod schemas and agents anew
          // cost about as much CPU as its tests (81 unit files: 88 CPU-s isolated, 43 shared).
          // They hold no process-wide state (no env, no databases, no servers).
          name: 'memory',
          include: [MEMORY_TIERS],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'io',
          include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
          // *.legs.spec.ts read what .ci/run's legs wrote: vitest.legs.config.ts runs them there.
          exclude: [MEMORY_TIERS, 'test/**/*.legs.spec.ts'],
          // Builds dist/ for the CLI e2e tests when src/ is newer (they spawn bin/tiltyard.js).
          globalSetup: ['test/cli/global-setup.ts'],
        },
      },
    ],
  },
});
