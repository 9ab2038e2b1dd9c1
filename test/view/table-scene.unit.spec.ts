import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { viewEvent, viewState, type Viewer } from '../../src/game/index.js';
import { CATALOG } from '../../src/game/cards.js';
import { CARD_TEXT_NAMES, cardLine } from '../../src/game/card-text.js';
import { cardFace, seatPoint, tableScene, METER_EMOTIONS } from '../../src/view/index.js';
import { playGame } from '../support/played-game.js';

const { events, states } = playGame({ seed: 777_001, seats: 4, round_cap: 6, compact: false, driver: 5 });
const spectator: Viewer = { role: 'spectator' };
const admin: Viewer = { role: 'admin' };
/** The scene a viewer's page draws after `seq`: the view there and the projected events up to it. */
const sceneAt = (v: Viewer, seq: number) => tableScene(viewState(states[seq]!, v), events.slice(0, seq).map((e) => viewEvent(e, v)));
const ofType = <T extends GameEvent['type']>(t: T) => events.filter((e): e is Extract<GameEvent, { type: T }> => e.type === t);

describe('card text', () => {
  it('has a line for every catalog card, led by the catalog’s own cost and damage', () => {
    expect(CARD_TEXT_NAMES).toHaveLength(CATALOG.length);
    for (const def of CATALOG) {
      const line = cardLine(def.name)!;
      expect(line).toMatch(new RegExp(`^tempo ${def.tempo}`));
      if (def.damage) expect(line).toContain(`${def.damage} damage`);
    }
    expect(cardLine('No Such Card')).toBeNull();
  });

  it('draws the projection’s face-down placeholder as a back, with a text alternative', () => {
    const back = cardFace({ card_id: 'card_hidden', name: 'Face-down card', type: 'trap', tags: ['face_down'] }, 2);
    expect(back).toMatchObject({ back: true, name: '', line: null, label: 'face-down card' });
    const feint = cardFace({ card_id: 'card_001', name: 'Feint', type: 'gambit', tags: [] }, 0);
    expect(feint.label).toBe(`Feint, gambit: ${cardLine('Feint')}`);
  });
});

describe('seatPoint', () => {
  it('puts the first seat on top and goes clockwise', () => {
    expect(seatPoint(0, 4)).toEqual({ x: 50, y: 14 });
    expect(seatPoint(1, 4)).toEqual({ x: 85, y: 50 });
    expect(seatPoint(2, 4)).toEqual({ x: 50, y: 86 });
  });
});

describe('tableScene', () => {
  const mid = Math.floor(events.length / 2);

  it('shows an admin every hand as faces and every seat’s emotions as meters', () => {
    const scene = sceneAt(admin, mid);
    const truth = states[mid]!;
    for (const s of scene.seats) {
      const p = truth.players.find((x) => x.player_id === s.player_id)!;
      expect(s.hand_held).toBe(true);
      expect(s.hand.map((c) => c.name)).toEqual(p.hand.map((id) => truth.cards[id]));
      expect(s.hand.every((c) => !c.back && c.line)).toBe(true);
      expect(s.meters_from).toBe('private');
      expect(s.meters).toEqual(METER_EMOTIONS.map((emotion) => ({ emotion, value: p.emotions[emotion] })));
    }
  });

  it('shows a spectator backs for hands and face-down cards, and tells unless a tell shows the vector', () => {
    for (let seq = 1; seq <= events.length; seq += 7) {
      const scene = sceneAt(spectator, seq);
      const truth = states[seq]!;
      for (const s of scene.seats) {
        const p = truth.players.find((x) => x.player_id === s.player_id)!;
        expect(s.hand_held).toBe(false);
        expect(s.hand).toHaveLength(p.hand.length);
        expect(s.hand.every((c) => c.back && c.name === '')).toBe(true);
        const faceDown = truth.arena.filter((a) => a.owner === p.player_id && a.face_down).length;
        expect(s.arena.filter((c) => c.back)).toHaveLength(faceDown);
        if (s.meters) expect(s.meters_from).toBe('tell');
        else expect(s.tell).toMatch(/^tell/);
      }
    }
  });

  it('draws an attack as an arrow while it is on the stack, its plan where the view holds it, and its outcome once resolved', () => {
    const resolved = ofType('action_resolved').find((e) => e.payload.attack_plan && e.payload.manipulation_outcome)!;
    const submitted = ofType('action_submitted').find((e) => e.payload.action_id === resolved.payload.action_id)!;
    const pending = sceneAt(spectator, submitted.seq).arrows.find((a) => a.action_id === submitted.payload.action_id)!;
    expect(pending).toMatchObject({ from: submitted.payload.player_id, to: submitted.payload.target_player_id, outcome: 'pending', plan: null });
    expect(pending.card?.name).toBe(submitted.payload.card?.name);
    const adminPending = sceneAt(admin, submitted.seq).arrows.find((a) => a.action_id === submitted.payload.action_id)!;
    expect(adminPending.plan?.manipulation_plan).toBe(submitted.payload.attack_plan!.manipulation_plan);

    const done = sceneAt(spectator, resolved.seq).arrows.find((a) => a.action_id === resolved.payload.action_id)!;
    expect(done.outcome).toBe(resolved.payload.manipulation_outcome);
    expect(done.plan?.manipulation_plan).toBe(resolved.payload.attack_plan!.manipulation_plan);
    // Gone once the table moves on to another action or phase.
    const next = events.find((e) => e.seq > resolved.seq && (e.type === 'phase_changed' || e.type === 'action_submitted'))!;
    expect(sceneAt(spectator, next.seq).arrows.some((a) => a.action_id === resolved.payload.action_id)).toBe(false);
  });

  it('puts public speech at its speaker and private lines as notes at the listener, sealed unless the view may read them', () => {
    const whisper = ofType('speech_posted').find((e) => e.payload.channel === 'private' && e.payload.target_player_id)!;
    const pub = ofType('speech_posted').find((e) => e.payload.channel === 'public')!;
    const noteFor = (v: Viewer) => sceneAt(v, whisper.seq).bubbles.find((b) => b.seq === whisper.seq)!;
    expect(noteFor(spectator)).toEqual({ seq: whisper.seq, speaker: whisper.payload.player_id, at: whisper.payload.target_player_id, private: true, text: null });
    expect(noteFor(admin).text).toBe(whisper.payload.text);
    expect(noteFor({ role: 'seat', player_id: whisper.payload.target_player_id! }).text).toBe(whisper.payload.text);
    expect(sceneAt(spectator, pub.seq).bubbles.find((b) => b.seq === pub.seq)).toMatchObject({ at: pub.payload.player_id, private: false, text: pub.payload.text });
    // Last round's talk is not drawn.
    const later = ofType('phase_changed').find((e) => e.turn > whisper.turn)!;
    expect(sceneAt(spectator, later.seq).bubbles.some((b) => b.seq === whisper.seq)).toBe(false);
  });

  it('draws trust and grievance lines only from emotions the view holds', () => {
    const last = events.length;
    expect(sceneAt(spectator, last).links).toEqual([]);
    const seat: Viewer = { role: 'seat', player_id: 'plr_1' };
    expect(sceneAt(seat, last).links.every((l) => l.from === 'plr_1')).toBe(true);
    const links = sceneAt(admin, last).links;
    for (const l of links) {
      const p = states[last]!.players.find((x) => x.player_id === l.from)!;
      expect(l.value).toBe(l.kind === 'trust' ? p.trust[l.to] : p.grievance[l.to]);
      expect(Math.abs(l.value)).toBeGreaterThanOrEqual(0.1);
    }
  });
});
