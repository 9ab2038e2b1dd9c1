/**
 * Rules 2.0.0, engagement (docs/rules.md, "Rules 2.0.0: engagement"): idle seats lose resolve,
 * landed blows pay spoils, guards let a chip through, exposure fades every round. The card and
 * round tests pin 1.0.0 (the brief's numbers); these pin what 2.0.0 adds, with 2.0.0's defaults.
 */
import { describe, expect, it } from 'vitest';
import { V2_DEFAULTS } from '../../src/game/rules.js';
import { act, atAction, attack, eventsOf, finishActions, giveCard, newGame, nextRound, okEvents, resolutionOf, setHand, setSeat, submittedId } from '../support/scenario.js';

const V2 = { rules_version: '2.0.0', ...V2_DEFAULTS } as const;

describe('rules 2.0.0: engagement', () => {
  it('given seats that attacked no one in round 1, when round 2 begins, then each loses 2 resolve at upkeep', () => {
    const state = newGame({ seats: 3, rules: V2 });
    const upkeep = eventsOf(nextRound(state), 'upkeep_applied')[0]!;
    expect(upkeep.turn).toBe(2);
    expect(upkeep.payload.resolve_delta).toEqual({ plr_1: -2, plr_2: -2, plr_3: -2 });
  });

  it('given the same under 1.0.0, then no idle loss (at the baseline nothing drifts)', () => {
    const state = newGame({ seats: 3, rules: { rules_version: '1.0.0' } });
    expect(eventsOf(nextRound(state), 'upkeep_applied')[0]!.payload.resolve_delta).toEqual({});
  });

  it('given a seat below the baseline whose Needle lands, then it takes 2 resolve back (spoils) and the target loses 1', () => {
    const state = atAction(3, { rules: V2 });
    setSeat(state, 'plr_1', { resolve: 6, tempo: 1 });
    const card = giveCard(state, 'plr_1', 'Needle');
    const id = submittedId(act(state, 'plr_1', attack(card, 'plr_2')));
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload.tactical_effect.resolve_delta).toEqual({ plr_1: 2, plr_2: -1 });
  });

  it('given a Needle (1) braced, then the chip still lands: 1 damage, where 1.0.0 prevents it all', () => {
    const hit = (rules: object) => {
      const state = atAction(3, { rules });
      setSeat(state, 'plr_1', { tempo: 1 });
      const [g] = setHand(state, 'plr_2', ['Brace']);
      const card = giveCard(state, 'plr_1', 'Needle');
      const id = submittedId(act(state, 'plr_1', attack(card, 'plr_2')));
      okEvents(act(state, 'plr_2', { card_id: g }, 'reaction'));
      return resolutionOf(finishActions(state), id).payload.tactical_effect.resolve_delta['plr_2'];
    };
    expect(hit(V2)).toBe(-1);
    expect(hit({ rules_version: '1.0.0' })).toBeUndefined();
  });

  it('given a seat at exposure 4 that acts in a round, then its exposure falls by 1 at reflect', () => {
    const state = atAction(3, { rules: V2 });
    setSeat(state, 'plr_1', { exposure: 4, tempo: 1 });
    const card = giveCard(state, 'plr_1', 'Needle');
    act(state, 'plr_1', attack(card, 'plr_2'));
    const events = finishActions(state);
    const more = nextRound(state);
    const updates = [...eventsOf(events, 'exposure_updated'), ...eventsOf(more, 'exposure_updated')];
    expect(updates.some((e) => e.payload.exposure_delta['plr_1'] === -1)).toBe(true);
  });
});
