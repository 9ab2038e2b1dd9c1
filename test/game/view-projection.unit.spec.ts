import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { viewEvent, viewState, type Viewer } from '../../src/game/index.js';
import { playGame } from '../support/played-game.js';

/** What projected events carry so that a view can be folded from them (see src/view/fold-view.ts). */
const { events, states } = playGame({ seed: 5_150_001, seats: 4, round_cap: 6, compact: false, driver: 9 });
const seat = (id: string): Viewer => ({ role: 'seat', player_id: id });
const ofType = <T extends GameEvent['type']>(t: T) => events.filter((e): e is Extract<GameEvent, { type: T }> => e.type === t);
const spectator: Viewer = { role: 'spectator' };

describe('projected events carry what views need, and nothing hidden', () => {
  it('given an event that changed a tell, then it lists exactly the tells that changed, for everyone', () => {
    let changes = 0;
    for (const e of events.filter((x) => x.seq > 1)) {
      const before = viewState(states[e.seq - 1]!, spectator).world.players;
      const after = viewState(states[e.seq]!, spectator).world.players;
      const changed = Object.fromEntries(after.filter((p, i) => JSON.stringify(p.tell) !== JSON.stringify(before[i]!.tell)).map((p) => [p.player_id, p.tell]));
      expect(e.tells ?? {}, `${e.type}#${e.seq}`).toEqual(changed);
      expect(viewEvent(e, spectator).tells).toEqual(e.tells);
      changes += Object.keys(changed).length;
    }
    expect(changes).toBeGreaterThan(0);
  });

  it('given drawn cards, then only the drawer’s projection names them', () => {
    const draw = ofType('cards_drawn').find((e) => e.payload.player_id === 'plr_2' && e.seq > 10)!;
    const mine = viewEvent(draw, seat('plr_2'));
    expect(mine.type === 'cards_drawn' && mine.payload.card_refs?.map((c) => c.card_id)).toEqual(draw.payload.cards);
    for (const v of [seat('plr_1'), spectator, { role: 'researcher' } as Viewer]) {
      const other = viewEvent(draw, v);
      expect(other.type === 'cards_drawn' && other.payload.card_refs).toBeUndefined();
      expect(other.redacted).toContain('card_refs');
    }
  });

  it('given a resolution that moved trust, then each seat gets its own row only (as `own`), spectators none', () => {
    const moved = ofType('action_resolved').find((e) => Object.keys(e.payload.affective_effect?.trust_delta ?? {}).length > 0)!;
    expect(moved).toBeDefined();
    const rows = moved.payload.affective_effect!.trust_delta;
    for (const id of ['plr_1', 'plr_2', 'plr_3', 'plr_4']) {
      const p = viewEvent(moved, seat(id));
      expect(p.payload).not.toHaveProperty('affective_effect');
      const row = rows[id];
      if (row && Object.keys(row).length) expect(p.own).toMatchObject({ player_id: id, trust_delta: row });
      else expect(p.own?.trust_delta).toBeUndefined();
    }
    expect(viewEvent(moved, spectator).own).toBeUndefined();
    expect(viewEvent(moved, { role: 'admin' }).own).toBeUndefined();
  });

  it('given settlements, then a seat’s `own` lists only its own commitments', () => {
    const settled = ofType('ledger_settled').filter((e) => (e.payload.settlements ?? []).length > 0);
    expect(settled.length).toBeGreaterThan(0);
    for (const e of settled) {
      for (const id of ['plr_1', 'plr_2', 'plr_3', 'plr_4']) {
        const mine = e.payload.settlements!.filter((s) => s.speaker_player_id === id);
        expect(viewEvent(e, seat(id)).own?.settlements ?? []).toEqual(mine);
      }
    }
  });

  it('given public card moves, then `faces` names exactly the cards that land face up in public and `slots` says where moved arena cards lay', () => {
    let faces = 0;
    let slots = 0;
    for (const e of events) {
      for (const f of e.faces ?? []) {
        const s = states[e.seq]!;
        const face_up = s.discard.includes(f.card_id) || s.arena.some((a) => a.card_id === f.card_id && !a.face_down);
        expect(face_up, `${f.card_id} in ${e.type}#${e.seq}`).toBe(true);
        expect(f.name).toBe(s.cards[f.card_id]);
        faces++;
      }
      for (const x of e.slots ?? []) {
        // Its index before the event, less the cards this event moved out before it.
        const arena = states[e.seq - 1]!.arena.map((a) => a.card_id);
        const earlier = (e.slots ?? []).slice(0, (e.slots ?? []).indexOf(x)).filter((o) => arena.indexOf(o.card_id) < arena.indexOf(x.card_id) && !(states[e.seq]!.arena.some((a) => a.card_id === o.card_id)));
        expect(x.slot).toBe(arena.indexOf(x.card_id) - earlier.length);
        slots++;
      }
    }
    expect(faces).toBeGreaterThan(5);
    expect(slots).toBeGreaterThan(0);
  });
});
