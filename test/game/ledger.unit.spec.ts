import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import type { GameState } from '../../src/game/index.js';
import { viewEvent } from '../../src/game/index.js';
import {
  type Answers, atAction, attack, driveTo, eventsOf, finishActions, giveCard, nextRound, onlyEvent, say, seat, setHand, setOrder, setSeat,
} from '../support/scenario.js';

/** Answers in the action window: `attacks[seat]` = the seat it Needles (once), others pass. */
const attacking = (state: GameState, attacks: Record<string, string>): Answers => {
  const done = new Set<string>();
  return (id, window) => {
    const target = attacks[id];
    if (window !== 'action' || !target || done.has(id)) return undefined;
    done.add(id);
    return attack(giveCard(state, id, 'Needle'), target);
  };
};

/**
 * The settlements of a resolve's ledger_settled event, each with that event's (aggregate) effects;
 * the tests below settle one commitment at a time where they look at effects.
 */
const settledIn = (events: readonly GameEvent[]) =>
  eventsOf(events, 'ledger_settled').flatMap((e) =>
    (e.payload.settlements ?? []).map((x) => ({ payload: { ...x, tactical_effect: e.payload.tactical_effect, affective_effect: e.payload.affective_effect } })),
  );

/** Given round 1 with `talk` posted; when `attacks` happen: every settlement of round 1's resolve. */
function round1(talk: Record<string, unknown[]>, attacks: Record<string, string> = {}, seats = 3) {
  const state = atAction(seats, { talk });
  const events = finishActions(state, attacking(state, attacks));
  return { state, events, settled: settledIn(events) };
}

/** Then round 2 of the same game: talk nothing, `attacks` happen. */
function round2(state: GameState, attacks: Record<string, string> = {}) {
  nextRound(state);
  driveTo(state, 'action');
  setOrder(state, state.players.filter((p) => p.alive).map((p) => p.player_id));
  for (const p of state.players) {
    setHand(state, p.player_id, []);
    setSeat(state, p.player_id, { emotions: { tilt: 0, fear: 0, confidence: 0 } });
  }
  const events = finishActions(state, attacking(state, attacks));
  return { events, settled: settledIn(events) };
}

const outcomes = (settled: ReturnType<typeof round1>['settled']) => settled.map((e) => [e.payload.kind, e.payload.outcome]);

describe('ledger: a promise or concession, then an attack on its target in the same or next round, is broken', () => {
  it('given plr_1 publicly promised plr_2, when plr_1 attacks plr_2 that round, then broken: exposure +2, grievance +0.3, everyone else trusts plr_1 0.15 less', () => {
    const { settled } = round1({ plr_1: [say('promise', 'plr_2', 'I will not touch you')] }, { plr_1: 'plr_2' });
    expect(settled).toHaveLength(1);
    const e = settled[0]!;
    expect(e.payload).toMatchObject({ kind: 'promise', outcome: 'broken', speaker_player_id: 'plr_1', target_player_id: 'plr_2' });
    expect(e.payload.tactical_effect.exposure_delta).toEqual({ plr_1: 2 });
    expect(e.payload.affective_effect?.grievance_delta).toEqual({ plr_2: { plr_1: 0.3 } });
    expect(e.payload.affective_effect?.trust_delta).toEqual({ plr_2: { plr_1: -0.15 }, plr_3: { plr_1: -0.15 } });
  });

  it('given a private concession broken, then no public trust loss', () => {
    const { settled } = round1({ plr_1: [say('concession', 'plr_2', 'you win this one', 'private')] }, { plr_1: 'plr_2' });
    expect(outcomes(settled)).toEqual([['concession', 'broken']]);
    expect(settled[0]!.payload.affective_effect?.trust_delta).toEqual({});
  });

  it('given a promise in round 1, when plr_1 attacks plr_2 in round 2, then it is broken in round 2', () => {
    const first = round1({ plr_1: [say('promise', 'plr_2')] });
    expect(first.settled).toEqual([]);
    expect(outcomes(round2(first.state, { plr_1: 'plr_2' }).settled)).toEqual([['promise', 'broken']]);
  });

  it('given a promise kept over rounds 1 and 2, then plr_2 trusts plr_1 0.1 more', () => {
    const first = round1({ plr_1: [say('promise', 'plr_2')] }, { plr_1: 'plr_3' });
    const second = round2(first.state);
    expect(outcomes(second.settled)).toEqual([['promise', 'kept']]);
    expect(second.settled[0]!.payload.affective_effect?.trust_delta).toEqual({ plr_2: { plr_1: 0.1 } });
  });
});

describe('ledger: a threat carried out within 2 rounds is credible; otherwise empty', () => {
  it('given plr_1 threatened plr_2 and attacks it, then credible: plr_2 fear +0.1', () => {
    const { settled } = round1({ plr_1: [say('threat', 'plr_2')] }, { plr_1: 'plr_2' });
    expect(outcomes(settled)).toEqual([['threat', 'credible']]);
    expect(settled[0]!.payload.affective_effect?.emotion_delta).toEqual({ plr_2: { fear: 0.1 } });
  });

  it('given a threat not carried out in rounds 1 and 2, then empty: plr_1 dominance −0.05', () => {
    const first = round1({ plr_1: [say('threat', 'plr_2')] });
    const second = round2(first.state);
    expect(outcomes(second.settled)).toEqual([['threat', 'empty']]);
    expect(second.settled[0]!.payload.affective_effect?.emotion_delta).toEqual({ plr_1: { dominance: -0.05 } });
  });
});

describe('ledger: a warning that came true earns every listener’s trust +0.1', () => {
  it('given plr_1 publicly warned plr_2, when plr_3 attacks plr_2, then plr_2 and plr_3 trust plr_1 0.1 more', () => {
    const { settled } = round1({ plr_1: [say('warning', 'plr_2', 'plr_3 will come for you')] }, { plr_3: 'plr_2' });
    expect(outcomes(settled)).toEqual([['warning', 'came_true']]);
    expect(settled[0]!.payload.affective_effect?.trust_delta).toEqual({ plr_2: { plr_1: 0.1 }, plr_3: { plr_1: 0.1 } });
  });

  it('given a private warning that came true, then only its listener (the target) trusts plr_1 more', () => {
    const { settled } = round1({ plr_1: [say('warning', 'plr_2', 'careful', 'private')] }, { plr_3: 'plr_2' });
    expect(settled[0]!.payload.affective_effect?.trust_delta).toEqual({ plr_2: { plr_1: 0.1 } });
  });

  it('given the warner itself attacks, then the warning did not come true', () => {
    const first = round1({ plr_1: [say('warning', 'plr_2')] }, { plr_1: 'plr_2' });
    expect(first.settled).toEqual([]);
    expect(outcomes(round2(first.state).settled)).toEqual([['warning', 'expired']]);
  });
});

describe('ledger: a bluff is called if its speaker is attacked that round', () => {
  it('given plr_1 bluffed, when plr_2 and plr_3 attack it, then called: plr_1 exposure +1 and the first attacker (plr_2) tempo +1', () => {
    const { settled } = round1({ plr_1: [say('bluff', null, 'I hold four Snares')] }, { plr_2: 'plr_1', plr_3: 'plr_1' });
    expect(outcomes(settled)).toEqual([['bluff', 'called']]);
    expect(settled[0]!.payload.tactical_effect).toMatchObject({ exposure_delta: { plr_1: 1 }, tempo_delta: { plr_2: 1 } });
  });

  it('given plr_1 bluffed and nobody attacks it, then uncalled: confidence +0.1', () => {
    const { settled } = round1({ plr_1: [say('bluff', 'plr_2', 'back off')] });
    expect(outcomes(settled)).toEqual([['bluff', 'uncalled']]);
    expect(settled[0]!.payload.affective_effect?.emotion_delta).toEqual({ plr_1: { confidence: 0.1 } });
  });
});

describe('ledger: what enters it, and who sees how it settles', () => {
  it('given taunts, neutral talk and untargeted promises, then nothing enters the ledger', () => {
    const { state, settled } = round1({ plr_1: [say('taunt', 'plr_2'), say('promise', null)], plr_2: [say('neutral', 'plr_1', 'hi', 'private')] });
    expect(settled).toEqual([]);
    expect(state.ledger).toEqual([]);
  });

  it('given a settled commitment, then no seat and no spectator sees which settled; the public effects stay visible', () => {
    const { events } = round1({ plr_1: [say('bluff', null)] }, { plr_2: 'plr_1' });
    const e = onlyEvent(events, 'ledger_settled');
    expect(e.payload.settlements).toHaveLength(1);
    for (const viewer of [{ role: 'seat', player_id: 'plr_1' }, { role: 'seat', player_id: 'plr_2' }, { role: 'spectator' }] as const) {
      const seen = viewEvent(e, viewer).payload;
      expect(seen).not.toHaveProperty('settlements');
      expect(seen).not.toHaveProperty('affective_effect');
      expect(seen).toHaveProperty('tactical_effect.exposure_delta', { plr_1: 1 });
    }
  });

  it('given no commitments at all, then a ledger_settled event is still emitted (its absence would tell)', () => {
    const { events } = round1({});
    expect(onlyEvent(events, 'ledger_settled').payload.settlements).toEqual([]);
  });

  it('given an eliminated speaker, then its commitments leave the ledger', () => {
    const first = round1({ plr_1: [say('promise', 'plr_2')] });
    setSeat(first.state, 'plr_1', { resolve: 0, lives: 1 });
    nextRound(first.state);
    expect(seat(first.state, 'plr_1').alive).toBe(false);
    expect(first.state.ledger).toEqual([]);
  });
});
