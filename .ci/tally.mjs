// Usage: node .ci/tally.mjs LABEL=REPORT[,REPORT…] …
// Sums vitest JSON reports: one line per label (a leg: its reports added up), then the run's
// closing line "N passed, N failed[, N skipped]" over all of them. A file that failed to load has
// no failing test of its own, so it counts as one failure; so does a report that is missing or
// unreadable (its tier did not run to the end). Exit code 1 when anything failed.
import { readFileSync } from 'node:fs';

/** One report's figures, or one failure when there is no report to read. */
function figures(path) {
  let r;
  try {
    r = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return { passed: 0, failed: 1, skipped: 0, missing: [path] };
  }
  const brokenFiles = (r.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  return {
    passed: r.numPassedTests ?? 0,
    failed: (r.numFailedTests ?? 0) + brokenFiles,
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
    missing: [],
  };
}

const add = (a, b) => ({
  passed: a.passed + b.passed,
  failed: a.failed + b.failed,
  skipped: a.skipped + b.skipped,
  missing: [...a.missing, ...b.missing],
});
const zero = { passed: 0, failed: 0, skipped: 0, missing: [] };
const line = (t) => `${t.passed} passed, ${t.failed} failed${t.skipped > 0 ? `, ${t.skipped} skipped` : ''}`;

let total = zero;
for (const arg of process.argv.slice(2)) {
  const at = arg.indexOf('=');
  const label = arg.slice(0, at);
  const t = arg
    .slice(at + 1)
    .split(',')
    .map(figures)
    .reduce(add, zero);
  // Never "word: N passed, N failed" alone: only the closing line may read as the run's tally.
  console.log(`leg ${label} — ${line(t)}${t.missing.length ? ` (no report: ${t.missing.join(' ')})` : ''}`);
  total = add(total, t);
}
console.log(line(total));
process.exitCode = total.failed > 0 ? 1 : 0;
