import { describe, expect, it } from 'vitest';
import { viewEvent } from '../../src/game/index.js';
import { jumpLabel } from '../../src/view/index.js';
import { playGame } from '../support/played-game.js';

const NAMES = ['Ada', 'Bo', 'Cy', 'Di'];
const { events } = playGame({
  seed: 777_005,
  seats: 4,
  round_cap: 16,
  compact: false,
  driver: 9,
  names: NAMES,
});
const seat = (id: string) => NAMES[Number(id.slice(4)) - 1]!;

describe('jumpLabel: a button that goes to an event says where it goes', () => {
  it('names the round and what happened, with seat and card names', () => {
    const hit = events.find(
      (e) =>
        e.type === 'action_resolved' && e.payload.card && e.payload.target_player_ids.length === 1,
    )!;
    if (hit.type !== 'action_resolved') throw new Error('no hit');
    expect(jumpLabel(hit, seat)).toBe(
      `round ${hit.turn}: ${seat(hit.payload.actor_player_id)}'s ${hit.payload.card!.name} hits ${seat(hit.payload.target_player_ids[0]!)}`,
    );
    const out = events.find((e) => e.type === 'player_eliminated')!;
    if (out.type !== 'player_eliminated') throw new Error('no elimination');
    expect(jumpLabel(out, seat)).toBe(
      `round ${out.turn}: ${seat(out.payload.player_id)} is eliminated`,
    );
    expect(jumpLabel(undefined, seat)).toBe('an event this view does not hold');
  });

  it('given every event of a game in the public and admin views, then no label holds a seq, a seat id or a snake_case key', () => {
    for (const viewer of [{ role: 'spectator' as const }, { role: 'admin' as const }]) {
      for (const e of events) {
        const label = jumpLabel(viewEvent(e, viewer), seat);
        expect(label, `seq ${e.seq}`).toMatch(/^(round \d+|setup): \S/);
        expect(label, `seq ${e.seq}`).not.toMatch(/\bseq\b|plr_\d|\b[a-z]+_[a-z_]+\b|undefined/);
      }
    }
  });
});
