import { describe, expect, it } from 'vitest';
import { viewState } from '../../src/game/index.js';
import { alignMinds } from '../../src/view/minds.js';
import { playGame } from '../support/played-game.js';

const NAMES = ['ada', 'bo', 'cy', 'di'];
const { states } = playGame({ seed: 31_337, seats: 4, round_cap: 8, compact: false, driver: 5, names: NAMES });
const names = new Map(NAMES.map((n, i) => [`plr_${i + 1}`, n]));
const minds = (seq: number, seat: string) => alignMinds(viewState(states[seq]!, { role: 'seat', player_id: seat }, true), viewState(states[seq]!, { role: 'admin' }, true), seat, names, seq);
const along = states.flatMap((_, seq) => (seq === 0 ? [] : ['plr_1', 'plr_2', 'plr_3', 'plr_4'].map((seat) => ({ seq, seat, m: minds(seq, seat) }))));

describe('alignMinds', () => {
  it('given every seat at every seq, then each other seat still in has its feeling row, read against its strongest real emotion', () => {
    for (const { seq, seat, m } of along) {
      const truth = states[seq]!;
      const others = truth.players.filter((p) => p.player_id !== seat && p.alive);
      expect(m.rows.filter((r) => r.topic === 'feeling').map((r) => r.about)).toEqual(others.map((p) => names.get(p.player_id)));
      for (const r of m.rows.filter((x) => x.topic === 'feeling')) {
        const tellRead = /looks (\w+)$/.exec(r.believed)?.[1];
        const real = /feels most (\w+)/.exec(r.truth)?.[1];
        if (r.status === 'unknown') expect(tellRead).toBeUndefined();
        else expect(r.status === 'same').toBe(tellRead === real);
      }
    }
  });

  it('given a whole game, then the aligned rows mark differences (plans since replaced) and agreements, and `differ` counts the marks', () => {
    const statuses = new Set(along.flatMap(({ m }) => m.rows.map((r) => `${r.topic}:${r.status}`)));
    expect([...statuses]).toEqual(expect.arrayContaining(['feeling:same', 'feeling:unknown', 'plan:unknown', 'plan:differs']));
    for (const { m } of along) expect(m.differ).toBe(m.rows.filter((r) => r.status === 'differs').length);
  });

  it('given display names, then every row speaks of seats by name, never by id (a plan’s framing is the agent’s own text)', () => {
    const bad = along.flatMap(({ m }) => m.rows).map((r) => `${r.about} | ${r.believed} | ${r.truth}`.replace(/\(framed as “[^”]*”\)/g, '')).filter((t) => /plr_\d/.test(t));
    expect(bad.slice(0, 3)).toEqual([]);
  });

  it('given a plan the seat was never shown, then its side says it is secret and holds none of the plan', () => {
    const row = along.flatMap(({ m }) => m.rows).find((r) => r.topic === 'plan' && r.status === 'unknown')!;
    expect(row.believed).toMatch(/secret/);
    expect(row.truth).toMatch(/plans to/);
    expect(row.believed).not.toContain(row.truth.split('plans to ')[1]!);
  });
});
