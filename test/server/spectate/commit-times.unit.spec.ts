import { describe, expect, it } from 'vitest';
import { COMMIT_MARGIN_MS, estimatedCommit } from '../../../src/server/spectate/commit-times.js';

const at = (iso: string) => Date.parse(iso);
const game = { created_at: '2026-11-22T10:00:00.000Z', updated_at: '2026-11-22T10:05:00.000Z', ended_at: null };

describe('estimatedCommit: when a step the feed never saw committed, erring late', () => {
  it('given a wall-clock ts inside the game’s lifetime, then its ts plus the margin', () => {
    expect(estimatedCommit(game, { ts: '2026-11-22T10:02:00.000Z' }, at('2026-11-22T11:00:00.000Z'))).toBe(at('2026-11-22T10:02:00.000Z') + COMMIT_MARGIN_MS);
  });

  it('given a ts near the last append, then never later than the last append plus the margin, nor later than now', () => {
    const lastTs = '2026-11-22T10:04:59.900Z';
    expect(estimatedCommit(game, { ts: lastTs }, at('2026-11-22T11:00:00.000Z'))).toBe(at(lastTs) + COMMIT_MARGIN_MS);
    expect(at(lastTs) + COMMIT_MARGIN_MS).toBeLessThanOrEqual(at(game.updated_at) + COMMIT_MARGIN_MS);
    const now = at(game.updated_at) + 10;
    expect(estimatedCommit(game, { ts: '2026-11-22T10:04:59.900Z' }, now)).toBe(now);
  });

  it('given a logical-clock ts (outside the game’s lifetime), then the last append, since the ts says nothing', () => {
    expect(estimatedCommit(game, { ts: '2026-01-01T00:00:00.005Z' }, at('2026-11-22T11:00:00.000Z'))).toBe(at(game.updated_at) + COMMIT_MARGIN_MS);
    const ended = { ...game, ended_at: '2026-11-22T10:06:00.000Z' };
    expect(estimatedCommit(ended, { ts: 'not a time' }, at('2026-11-22T11:00:00.000Z'))).toBe(at(ended.ended_at) + COMMIT_MARGIN_MS);
  });
});
