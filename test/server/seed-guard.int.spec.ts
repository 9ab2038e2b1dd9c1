import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersistentGame, resumePersistent } from '../../src/runner/persistent-runner.js';
import { gameView } from '../../src/server/games/game-view.js';
import { forkGame } from '../../src/research/fork-game.js';
import { seedsInPlay, tournamentSeedsInPlay } from '../../src/server/tournaments/seed-guard.js';
import { openStore, type EventStore } from '../../src/store/index.js';

describe('the seeds of a running tournament’s ended games (PGlite)', () => {
  let store: EventStore;
  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('given a duplicate pair of games, one ended, when its tournament runs, then its seed stays hidden from non-admins until the tournament is over', async () => {
    const t = await store.tournaments.create({ config: { format: 'round-robin', entrants: ['random', 'balanced'], seats: 2, seed: 5 } });
    const id = t.tournament_id;
    const rules = { round_cap: 2 };
    // Two seat rotations of one deal: the same seed.
    for (const [gameId, seats, key] of [['game_dup_a', ['random', 'balanced'], 'k0'], ['game_dup_b', ['balanced', 'random'], 'k1']] as const) {
      await createPersistentGame(store, { seed: 77, agents: seats, rules, gameId });
      await store.tournaments.linkGame(id, { game_id: gameId, key, round: 0, table: 0, seats });
    }
    await createPersistentGame(store, { seed: 78, agents: ['random', 'turtle'], rules, gameId: 'game_alone' });
    expect((await resumePersistent(store, 'game_dup_a')).status).toBe('ended');
    expect((await resumePersistent(store, 'game_alone')).status).toBe('ended');

    const inPlay = await tournamentSeedsInPlay(store, ['game_dup_a', 'game_alone', 'game_unknown']);
    expect([...inPlay]).toEqual(['game_dup_a']);
    const ended = await store.getGame('game_dup_a');
    expect(gameView(ended, 'spectator', inPlay.has('game_dup_a'))).toMatchObject({ seed: null, seed_hidden: true });
    expect(gameView(ended, 'researcher', inPlay.has('game_dup_a'))).toMatchObject({ seed: null, seed_hidden: true });
    expect(gameView(ended, 'admin', inPlay.has('game_dup_a'))).toMatchObject({ seed: 77, seed_hidden: false });
    expect(gameView(await store.getGame('game_alone'), 'spectator', inPlay.has('game_alone'))).toMatchObject({ seed: 78, seed_hidden: false });

    // A fork deals from its parent's seed: while the parent's tournament runs, the fork's seed is hidden too.
    const fork = await forkGame(store, 'game_dup_a', { at: { seq: 1 }, gameId: 'game_dup_fork' });
    expect((await resumePersistent(store, fork.game_id)).status).toBe('ended');
    const guarded = await seedsInPlay(store, [await store.getGame('game_dup_fork'), await store.getGame('game_alone')]);
    expect([...guarded]).toEqual(['game_dup_fork']);

    await store.tournaments.setStatus(id, 'ended');
    expect(await seedsInPlay(store, [await store.getGame('game_dup_fork')])).toEqual(new Set());
    expect(await tournamentSeedsInPlay(store, ['game_dup_a'])).toEqual(new Set());
    expect(await tournamentSeedsInPlay(store, [])).toEqual(new Set());
  });
});
