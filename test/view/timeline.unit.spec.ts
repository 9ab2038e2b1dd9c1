import { describe, expect, it } from 'vitest';
import { viewEvent, viewState, type Viewer } from '../../src/game/index.js';
import { canonicalJson, ViewTimeline } from '../../src/view/index.js';
import { playGame } from '../support/played-game.js';

const viewer: Viewer = { role: 'spectator' };
const { events, states } = playGame({ seed: 424_242, seats: 4, round_cap: 6, compact: false, driver: 11 });
const projected = events.map((e) => viewEvent(e, viewer));

function timeline(every: number, from = 0) {
  const t = new ViewTimeline({ viewer, every, base: { seq: from, view: viewState(states[from]!, viewer) } });
  for (const e of projected.slice(from)) t.append(e);
  return t;
}

describe('ViewTimeline: folded checkpoints bound the cost of a seek', () => {
  it('given a whole game appended, when seeking to every seq in random order, then each seek folds at most every − 1 events and returns viewState there', () => {
    const t = timeline(25);
    expect(t.folds).toBe(events.length);
    expect(events.length).toBeGreaterThan(100);
    const order = Array.from({ length: events.length + 1 }, (_, i) => (i * 7919) % (events.length + 1));
    for (const seq of order) {
      const before = t.folds;
      const view = t.seekTo(seq);
      expect(t.folds - before).toBeLessThanOrEqual(24);
      expect(t.folds - before).toBe(seq === t.head ? 0 : (seq % 25));
      expect(canonicalJson(view)).toBe(canonicalJson(viewState(states[seq]!, viewer)));
    }
  });

  it('given a timeline started from a mid-game snapshot, then seeks count from that snapshot and refuse seqs before it', () => {
    const t = timeline(10, 40);
    expect(t.first).toBe(40);
    const before = t.folds;
    expect(canonicalJson(t.seekTo(57))).toBe(canonicalJson(viewState(states[57]!, viewer)));
    expect(t.folds - before).toBe(7);
    expect(() => t.seekTo(39)).toThrow(RangeError);
    expect(() => t.seekTo(t.head + 1)).toThrow(RangeError);
  });

  it('given an event out of order, then append refuses it and the head stays', () => {
    const t = timeline(10, 0);
    const head = t.head;
    expect(() => t.append(projected[3]!)).toThrow(/cannot take event 4/);
    expect(t.head).toBe(head);
  });

  it('given a reset to a new snapshot, then the timeline continues from there', () => {
    const t = timeline(10, 0);
    t.reset({ seq: 30, view: viewState(states[30]!, viewer) });
    expect(t.head).toBe(30);
    t.append(projected[30]!);
    expect(canonicalJson(t.view)).toBe(canonicalJson(viewState(states[31]!, viewer)));
    expect(t.events()).toEqual([projected[30]]);
  });
});

describe('ViewTimeline for an admin (the engine state folded in place between checkpoints)', () => {
  it('given seeks anywhere, then each equals viewState there, folds at most every − 1 events, and leaves the checkpoints untouched', () => {
    const admin: Viewer = { role: 'admin' };
    const t = new ViewTimeline({ viewer: admin, every: 20, base: { seq: 1, view: structuredClone(viewState(states[1]!, admin)) } });
    for (const e of events.slice(1)) t.append(viewEvent(e, admin));
    for (const seq of [1, 2, 21, 39, 40, 41, Math.floor(events.length / 2), events.length - 1, 57, 3]) {
      const before = t.folds;
      expect(canonicalJson(t.seekTo(seq))).toBe(canonicalJson(viewState(states[seq]!, admin)));
      expect(t.folds - before).toBe(seq === t.head ? 0 : (seq - 1) % 20);
    }
  });
});
