// Usage: node scripts/runtime-parity/write-artifacts.mjs LEG OUTDIR
//
// What one CI leg leaves for the cross-runtime check (test/runtimes/cross-leg.legs.spec.ts): the
// logHash of a few simulations, and the same stored games in an embedded PGlite data dir
// (OUTDIR/pglite) and in a PostgreSQL database of the leg's own (tiltyard_parity_<LEG>), some
// compacted into cold storage (brotli, node's zlib) and one left hot. Everything runs through this
// checkout's real `tiltyard` bin under the node that runs this script, so the artifacts are that
// runtime's. OUTDIR/leg.json says what is where and which node wrote it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';

const [leg, outArg] = process.argv.slice(2);
if (!leg || !outArg || !/^[a-z0-9_]+$/.test(leg)) {
  console.error('usage: write-artifacts.mjs LEG OUTDIR (LEG: lower-case letters, digits, _)');
  process.exit(2);
}
const out = resolve(outArg);
const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'tiltyard.js');

/**
 * The plan every leg follows (test/runtimes/parity-plan.json, shared with the checks): simulations
 * whose logHash every leg must agree on, and games to store, the `cold` ones compacted before the
 * others are played. Games run on the logical clock, so their logs hold no wall time.
 */
const { simulations: SIMULATIONS, games: GAMES } = JSON.parse(readFileSync(join(root, 'test', 'runtimes', 'parity-plan.json'), 'utf8'));

/** Runs the real CLI under this node; throws (with its stderr) when it exits non-zero. */
function tiltyard(args, env = {}) {
  return execFileSync(process.execPath, [bin, ...args], {
    cwd: out,
    env: { ...process.env, TILTYARD_DEBUG: '', ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Plays GAMES into one store: the cold ones, `store compact`, then the hot one. */
function storeGames(env) {
  for (const g of GAMES.filter((g) => g.cold)) tiltyard(['run', '--game-id', g.id, '--clock', 'logical', ...g.flags, '--json'], env);
  tiltyard(['store', 'compact', '--json'], env);
  for (const g of GAMES.filter((g) => !g.cold)) tiltyard(['run', '--game-id', g.id, '--clock', 'logical', ...g.flags, '--json'], env);
}

/** A fresh database for this leg on the test PostgreSQL server (the one the int tests use). */
async function freshDatabase() {
  const adminUrl = process.env['TILTYARD_TEST_PG'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = `tiltyard_parity_${leg}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const simulations = SIMULATIONS.map((flags) => {
  const r = JSON.parse(tiltyard(['simulate', ...flags, '--json']));
  return { flags, logHash: r.logHash, games: r.games, events: r.events };
});

const pglite = join(out, 'pglite');
storeGames({ TILTYARD_DATA_DIR: pglite, DATABASE_URL: '' });
const postgres = await freshDatabase();
storeGames({ DATABASE_URL: postgres });

const artifact = {
  leg,
  node: process.version,
  nodePath: process.execPath,
  root,
  simulations,
  games: GAMES,
  stores: { pglite, postgres },
};
writeFileSync(join(out, 'leg.json'), `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`${leg}: node ${process.version}, ${simulations.length} simulations, ${GAMES.length} games in PGlite and PostgreSQL → ${out}`);
