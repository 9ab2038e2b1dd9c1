import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/protocol/index.js';
import { RecentLog, projected } from '../../../src/server/spectate/recent-log.js';

const event = (seq: number): GameEvent =>
  ({ schema_version: '1', event_id: `e${seq}`, game_id: 'g', seq, turn: 1, phase: 'talk', type: 'phase_changed', ts: '2026-01-01T00:00:00.000Z', payload: { phase: 'talk', turn: 1 }, visibility: { hidden: [] } }) as unknown as GameEvent;

describe('RecentLog: the in-memory tail of a game log', () => {
  it('given events pushed after a base, then between() returns exact ranges, and null once a range reaches below what it keeps', () => {
    const log = new RecentLog(10);
    for (let s = 11; s <= 40; s++) log.push(event(s), s * 1000);
    expect(log.head).toBe(40);
    expect(log.between(10, 13)!.map((e) => e.event.seq)).toEqual([11, 12, 13]);
    expect(log.between(38, 40)!.map((e) => e.committedAt)).toEqual([39_000, 40_000]);
    expect(log.between(40, 40)).toEqual([]);
    expect(log.between(9, 12)).toBeNull();
    expect(log.between(30, 41)).toBeNull();
    log.prune(25);
    expect(log.between(24, 26)).toBeNull();
    expect(log.between(25, 27)!.map((e) => e.event.seq)).toEqual([26, 27]);
    log.prune(100); // never past the head
    expect(log.head).toBe(40);
    expect(log.between(40, 40)).toEqual([]);
  });

  it('given long runs of pushes and prunes, then ranges stay right across compactions', () => {
    const log = new RecentLog(0);
    for (let s = 1; s <= 10_000; s++) {
      log.push(event(s), null);
      if (s % 7 === 0) log.prune(s - 50);
    }
    expect(log.between(9_990, 10_000)!.map((e) => e.event.seq)).toEqual(Array.from({ length: 10 }, (_, i) => 9_991 + i));
  });

  it('given an entry, then each view key is projected once and reused', () => {
    const log = new RecentLog(0);
    const entry = log.push(event(1), null);
    const a = projected(entry, 'spectator', { role: 'spectator' }, false);
    expect(projected(entry, 'spectator', { role: 'spectator' }, false)).toBe(a);
    expect([...entry.projections.keys()]).toEqual(['spectator']);
    projected(entry, 'researcher', { role: 'researcher' }, true);
    projected(entry, 'spectator', { role: 'spectator' }, true); // the end changes nothing for the public
    expect([...entry.projections.keys()]).toEqual(['spectator', 'researcher!']);
  });
});
