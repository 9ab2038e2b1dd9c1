import { describe, expect, it } from 'vitest';
import { awaiting, initialState, requestFor, stepInPlace, viewEvent, type Viewer } from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';
import { narrate } from '../../src/view/index.js';
import { legalDecision, rand } from '../support/drivers.js';

/** A short game where Ada (plr_1) never answers — a person whose clock runs out — and the others answer legally. */
function silentAda(): GameEvent[] {
  const state = initialState({ seats: [{ display_name: 'Ada' }, { display_name: 'Bo' }, { display_name: 'Cy' }], rules: { round_cap: 2, windows: 'full' } }, 4040);
  const r = rand(3);
  const started = stepInPlace(state, { type: 'start' });
  if (!started.ok) throw new Error(started.rejection.code);
  const events = [...started.events];
  for (let next = awaiting(state); next; next = awaiting(state)) {
    const seat = next.seats[0]!;
    const decision = seat === 'plr_1' ? undefined : legalDecision(requestFor(state, seat), r);
    const step = stepInPlace(state, { type: 'decision', player_id: seat, window: next.window, decision });
    if (!step.ok) throw new Error(step.rejection.code);
    events.push(...step.events);
  }
  return events;
}

const events = silentAda();
const as = (v: Viewer) => events.map((e) => viewEvent(e, v));
const texts = (v: Viewer, humans?: string[]) => narrate(as(v), humans ? { humans } : {}).lines.map((l) => [l.text, ...l.details].join('\n'));

describe('narrate: a person whose clock ran out (issue 40)', () => {
  it('tells the seat itself and admins "Ada took too long", asked again or the default taken, instead of the zod issue', () => {
    for (const v of [{ role: 'admin' }, { role: 'seat', player_id: 'plr_1' }] as Viewer[]) {
      const told = texts(v, ['plr_1']);
      expect(told.filter((t) => t.includes('Ada took too long')).length, v.role).toBeGreaterThan(2);
      expect(told.some((t) => /Ada took too long to answer \(action\); asked again\./.test(t))).toBe(true);
      expect(told.some((t) => /Ada took too long to answer \(action\); the default was taken\./.test(t))).toBe(true);
      expect(told.some((t) => /Ada secretly plans .*\(Ada took too long; the default was taken\)/.test(t))).toBe(true);
      expect(told.join('\n')).not.toMatch(/Ada.*received undefined/);
    }
  });

  it('tells the others nothing they could not see (the reason is hidden from them), and non-human seats as before', () => {
    for (const v of [{ role: 'spectator' }, { role: 'seat', player_id: 'plr_2' }] as Viewer[]) expect(texts(v, ['plr_1']).join('\n')).not.toContain('took too long');
    // Without the seat marked as a person, a missing answer is the engine's rejection, as for any agent.
    expect(texts({ role: 'admin' }).join('\n')).not.toContain('took too long');
    expect(texts({ role: 'admin' }).join('\n')).toContain('received undefined');
  });
});
