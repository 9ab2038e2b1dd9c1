import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunReport } from '../runner/verify-game.js';

/** Where RunReports go: `.reports/` under the working directory (seed 004). */
export const REPORTS_DIR = '.reports';

/**
 * Writes a RunReport to `<dir>/<timestamp>.json` (its end time, with `:` and `.` made file-name
 * safe) and returns it with `artifacts_path` set to that file. Never overwrites: two reports in
 * the same millisecond get `-1`, `-2`, … suffixes.
 */
export function writeReport(
  report: Omit<RunReport, 'artifacts_path'>,
  dir = REPORTS_DIR,
): RunReport {
  mkdirSync(dir, { recursive: true });
  const stamp = report.end_ts.replace(/[:.]/g, '-');
  for (let n = 0; ; n++) {
    const path = join(dir, `${stamp}${n ? `-${n}` : ''}.json`);
    const full: RunReport = { ...report, artifacts_path: path };
    try {
      writeFileSync(path, `${JSON.stringify(full, null, 2)}\n`, { flag: 'wx' });
      return full;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
