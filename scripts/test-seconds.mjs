#!/usr/bin/env node
/**
 * Writes test/file-seconds.json, each test file's duration in a vitest JSON report (default
 * .ci/out/vitest.json, the one .ci/run writes), rounded to the second. The slowest-first
 * sequencer (test/slowest-first.ts) reads it when vitest has no timings of its own, as on a fresh
 * clone in CI: without it, a 60-second property file guessed at 5 s starts last and ends the run
 * alone. Re-run after a CI run when files were added or changed much:
 *
 *   node scripts/test-seconds.mjs [.ci/out/vitest.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const report = JSON.parse(readFileSync(process.argv[2] ?? join(root, '.ci/out/vitest.json'), 'utf8'));
const seconds = {};
for (const f of report.testResults ?? []) {
  // The report names files by absolute path in the clone it ran in: keep the part under test/ or src/.
  const name = f.name.replace(/^.*?\/(?=(?:test|src)\/)/, '');
  seconds[name] = Math.max(1, Math.round((f.endTime - f.startTime) / 1000));
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
const out = join(root, 'test/file-seconds.json');
writeFileSync(out, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${relative(process.cwd(), out)}: ${Object.keys(sorted).length} files`);
