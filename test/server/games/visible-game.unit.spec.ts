import { describe, expect, it } from 'vitest';
import { CommitLog } from '../../../src/live/commit-log.js';
import { gameView } from '../../../src/server/games/game-view.js';
import { recordAt, storeStatuses } from '../../../src/server/games/visible-game.js';
import type { GameRecord } from '../../../src/store/index.js';

const ended: GameRecord = {
  game_id: 'game_0123456789ab',
  seed: 734_002_113,
  config: {},
  rules_version: '1.0.0',
  status: 'ended',
  seats: [],
  last_seq: 300,
  last_hash: 'f'.repeat(64),
  placements: [],
  options: { spectator_delay_ms: 2_000 },
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:05:00.000Z',
  ended_at: '2026-11-23T10:05:00.000Z',
  run_failures: 0,
  failure_reason: null,
  attempt: 0,
};

describe('CommitLog: true commit times of a delayed game’s recent steps', () => {
  it('given steps of a retained game, then firstAfter names the first step committed after the cutoff', () => {
    const log = new CommitLog(100);
    log.retain('g', 1_000);
    log.record('g', 1, 10_000);
    log.record('g', 4, 10_500);
    log.record('g', 9, 11_000);
    expect(log.firstAfter('g', 9_999)).toBe(1);
    expect(log.firstAfter('g', 10_000)).toBe(4);
    expect(log.firstAfter('g', 10_999)).toBe(9);
    expect(log.firstAfter('g', 11_000)).toBeNull();
  });

  it('given a game nobody retained (no delay), then nothing is kept', () => {
    const log = new CommitLog();
    log.retain('g', 0);
    log.record('g', 1, 10_000);
    expect(log.firstAfter('g', 0)).toBeNull();
  });

  it('given time passing, then steps older than the delay plus the margin are dropped, and a released game is forgotten only once its last step is', () => {
    const log = new CommitLog(100);
    log.retain('g', 1_000);
    log.retain('h', 1_000);
    log.record('g', 1, 10_000);
    log.record('g', 2, 11_200); // 1 is 1,200 ms old: past 1,000 + 100
    expect(log.firstAfter('g', 0)).toBe(2);
    log.release('g');
    log.record('h', 1, 11_500); // g's last step is 300 ms old: still needed
    expect(log.firstAfter('g', 0)).toBe(2);
    log.record('h', 2, 12_400);
    expect(log.firstAfter('g', 0)).toBeNull();
    expect(log.firstAfter('h', 0)).toBe(1);
  });
});

describe('recordAt: a game’s record as a delayed spectator may know it', () => {
  it('given a head before the end, then the end, placements and the seed are not there yet, and updated_at is the head’s ts', () => {
    const r = recordAt(ended, 120, '2026-11-23T10:02:00.000Z');
    expect(r).toMatchObject({ last_seq: 120, status: 'running', placements: null, ended_at: null, updated_at: '2026-11-23T10:02:00.000Z' });
    expect(gameView(r, 'spectator')).toMatchObject({ seed: null, seed_hidden: true, last_hash: null });
  });

  it('given a logical-clock ts (outside the game’s lifetime) or head 0, then updated_at falls back to created_at', () => {
    expect(recordAt(ended, 120, '2026-01-01T00:00:00.120Z').updated_at).toBe(ended.created_at);
    expect(recordAt(ended, 0, null).updated_at).toBe(ended.created_at);
  });

  it('given the head at the end, then the record as stored', () => {
    expect(recordAt(ended, 300, null)).toBe(ended);
  });
});

describe('gameView: the hash chain is for whom may see everything', () => {
  it('given each role, then last_hash for admins always, for researchers once the game is over, never for spectators', () => {
    const running = { ...ended, status: 'running' as const };
    expect(gameView(running, 'admin').last_hash).toBe(ended.last_hash);
    expect(gameView(running, 'researcher').last_hash).toBeNull();
    expect(gameView(ended, 'researcher').last_hash).toBe(ended.last_hash);
    expect(gameView(running, 'spectator').last_hash).toBeNull();
    expect(gameView(ended, 'spectator').last_hash).toBeNull();
  });
});

describe('storeStatuses: what to ask the store for, before filtering on what the caller sees', () => {
  it('given a spectator asking for running games, then ended ones too (they may still run for it); otherwise what was asked', () => {
    expect(storeStatuses(['running'], 'spectator')).toEqual(['running', 'ended']);
    expect(storeStatuses(['ended'], 'spectator')).toEqual(['ended']);
    expect(storeStatuses(['running'], 'admin')).toEqual(['running']);
    expect(storeStatuses(undefined, 'spectator')).toBeUndefined();
  });
});
