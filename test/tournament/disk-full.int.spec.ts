import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { logicalInputClock } from '../../src/runner/input-clock.js';
import { verifyGame } from '../../src/runner/verify-game.js';
import { openStore } from '../../src/store/index.js';
import { createTournament } from '../../src/tournament/create.js';
import { runTournament } from '../../src/tournament/runner.js';
import { fillDisk, smallDisk } from '../store/fs-faults.js';

/** Room left on the disk once it is filled: less than a hot game's rows, far less than a WAL segment. */
const ROOM = 256 * 1024;

// 96 MiB: the embedded database (~40 MB) and its WAL, on a tmpfs that then fills up for real.
const disk = smallDisk(96 * 1024 * 1024);

describe('a tournament on a disk that fills up', () => {
  it.runIf(disk)('stops as `stopped` (no game failed, never `ended`), and resumed once there is room it ends with every game verified', async () => {
    const store = await openStore({ dataDir: disk!.dir, compactWholeGames: false });
    try {
      const created = await createTournament(store, { format: 'round-robin', entrants: ['balanced', 'aggressor', 'turtle'], seats: 2, seeds: 2, seed: 5 });
      if (!created.ok) throw new Error(created.message);
      const id = created.tournament.tournament_id;
      const filler = fillDisk(disk!.dir, ROOM);
      const stopped = await runTournament(id, { store, clock: logicalInputClock }).then(
        (out) => out.status,
        (e: unknown) => e,
      );
      const t = await store.tournaments.get(id);
      expect({ status: t.status, failed: t.progress.failed }).toEqual({ status: 'stopped', failed: 0 });
      expect(String(stopped)).toMatch(new RegExp(`the database at ${join(disk!.dir, 'pglite')} is out of disk space`));

      rmSync(filler);
      const out = await runTournament(id, { store, clock: logicalInputClock, retryFailed: true });
      expect(out.status).toBe('ended');
      const after = await store.tournaments.get(id);
      expect({ status: after.status, failed: after.progress.failed, ended: after.progress.ended }).toEqual({ status: 'ended', failed: 0, ended: after.progress.games });
      for (const g of await store.tournaments.games(id)) expect((await verifyGame(store, g.game_id)).assertions.filter((a) => a.status !== 'pass'), g.game_id).toEqual([]);
    } finally {
      await store.close();
      disk!.dispose();
    }
  });
});
