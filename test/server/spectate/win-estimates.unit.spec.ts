import { describe, expect, it } from 'vitest';
import { initialState, viewEvent, viewState, type Viewer } from '../../../src/game/index.js';
import { winCurve } from '../../../src/eval/curve.js';
import { swings } from '../../../src/eval/win-report.js';
import { RecentLog, projected } from '../../../src/server/spectate/recent-log.js';
import { WinEstimates, type EstimateSource, type WinEstimate } from '../../../src/server/spectate/win-estimates.js';
import type { Channel } from '../../../src/server/spectate/feed-types.js';
import { playGame } from '../../support/played-game.js';

const SPEC = { seed: 424_242, seats: 3, round_cap: 6, compact: true, driver: 3 };
const CONFIG = { seats: 3, rules: { round_cap: 6, windows: 'compact' as const } };
const { events } = playGame(SPEC);
const turn = () => new Promise((r) => setImmediate(r));

/** A feed's side of the estimates over an in-memory log, with the heads the test sets. */
function feed(heads: Record<Channel, number>, rooms: Array<{ channel: Channel; view: string; viewer: Viewer }>) {
  const log = new RecentLog(0);
  for (const e of events) log.push(e, null);
  const sent: Array<WinEstimate & { channel: Channel }> = [];
  let roomReads = 0;
  const source: EstimateSource = {
    gameId: events[0]!.game_id,
    closed: () => false,
    ended: () => false,
    head: (c) => heads[c],
    between: (a, b) => log.between(a, b),
    project: (entry, view, viewer) => projected(entry, view, viewer, false),
    // The trackers start at seq 0 here (the heads are 0 when first asked) and never need another.
    snapshot: (seq, _view, viewer) => (seq === 0 ? Promise.resolve({ state: viewState(initialState(CONFIG, SPEC.seed), viewer), hash: '' }) : Promise.reject(new Error(`unexpected snapshot at ${seq}`))),
    placementsAt: () => Promise.resolve(null),
    rooms: (c) => {
      roomReads++;
      return rooms.filter((r) => r.channel === c).map((r) => ({ ...r, emit: (m: WinEstimate) => sent.push({ ...m, channel: c }) }));
    },
    warn: (m) => {
      throw new Error(m);
    },
  };
  return { estimates: new WinEstimates(source), sent, roomReads: () => roomReads };
}

/** The oracle: each seat's chances after `seq` for a viewer, from the whole curve of its projected events. */
function expected(seq: number, viewer: Viewer) {
  const curve = winCurve({ seq: 0, view: viewState(initialState(CONFIG, SPEC.seed), viewer) }, events.map((e) => viewEvent(e, viewer)), viewer, false);
  return curve.points.find((p) => p.seq === seq)!;
}

describe('WinEstimates: a room’s win probability after what its channel released', () => {
  it('given steps released, then nothing is computed inside the call, one estimate per room follows on a later turn (several steps in a turn coalesce), at the channel’s head and equal to the curve of that room’s own events', async () => {
    const heads = { live: 0, delayed: 0 };
    const f = feed(heads, [
      { channel: 'live', view: 'admin', viewer: { role: 'admin' } },
      { channel: 'delayed', view: 'spectator', viewer: { role: 'spectator' } },
    ]);
    // Trackers start from the seq-0 snapshot before any step.
    f.estimates.after('live');
    f.estimates.after('delayed');
    await turn();
    await turn();
    expect(f.sent).toEqual([]);
    heads.live = 60;
    heads.delayed = 30;
    f.estimates.after('live');
    heads.live = 80;
    f.estimates.after('live');
    f.estimates.after('delayed');
    // Inside the commit: no room read, nothing sent.
    const reads = f.roomReads();
    expect(f.sent).toEqual([]);
    await turn();
    await turn();
    expect(f.roomReads()).toBeGreaterThan(reads);
    expect(f.sent.map((m) => [m.channel, m.view, m.seq, m.form])).toEqual([
      ['live', 'admin', 80, 'omniscient'],
      ['delayed', 'spectator', 30, 'public'],
    ]);
    expect(f.sent[0]!.p).toEqual(expected(80, { role: 'admin' }).p);
    expect(f.sent[1]!.p).toEqual(expected(30, { role: 'spectator' }).p);
    // Nothing new released: nothing sent again; a joiner at the head gets the room's estimate at once.
    f.estimates.after('delayed');
    await turn();
    expect(f.sent.length).toBe(2);
    const joiner: WinEstimate[] = [];
    f.estimates.joined('delayed', 'spectator', (m) => joiner.push(m));
    expect(joiner.map((m) => m.seq)).toEqual([30]);
  });

  it('given the swings of a curve, then each move of at least the threshold between consecutive points is listed, largest first', () => {
    const pts = [
      { seq: 1, round: 0, p: { a: 0.5, b: 0.5 } },
      { seq: 2, round: 1, p: { a: 0.7, b: 0.3 } },
      { seq: 5, round: 1, p: { a: 0.2, b: 0.8 } },
    ];
    expect(swings(pts, 0.2)).toEqual([
      { seq: 5, round: 1, player_id: 'a', from: 0.7, to: 0.2 },
      { seq: 5, round: 1, player_id: 'b', from: 0.3, to: 0.8 },
      { seq: 2, round: 1, player_id: 'a', from: 0.5, to: 0.7 },
      { seq: 2, round: 1, player_id: 'b', from: 0.5, to: 0.3 },
    ]);
    expect(swings(pts, 0.6)).toEqual([]);
  });
});
