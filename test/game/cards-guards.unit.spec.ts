import { describe, expect, it } from 'vitest';
import { requestFor } from '../../src/game/index.js';
import {
  act, atAction, attack, finishActions, giveCard, nextRound, okEvents, onlyEvent, placeArena, play, resolutionOf, seat, setHand, setSeat,
  submittedId,
} from '../support/scenario.js';

/** Given plr_2 holds `guard`; when plr_1 attacks it with `name` and plr_2 reacts with the guard: the resolution. */
function guarded(guard: string | null, name: string, opts: { targetTempo?: number; exposure?: number } = {}) {
  const state = atAction();
  setSeat(state, 'plr_1', { tempo: 1 });
  setSeat(state, 'plr_2', { tempo: opts.targetTempo ?? 1, exposure: opts.exposure ?? 0 });
  const [g] = setHand(state, 'plr_2', guard ? [guard] : []);
  const card = giveCard(state, 'plr_1', name);
  const id = submittedId(act(state, 'plr_1', attack(card, 'plr_2', { kinetic_intent: name === 'Feint' ? 'forced_line' : 'lockout' })));
  if (g) okEvents(act(state, 'plr_2', { card_id: g }, 'reaction'));
  return { state, guard: g, r: resolutionOf(finishActions(state), id) };
}

describe('Brace: 0 tempo reaction, prevent 3 damage, resistance +0.15 vs that attack', () => {
  it('given an Overreach (4) braced, then 1 damage lands and the Brace is discarded', () => {
    const { state, guard, r } = guarded('Brace', 'Overreach');
    expect(r.payload.tactical_effect.resolve_delta).toEqual({ plr_2: -1 });
    expect(r.payload.tactical_effect.card_moves).toContainEqual({ card_id: guard, from: 'stack', to: 'discard', reason: 'reaction' });
    expect(state.discard).toContain(guard);
    expect(seat(state, 'plr_2').tempo).toBe(1);
  });

  it('given an amplified Overreach (exposure 5: 6) braced, then 3 damage lands (guards act after amplification)', () => {
    const { r } = guarded('Brace', 'Overreach', { exposure: 5 });
    expect(r.payload.tactical_effect.resolve_delta).toEqual({ plr_2: -3 });
  });

  it('given a braced attack, then the contest resistance is 0.15 higher than without', () => {
    const braced = guarded('Brace', 'Needle').r.payload.manipulation!;
    const bare = guarded(null, 'Needle').r.payload.manipulation!;
    expect(bare.resistance).toBe(0.2);
    expect(braced.resistance).toBe(0.35);
  });
});

describe('Riposte: 1 tempo reaction, prevent 2 damage, 2 damage back', () => {
  it('given a Feint riposted, then no damage lands on plr_2, plr_1 takes 2, and plr_2 paid 1 tempo', () => {
    const { state, r } = guarded('Riposte', 'Feint');
    expect(r.payload.tactical_effect.resolve_delta).toEqual({ plr_1: -2 });
    expect(r.payload.rules_notes).toContain('Riposte: prevented 2');
    expect(seat(state, 'plr_2').tempo).toBe(0);
    expect(seat(state, 'plr_1').resolve).toBe(10);
  });

  it('given an Overreach riposted, then 2 of 4 land and 2 come back', () => {
    const { r } = guarded('Riposte', 'Overreach');
    expect(r.payload.tactical_effect.resolve_delta).toEqual({ plr_2: -2, plr_1: -2 });
  });
});

describe('Composure: 0 tempo, arena 2 rounds, resistance +0.2, own tilt −0.2', () => {
  it('when plr_1 plays Composure, then it lies face up in its arena for 2 rounds and its tilt impact is −0.2', () => {
    const state = atAction();
    const card = giveCard(state, 'plr_1', 'Composure');
    const id = submittedId(act(state, 'plr_1', play(card)));
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload.tactical_effect.card_moves).toEqual([
      { card_id: card, from: 'stack', to: 'arena:plr_1', reason: 'played', arena: { face_down: false, rounds_left: 2, countdown: null, chosen_emotion: null } },
    ]);
    expect(r.payload.affective_effect?.emotion_delta).toEqual({ plr_1: { tilt: -0.2 } });
    // reflect already ran when resolve ended: the impact has landed (0.82·0 − 0.2 + 0.18·0)
    expect(seat(state, 'plr_1').emotions.tilt).toBe(-0.2);
    // it stays through two more rounds and leaves at the third upkeep
    nextRound(state);
    nextRound(state);
    expect(state.arena.map((a) => a.card_id)).toContain(card);
    nextRound(state);
    expect(state.discard).toContain(card);
  });

  it('given Composure in plr_2s arena, when plr_1 attacks plr_2, then resistance is 0.2 higher', () => {
    const state = atAction();
    placeArena(state, 'plr_2', 'Composure');
    const needle = giveCard(state, 'plr_1', 'Needle');
    const id = submittedId(act(state, 'plr_1', attack(needle, 'plr_2')));
    expect(resolutionOf(finishActions(state), id).payload.manipulation?.resistance).toBe(0.4);
  });

  it('is a guard but not a reaction: a seat holding only Composure cannot answer an attack with it', () => {
    const state = atAction();
    const [composure] = setHand(state, 'plr_2', ['Composure']);
    okEvents(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Needle'), 'plr_2')));
    expect(requestFor(state, 'plr_2').legal_actions).toEqual([{ kind: 'pass' }]);
    const events = okEvents(act(state, 'plr_2', { card_id: composure }, 'reaction'));
    expect(onlyEvent(events, 'action_rejected').payload.code).toBe('reaction/not_a_guard');
  });
});
