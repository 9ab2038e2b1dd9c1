import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { viewEvent, viewState, type Viewer } from '../../src/game/index.js';
import { winCurve } from '../../src/eval/curve.js';
import { WinTrack, type WinPoint } from '../../src/eval/win-track.js';
import { biggestSwings } from '../../src/eval/swings.js';
import { chanceLeader, chanceList, chanceWords, pct, wonWords } from '../../src/eval/chance-words.js';
import { ViewTimeline } from '../../src/view/index.js';
import { playGame } from '../support/played-game.js';

const NAMES = ['Ada', 'Bo', 'Cy', 'Di'];
const seat = (id: string) => NAMES[Number(id.slice(4)) - 1] ?? 'a seat';
const SPECTATOR: Viewer = { role: 'spectator' };

/** A game as the spectator sees it, folded in a ViewTimeline, with the track fed by its folds. */
function watched(seed: number, viewer: Viewer = SPECTATOR) {
  const g = playGame({ seed, seats: 4, round_cap: 10, compact: false, driver: seed, names: NAMES });
  const events = g.events.map((e) => viewEvent(e, viewer, true)).filter((e) => e !== null);
  const base = { seq: 0, view: viewState(g.states[0]!, viewer, true) };
  const t = new ViewTimeline({ viewer, gameOver: true, base });
  const track = new WinTrack(viewer, true, 0);
  for (const e of events) track.push(e, t.append(e));
  return { events, base, track };
}

/** A curve from chances given outright: point i at seq i + 1. */
const curve = (ps: (Record<string, number> | null)[]): WinPoint[] => ps.map((p, i) => ({ seq: i + 1, round: 1, p }));
const hit = (seq: number) => ({ turn: 3, type: 'action_resolved', payload: { actor_player_id: 'plr_1', card: { name: 'Strip' }, target_player_ids: ['plr_2'] }, seq });

describe('win probability on the game page: the track, the swings, the words', () => {
  it('given a game folded once, then the track fed by those folds equals winCurve over the same events, for a spectator and an admin', () => {
    for (const viewer of [SPECTATOR, { role: 'admin' } as Viewer]) {
      const { events, base, track } = watched(880_101, viewer);
      const want = winCurve(base, events, viewer, true).points;
      const got = track.points.filter((p) => p.p !== null);
      expect(got).toEqual(want);
      expect(track.form).toBe(viewer.role === 'admin' ? 'omniscient' : 'public');
      // The winner's 1 at the end, and the point at a seq is found by seq.
      const last = track.points.at(-1)!;
      expect(Math.max(...Object.values(last.p!))).toBe(1);
      expect(track.at(last.seq)).toBe(last);
    }
  });

  it('given a refold from a seq, then pushing that seq again replaces the points after it and forgets a later end', () => {
    const { events, base } = watched(880_102);
    const t = new ViewTimeline({ viewer: SPECTATOR, gameOver: true, base });
    const track = new WinTrack(SPECTATOR, true, 0);
    for (const e of events) track.push(e, t.append(e));
    const whole = [...track.points];
    const k = Math.floor(events.length / 2);
    track.push(events[k - 1]!, t.seekTo(k));
    expect(track.points).toHaveLength(k);
    for (const e of events.slice(k)) track.push(e, t.seekTo(e.seq));
    expect(track.points).toEqual(whole);
    expect(() => track.push(events[k + 5]!, t.seekTo(k + 6))).not.toThrow();
    expect(() => track.push(events.at(-1)!, t.view)).toThrow(RangeError);
  });

  it('names the biggest swings, largest first chosen, in seq order, titled with their cause and the seat’s before and after', () => {
    const points = curve([null, { plr_1: 0.5, plr_2: 0.5 }, { plr_1: 0.6, plr_2: 0.4 }, { plr_1: 0.88, plr_2: 0.12 }, { plr_1: 0.86, plr_2: 0.14 }, { plr_1: 0.5, plr_2: 0.5 }]);
    const events = new Map([[4, hit(4)]]);
    const swings = biggestSwings(points, (s) => events.get(s) ?? { turn: 3, type: 'life_lost', payload: { player_id: 'plr_1' } }, seat, { n: 2 });
    expect(swings.map((s) => s.seq)).toEqual([4, 6]);
    expect(swings[0]).toEqual({ seq: 4, player_id: 'plr_1', from: 0.6, to: 0.88, title: "Ada's Strip hits Bo: Ada 60 % → 88 %" });
    expect(swings[1]!.title).toBe('Ada loses a life: Ada 86 % → 50 %');
    // Under the floor nothing is a moment; the game's end is the result, not a swing.
    expect(biggestSwings(curve([{ plr_1: 0.5, plr_2: 0.5 }, { plr_1: 0.53, plr_2: 0.47 }]), () => undefined, seat)).toEqual([]);
    expect(biggestSwings(curve([{ plr_1: 0.5, plr_2: 0.5 }, { plr_1: 1, plr_2: 0 }]), () => ({ turn: 9, type: 'game_ended', payload: {} }), seat)).toEqual([]);
  });

  it('property: over played games, swings are at most n, each ≥ the floor and as large as any left out, in seq order, in words without ids or seqs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 8 }), (seed, n) => {
        const { events, track } = watched(seed);
        const bySeq = new Map(events.map((e) => [e.seq, e]));
        const swings = biggestSwings(track.points, (s) => bySeq.get(s), seat, { n });
        expect(swings.length).toBeLessThanOrEqual(n);
        const size = (s: { from: number; to: number }) => Math.abs(s.to - s.from);
        for (const [i, s] of swings.entries()) {
          expect(size(s)).toBeGreaterThanOrEqual(0.05);
          if (i > 0) expect(s.seq).toBeGreaterThan(swings[i - 1]!.seq);
          expect(bySeq.get(s.seq)!.type).not.toBe('game_ended');
          expect(s.title).not.toMatch(/plr_\d|\b[a-z]+_[a-z_]+\b|\bseq\b/);
          expect(s.title).toContain(`${seat(s.player_id)} ${pct(s.from)} → ${pct(s.to)}`);
          const at = track.at(s.seq)!.p!;
          expect(at[s.player_id]).toBe(s.to);
        }
        // Every move left out is no larger than the smallest kept (when n were kept).
        if (swings.length === n) {
          const smallest = Math.min(...swings.map(size));
          const kept = new Set(swings.map((s) => s.seq));
          let prev: Record<string, number> | null = null;
          for (const pt of track.points) {
            if (prev && pt.p && !kept.has(pt.seq) && bySeq.get(pt.seq)!.type !== 'game_ended') for (const [id, x] of Object.entries(pt.p)) expect(Math.abs(x - (prev[id] ?? 0))).toBeLessThanOrEqual(smallest);
            prev = pt.p ?? prev;
          }
        }
      }),
      { numRuns: 12 },
    );
  });

  it('says who is ahead and by how much, a tie as level, and lists every seat', () => {
    expect(pct(0.613)).toBe('61 %');
    expect(pct(0.003)).toBe('<1 %');
    expect(pct(0.999)).toBe('>99 %');
    expect(pct(0)).toBe('0 %');
    expect(pct(1)).toBe('100 %');
    const p = { plr_1: 0.22, plr_2: 0.61, plr_3: 0.17 };
    expect(chanceWords(p, seat)).toBe('Bo is ahead: 61 % to win, Ada next at 22 %');
    expect(chanceList(p, seat)).toBe('Bo 61 %, Ada 22 %, Cy 17 %');
    expect(chanceLeader(p)).toEqual({ player_id: 'plr_2', p: 0.61 });
    expect(chanceWords({ plr_1: 0.401, plr_2: 0.398, plr_3: 0.201 }, seat)).toBe('Ada and Bo are level at 40 % each');
    expect(chanceLeader({ plr_1: 0.401, plr_2: 0.398 })).toBeNull();
    expect(chanceWords({ plr_1: 1, plr_2: 0 }, seat)).toBe('Ada is ahead: 100 % to win');
    expect(wonWords({ plr_1: 1, plr_2: 0 }, seat)).toBe('Ada won');
    expect(wonWords({ plr_1: 0.5, plr_2: 0.5, plr_3: 0 }, seat)).toMatch(/^\S+ and \S+ share the win$/);
  });
});
