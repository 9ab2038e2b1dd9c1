/**
 * How fast `npm start` serves: on a fresh data folder (the first start: the database made from the
 * migrated template) and again on the same folder (a restart), the time from spawning
 * scripts/build-if-stale.mjs to the first 200 from /health and to the demo game in GET /games,
 * with the server's own phase marks (TILTYARD_BOOT_TIMES) and the CPU time it had used by each
 * and by /health. Targets (quiet machine): /health ≤ 2 s
 * fresh, ≤ 1.5 s restart; the demo game ≤ 3 s. Prints one JSON object: medians and every round.
 * On a busy machine compare CPU times, or the phases with each other, rather than the totals with
 * the targets.
 *
 *   npm run bench:start
 *   npm run bench:start -- --rounds 5
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureStart, type StartFigures } from './fixtures/start-measure.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a positive whole number');

/** npm start's environment: defaults everywhere but the data folder. */
const envFor = (dataDir: string) => ({
  TILTYARD_DATA_DIR: dataDir,
  DATABASE_URL: undefined,
  PORT: undefined,
  HOST: undefined,
  TILTYARD_DEMO: undefined,
  TILTYARD_DEMO_AGENTS: undefined,
  TILTYARD_PACE_MS: undefined,
  TILTYARD_LOG: undefined,
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const summary = (runs: StartFigures[]) => ({
  health_ms: median(runs.map((r) => r.health_ms)),
  demo_ms: median(runs.map((r) => r.demo_ms)),
  health_cpu_ms: median(runs.map((r) => r.health_cpu_ms ?? 0)),
  build_check_ms: median(runs.map((r) => r.build_check_ms ?? 0)),
  phase_ms: Object.fromEntries(Object.keys(runs[0]!.phase_ms).map((k) => [k, median(runs.map((r) => r.phase_ms[k] ?? 0))])),
  boot_cpu_ms: Object.fromEntries(Object.keys(runs[0]!.boot_cpu_ms).map((k) => [k, median(runs.map((r) => r.boot_cpu_ms[k] ?? 0))])),
});

const load0 = Number(loadavg()[0]!.toFixed(2));
const fresh: StartFigures[] = [];
const restart: StartFigures[] = [];
for (let i = 0; i < rounds; i++) {
  const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-bench-start-'));
  try {
    fresh.push(await measureStart(envFor(join(tmp, 'data'))));
    restart.push(await measureStart(envFor(join(tmp, 'data'))));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
console.log(
  JSON.stringify(
    {
      bench: 'start',
      machine: { cpus: cpus().length, loadavg_1m_before: load0, loadavg_1m: Number(loadavg()[0]!.toFixed(2)) },
      targets_ms: { fresh_health: 2000, restart_health: 1500, demo: 3000 },
      fresh: summary(fresh),
      restart: summary(restart),
      rounds: { fresh, restart },
    },
    null,
    2,
  ),
);
