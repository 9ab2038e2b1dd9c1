import { describe, expect, it } from 'vitest';
import type { TournamentGameRecord, TournamentRecord } from '../../src/store/index.js';
import { tournamentSummary, tournamentView } from '../../src/server/tournaments/tournament-view.js';

const record = (status: TournamentRecord['status']): TournamentRecord => ({
  tournament_id: 'trn_0123456789ab',
  name: 'x',
  seed: 4242,
  config: { format: 'round-robin', entrants: ['random', 'balanced'], seats: 2, seed: 4242 },
  status,
  batch: [{ key: 'k0', seed: 4242 }],
  options: { pace_ms: 0, spectator_delay_ms: 0, demo: false },
  progress: { games: 2, ended: 1, failed: 0, pending: 1 },
  created_at: '2026-11-23T00:00:00.000Z',
  updated_at: '2026-11-23T00:00:00.000Z',
  ended_at: null,
});

const game = (key: string, status: string, placements: TournamentGameRecord['placements']): TournamentGameRecord => ({
  game_id: `game_${key}`,
  key,
  round: 0,
  table: 0,
  seats: ['random', 'balanced'],
  status,
  state: status === 'ended' ? 'ended' : 'pending',
  placements,
  error: null,
});
const placed = (p1: number, p2: number) =>
  [
    { player_id: 'plr_1', placement: p1 },
    { player_id: 'plr_2', placement: p2 },
  ] as TournamentGameRecord['placements'];

describe('what a caller sees of a tournament', () => {
  it('given a running tournament, then only admins see its seed; once over, everyone does; nobody ever sees the batch', () => {
    for (const role of ['spectator', 'researcher'] as const) {
      expect(tournamentSummary(record('running'), role)).toMatchObject({ config: { seed: null }, seed_hidden: true });
      expect(tournamentSummary(record('created'), role)).toMatchObject({ config: { seed: null }, seed_hidden: true });
      expect(tournamentSummary(record('ended'), role)).toMatchObject({ config: { seed: 4242 }, seed_hidden: false });
      expect(tournamentSummary(record('aborted'), role)).toMatchObject({ config: { seed: 4242 }, seed_hidden: false });
    }
    expect(tournamentSummary(record('running'), 'admin')).toMatchObject({ config: { seed: 4242 }, seed_hidden: false });
    expect(JSON.stringify(tournamentView(record('running'), [], [], 'admin'))).not.toContain('batch');
  });

  it('given a tournament its cost cap stopped, then its unfinished games count as stopped, beside the planned total', () => {
    const games = [game('k0', 'ended', placed(2, 1)), game('k1', 'running', null)];
    expect(tournamentView(record('stopped_by_budget'), games, [], 'spectator').progress).toEqual({ played: 1, scheduled: 2, running: 1, failed: 0, planned: 4, stopped: 1 });
  });

  it('given games in every state, then progress counts them, placements show per seat for ended games only, and each links to its game', () => {
    const games = [game('k0', 'ended', placed(2, 1)), game('k1', 'running', null), game('k2', 'created', null)];
    const v = tournamentView(record('running'), games, [], 'spectator');
    // Planned from the config (one pair, two deals, both rotations); none stopped while it runs.
    expect(v.progress).toEqual({ played: 1, scheduled: 3, running: 1, failed: 0, planned: 4, stopped: 0 });
    expect(v.games.map((g) => [g.link, g.placements])).toEqual([
      ['/games/game_k0', [2, 1]],
      ['/games/game_k1', null],
      ['/games/game_k2', null],
    ]);
  });
});
