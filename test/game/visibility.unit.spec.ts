import { describe, expect, it } from 'vitest';
import { viewEvent } from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';
import { act, atAction, driveTo, eventsOf, newGame, nextRound, okEvents, placeArena, say } from '../support/scenario.js';

describe('projections hide the audience lists too', () => {
  it('given plr_1 whispers to plr_2, then each viewer only learns whether it is in the audience of each hidden key', () => {
    const state = newGame({ seats: 3 });
    driveTo(state, 'talk', 'plr_1');
    const events = okEvents(act(state, 'plr_1', { speech_actions: [say('promise', 'plr_2', 'psst', 'private')] }, 'talk'));
    const speech = eventsOf(events, 'speech_posted')[0]! as GameEvent;
    const toOf = (viewer: Parameters<typeof viewEvent>[1]) => Object.fromEntries(viewEvent(speech, viewer).visibility.hidden.map((h) => [h.key, h.to]));
    expect(toOf({ role: 'spectator' })).toEqual({ speech_act: [], commitment_id: [], text: [] });
    expect(toOf({ role: 'seat', player_id: 'plr_3' })).toEqual({ speech_act: [], commitment_id: [], text: [] });
    expect(toOf({ role: 'seat', player_id: 'plr_2' })).toEqual({ speech_act: [], commitment_id: [], text: ['plr_2'] });
    expect(toOf({ role: 'seat', player_id: 'plr_1' })).toEqual({ speech_act: ['plr_1'], commitment_id: ['plr_1'], text: ['plr_1'] });
    expect(viewEvent(speech, { role: 'admin' }).visibility.hidden.find((h) => h.key === 'text')?.to).toEqual(['plr_1', 'plr_2']);
  });
});

describe('a face-down False Tell is indistinguishable from a trap while it lies', () => {
  it('given plr_1 holds a False Tell or a Snare face down, then the next upkeep looks the same to everyone else', () => {
    const upkeep = (card: 'False Tell' | 'Snare') => {
      const state = atAction();
      placeArena(state, 'plr_1', card, card === 'False Tell' ? { chosen_emotion: 'fear' } : {});
      const events = nextRound(state);
      return eventsOf(events, 'upkeep_applied').map((e) => {
        const seen = viewEvent(e, { role: 'seat', player_id: 'plr_2' });
        return { payload: seen.payload, visibility: seen.visibility };
      });
    };
    expect(upkeep('False Tell')).toEqual(upkeep('Snare'));
  });
});
