import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { plan, verifyFailures } from './support.js';

/**
 * The cross-runtime check of .ci/run (vitest.legs.config.ts; not part of `npm test`): every leg —
 * the machine's node and each registry node, each on its own clean install — ran
 * scripts/runtime-parity/write-artifacts.mjs into TILTYARD_PARITY_DIR/<leg>/. Here, under the
 * main node: all legs give the same logHash for the same seeds, and the games each leg stored, in
 * its PGlite data dir and its PostgreSQL database, verify (hash chain, snapshots, re-simulation
 * byte for byte) under every other leg's node and install. TILTYARD_PARITY_LEGS names the legs
 * that must be there, so a leg that wrote nothing fails instead of being left out.
 */
const Leg = z.object({
  leg: z.string(),
  node: z.string(),
  nodePath: z.string(),
  root: z.string(),
  simulations: z.array(z.object({ flags: z.array(z.string()), logHash: z.string() })),
  stores: z.object({ pglite: z.string(), postgres: z.string() }),
});
type Leg = z.infer<typeof Leg>;

const dir = z.string().min(1).parse(process.env['TILTYARD_PARITY_DIR'], { error: () => 'TILTYARD_PARITY_DIR: the folder of the legs’ artifacts (.ci/run sets it)' });
const names = z
  .string()
  .min(1)
  .parse(process.env['TILTYARD_PARITY_LEGS'], { error: () => 'TILTYARD_PARITY_LEGS: the legs, comma-separated (.ci/run sets it)' })
  .split(',');
const artifact = (name: string) => join(dir, name, 'leg.json');
const legs: Leg[] = names.filter((n) => existsSync(artifact(n))).map((n) => Leg.parse(JSON.parse(readFileSync(artifact(n), 'utf8'))));
const label = (l: Leg) => `${l.leg} (node ${l.node.replace(/^v/, '')})`;

describe('the same games on every runtime', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-cross-leg-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('given every leg of the run, then each wrote its artifacts', () => {
    expect(legs.map((l) => l.leg)).toEqual(names);
  });

  it('given the same seeds and flags, then every leg gives the same logHash', () => {
    const table = (l: Leg) => l.simulations.map((s) => `${s.flags.join(' ')} → ${s.logHash}`);
    const first = legs[0]!;
    expect(first.simulations.map((s) => s.flags)).toEqual(plan.simulations);
    for (const l of legs.slice(1)) expect({ leg: label(l), logHashes: table(l) }).toEqual({ leg: label(l), logHashes: table(first) });
  });

  for (const writer of legs) {
    for (const reader of legs.filter((l) => l !== writer)) {
      const rt = { node: reader.nodePath, root: reader.root };
      it(`given ${label(writer)}'s PGlite data dir, then ${label(reader)} verifies every game`, async () => {
        // A copy: opening a data dir writes to it (lock, WAL), and every reader gets the dir as written.
        const copy = join(tmp, `${writer.leg}-by-${reader.leg}`);
        cpSync(writer.stores.pglite, copy, { recursive: true });
        const env = { TILTYARD_DATA_DIR: copy, DATABASE_URL: undefined };
        for (const g of plan.games) expect(await verifyFailures(rt, tmp, env, g.id)).toEqual([]);
      });
      it(`given ${label(writer)}'s PostgreSQL database, then ${label(reader)} verifies every game`, async () => {
        const env = { DATABASE_URL: writer.stores.postgres };
        for (const g of plan.games) expect(await verifyFailures(rt, tmp, env, g.id)).toEqual([]);
      });
    }
  }
});
