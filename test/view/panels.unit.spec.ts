import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { viewEvent, viewState, type Viewer } from '../../src/game/index.js';
import { attackList, commitmentLedger, diffViews, emotionSeries, predictionTable, scrubberMarkers, speechFeed, trustMatrix } from '../../src/view/index.js';
import { playGame } from '../support/played-game.js';

const { events, states } = playGame({ seed: 777_001, seats: 4, round_cap: 6, compact: false, driver: 5 });
const end = states.at(-1)!;
const spectator: Viewer = { role: 'spectator' };
const seat1: Viewer = { role: 'seat', player_id: 'plr_1' };
const admin: Viewer = { role: 'admin' };
const as = (v: Viewer, upTo = events.length): GameEvent[] => events.slice(0, upTo).map((e) => viewEvent(e, v));
const ofType = <T extends GameEvent['type']>(t: T) => events.filter((e): e is Extract<GameEvent, { type: T }> => e.type === t);

describe('attackList', () => {
  it('lists every targeted action with its resolution; a spectator sees the plan only once it resolves, the attacker at once', () => {
    const resolvedAttacks = ofType('action_resolved').filter((e) => e.payload.attack_plan);
    expect(resolvedAttacks.length).toBeGreaterThan(3);
    const rows = attackList(as(spectator));
    for (const r of resolvedAttacks) {
      const row = rows.find((x) => x.action_id === r.payload.action_id)!;
      expect(row.plan).toEqual(r.payload.attack_plan);
      expect(row.resolution?.outcome).toBe(r.payload.manipulation_outcome);
      expect(row.resolution?.manipulation_success).toBe(r.payload.manipulation_outcome === 'success');
      expect(row.resolution?.affective).toBeNull(); // hidden from spectators
    }
    const adminRows = attackList(as(admin));
    const one = resolvedAttacks[0]!;
    expect(adminRows.find((x) => x.action_id === one.payload.action_id)?.resolution?.affective).toEqual(one.payload.affective_effect);
    // Between submission and resolve: only the attacker's own projection carries the plan.
    const submitted = ofType('action_submitted').find((e) => e.payload.attack_plan)!;
    const cut = submitted.seq;
    const attacker: Viewer = { role: 'seat', player_id: submitted.payload.player_id };
    expect(attackList(as(spectator, cut)).find((x) => x.action_id === submitted.payload.action_id)?.plan).toBeNull();
    expect(attackList(as(attacker, cut)).find((x) => x.action_id === submitted.payload.action_id)?.plan).toEqual(submitted.payload.attack_plan);
  });
});

describe('emotionSeries', () => {
  it('ends on every seat’s current tell; vectors only where the view has them (a seat its own)', () => {
    const spec = emotionSeries(as(spectator));
    const seatView = emotionSeries(as(seat1));
    const world = viewState(end, spectator).world;
    for (const p of world.players) expect(spec[p.player_id]!.at(-1)!.tell).toEqual(p.tell);
    const own = viewState(end, seat1).private[0]!.emotion_state;
    const { trust: _t, grievance: _g, ...vector } = own;
    expect(seatView['plr_1']!.at(-1)!.vector).toEqual(vector);
    // A spectator never gets another vector than the public baselines and tells.
    const updated = ofType('emotion_updated').filter((e) => e.payload.player_id === 'plr_2');
    for (const e of updated) expect(spec['plr_2']!.find((x) => x.seq === e.seq)!.vector).toEqual(spec['plr_2']![0]!.vector);
  });
});

describe('trustMatrix', () => {
  it('shows a seat its own row only, an admin every row, and lists the seqs that moved each cell', () => {
    const mine = trustMatrix(viewState(end, seat1), as(seat1));
    expect(mine.cells).toHaveLength(12);
    for (const c of mine.cells) {
      if (c.from === 'plr_1') expect(c.trust).toBe(end.players[0]!.trust[c.to]);
      else expect(c.trust).toBeNull();
    }
    const all = trustMatrix(viewState(end, admin), as(admin));
    let movedCells = 0;
    for (const c of all.cells) {
      const start = 0.2;
      if (c.trust !== start) {
        expect(c.moved_by.length, `${c.from}>${c.to}`).toBeGreaterThan(0);
        movedCells++;
      }
      for (const seq of c.moved_by) expect(['action_resolved', 'ledger_settled', 'ritual_fired', 'emotion_updated']).toContain(events[seq - 1]!.type);
    }
    expect(movedCells).toBeGreaterThan(0);
  });
});

describe('commitmentLedger and predictionTable', () => {
  it('gives spectators no commitments, a seat its own, admins all with their settlements', () => {
    const committed = ofType('speech_posted').filter((e) => e.payload.commitment_id);
    expect(committed.length).toBeGreaterThan(0);
    expect(commitmentLedger(as(spectator))).toEqual([]);
    expect(commitmentLedger(as(seat1)).map((r) => r.commitment_id)).toEqual(committed.filter((e) => e.payload.player_id === 'plr_1').map((e) => e.payload.commitment_id));
    const rows = commitmentLedger(as(admin));
    expect(rows).toHaveLength(committed.length);
    const settled = ofType('ledger_settled').flatMap((e) => e.payload.settlements ?? []);
    for (const s of settled) expect(rows.find((r) => r.commitment_id === s.commitment_id)?.outcome).toBe(s.outcome);
  });

  it('scores every read and computes accuracy per predictor', () => {
    const t = predictionTable(as(spectator));
    const scored = ofType('prediction_scored');
    expect(t.rows.filter((r) => r.scored_seq !== null)).toHaveLength(scored.length);
    for (const [id, a] of Object.entries(t.accuracy)) {
      const mine = scored.filter((e) => e.payload.predictor_player_id === id);
      expect(a.scored).toBe(mine.length);
      expect(a.correct).toBe(mine.filter((e) => e.payload.correct).length);
    }
  });
});

describe('speechFeed and scrubberMarkers', () => {
  it('hides private text and labels from spectators, shows a seat its own labels and the private text sent to it', () => {
    const spec = speechFeed(as(spectator));
    expect(spec).toHaveLength(ofType('speech_posted').length);
    for (const l of spec) {
      expect(l.speech_act).toBeNull();
      if (l.channel === 'private') expect(l.text).toBeNull();
      else expect(l.text).not.toBeNull();
    }
    const mine = speechFeed(as(seat1));
    for (const l of mine) {
      expect(l.speech_act !== null).toBe(l.speaker === 'plr_1');
      if (l.channel === 'private') expect(l.text !== null).toBe(l.speaker === 'plr_1' || l.target === 'plr_1');
    }
  });

  it('marks every round start, phase, elimination and successful manipulation at its seq', () => {
    const m = scrubberMarkers(as(spectator));
    const rounds = ofType('phase_changed').filter((e) => e.payload.phase === 'upkeep');
    expect(m.filter((x) => x.kind === 'round').map((x) => x.seq)).toEqual(rounds.map((e) => e.seq));
    expect(m.filter((x) => x.kind === 'elimination').map((x) => x.seq)).toEqual(ofType('player_eliminated').map((e) => e.seq));
    expect(m.filter((x) => x.kind === 'manipulation').map((x) => x.seq)).toEqual(ofType('action_resolved').filter((e) => e.payload.manipulation_outcome === 'success').map((e) => e.seq));
    expect(m.at(-1)!.kind).toBe('game_end');
  });
});

describe('diffViews', () => {
  it('says in words what a resolution changed, and nothing for equal views', () => {
    const hit = ofType('action_resolved').find((e) => Object.keys(e.payload.tactical_effect.resolve_delta).length > 0)!;
    const before = viewState(states[hit.seq - 1]!, spectator);
    const after = viewState(states[hit.seq]!, spectator);
    const texts = diffViews(before, after).map((d) => d.text);
    for (const id of Object.keys(hit.payload.tactical_effect.resolve_delta)) {
      const was = before.world.players.find((x) => x.player_id === id)!.resolve;
      const now = after.world.players.find((x) => x.player_id === id)!.resolve;
      expect(texts).toContain(`world.players[${id}].resolve: ${was} → ${now}`);
    }
    expect(diffViews(after, structuredClone(after))).toEqual([]);
  });

  it('lists cards that came and went as card names', () => {
    const drawn = ofType('cards_drawn').find((e) => e.seq > 10 && e.payload.player_id === 'plr_1')!;
    const d = diffViews(viewState(states[drawn.seq - 1]!, seat1), viewState(states[drawn.seq]!, seat1));
    for (const ref of drawn.payload.card_refs!) expect(d.map((x) => x.text)).toContain(`private[plr_1].hand: + ${ref.name}`);
  });
});
