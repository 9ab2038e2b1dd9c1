import { afterAll, describe, expect, it } from 'vitest';
import { seatConfigs } from '../../src/runner/lineup.js';
import { PlayWorkers } from '../../src/tournament/play-workers.js';
import { playAndPrepare, type WholeGameJob } from '../../src/tournament/whole-game-job.js';

const AGENTS = ['balanced', 'aggressor', 'turtle', 'trickster'];

const job = (seed: number): WholeGameJob => ({
  game_id: `game_pw_${seed}`,
  config: { game_id: `game_pw_${seed}`, seats: seatConfigs(AGENTS), rules: { windows: 'compact', round_cap: 4 } },
  seed,
  agents: AGENTS,
  clock: 'logical',
  snapshotEvery: 50,
  cold: false,
});

describe('PlayWorkers', () => {
  const workers = new PlayWorkers(2);
  afterAll(() => workers.close());

  it('prepares a game on a worker thread byte for byte as this thread does (rows with their hashes, snapshots, decisions)', async () => {
    const [there, here] = await Promise.all([workers.run(job(11)), playAndPrepare(job(11))]);
    expect(there.prepared.last_seq).toBeGreaterThan(50);
    expect(there.prepared.snapshot_seq).not.toBeNull();
    expect(there.prepared.actions).not.toBeNull();
    expect(there).toEqual(here);
  });

  it('fails a job that throws on its own: the games beside it and after it are prepared', async () => {
    const [bad, good] = await Promise.allSettled([workers.run({ ...job(12), agents: ['balanced', 'no-such-agent', 'turtle', 'trickster'] }), workers.run(job(13))]);
    expect(bad).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/no-such-agent/) } });
    expect(good.status).toBe('fulfilled');
    expect(await workers.run(job(14))).toEqual(await playAndPrepare(job(14)));
  });

  it('replaces a worker that died, failing only the jobs it held', async () => {
    const held = expect(workers.run(job(15))).rejects.toThrow(/play worker exited/);
    // Kill every worker while the job is in flight (terminate is what a crash looks like from here).
    const slots = (workers as unknown as { slots: ({ worker: { terminate(): Promise<number> } } | null)[] }).slots;
    await Promise.all(slots.flatMap((s) => (s ? [s.worker.terminate()] : [])));
    await held;
    expect(await workers.run(job(16))).toEqual(await playAndPrepare(job(16)));
  });
});
