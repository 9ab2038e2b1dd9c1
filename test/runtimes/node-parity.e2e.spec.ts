import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { logHashOn, otherNodes, plan, repoRoot, verifyFailures, tiltyardOn, type Runtime } from './support.js';

const here: Runtime = { node: process.execPath, root: repoRoot };
const others = otherNodes();
const version = (node: string) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
const NO_OTHER_NODE =
  'no other node binary: run `.ci/node-runtime 24` (it caches one under .ci/cache) or set TILTYARD_NODES; .ci/run always does';

/**
 * Games are the same on every supported Node: this checkout's CLI under each other node binary
 * (.ci/cache's, or TILTYARD_NODES) gives the logHash this node gives for every simulation of the
 * parity plan, and a game one of them stores in an embedded database verifies under this one.
 * .ci/run also checks each extra leg's own clean install (test/runtimes/cross-leg.legs.spec.ts).
 */
describe('logHash parity across node runtimes', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-node-parity-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('given the same seeds and flags, then every node gives this node’s logHash', async ({ skip }) => {
    if (others.length === 0) skip(NO_OTHER_NODE);
    for (const flags of plan.simulations) {
      const expected = await logHashOn(here, tmp, flags);
      for (const node of others) {
        expect({ node: version(node), flags, logHash: await logHashOn({ node, root: repoRoot }, tmp, flags) }).toEqual({
          node: version(node),
          flags,
          logHash: expected,
        });
      }
    }
  });

  it('given a game stored by another node in an embedded database, then this node verifies it', async ({ skip }) => {
    if (others.length === 0) skip(NO_OTHER_NODE);
    const game = plan.games[0]!;
    for (const node of others) {
      const env = { TILTYARD_DATA_DIR: join(tmp, `pglite-${version(node)}`), DATABASE_URL: undefined };
      const run = await tiltyardOn({ node, root: repoRoot }, tmp, env, 'run', '--game-id', game.id, '--clock', 'logical', ...game.flags, '--json');
      expect(run.code, run.stderr).toBe(0);
      expect(await verifyFailures(here, tmp, env, game.id)).toEqual([]);
    }
  });
});
