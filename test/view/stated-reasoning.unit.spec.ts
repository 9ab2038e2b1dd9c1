import { describe, expect, it } from 'vitest';
import { viewEvent } from '../../src/game/index.js';
import { narrate } from '../../src/view/index.js';
import { decisionSeq } from '../../src/server/games/stated-reasoning.js';
import { playGame } from '../support/played-game.js';

const NAMES = ['Ada', 'Bram', 'Cleo'];
const { events } = playGame({ seed: 38_012, seats: 3, round_cap: 3, compact: false, driver: 3, names: NAMES });
const names = new Map(NAMES.map((n, i) => [`plr_${i + 1}`, n]));
const broadcast = events.map((e) => viewEvent(e, { role: 'broadcast' }));

describe('stated reasoning on the story (the broadcast view)', () => {
  it('given an event carrying an LLM seat’s reasoning, then its first line carries it with the seat named; other lines and events carry none', () => {
    const plan = broadcast.find((e) => e.type === 'secret_plan_committed')!;
    const reasoned = broadcast.map((e) => (e === plan ? { ...e, reasoning: [{ player_id: 'plr_2', window: 'intent', text: '  Ada looks afraid; I press her.  ' }] } : e));
    const story = narrate(reasoned, { names });
    const withWhy = story.lines.filter((l) => l.reasoning);
    expect(withWhy).toHaveLength(1);
    expect(withWhy[0]!.seq).toBe(plan.seq);
    expect(withWhy[0]!.reasoning).toEqual([{ player_id: 'plr_2', name: 'Bram', text: 'Ada looks afraid; I press her.' }]);
    expect(story.lines.find((l) => l.seq === plan.seq)).toBe(withWhy[0]);
  });

  it('given an event the story tells nothing of, then a line is made for its reasoning; malformed reasoning (a file may hold anything) is left out, never thrown', () => {
    const quiet = broadcast.find((e) => e.type === 'phase_changed')!;
    expect(narrate([quiet], { names }).lines).toEqual([]);
    const junk = [null, 7, { player_id: 'plr_1' }, { player_id: 'admin', text: 'x' }, { player_id: 'plr_3', text: '' }];
    const lines = narrate([{ ...quiet, reasoning: [...junk, { player_id: 'plr_1', window: 'talk', text: 'x'.repeat(900) }] } as never], { names }).lines;
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toBe('Ada decided.');
    expect(lines[0]!.reasoning).toEqual([{ player_id: 'plr_1', name: 'Ada', text: 'x'.repeat(300) }]);
    expect(narrate([{ ...quiet, reasoning: 'not a list' } as never], { names }).lines).toEqual([]);
  });

  it('places a decision on the first event of its step: the request’s seq plus one', () => {
    expect(decisionSeq('req_ab12_41_plr_1_0')).toBe(42);
    expect(decisionSeq('req_my_game_id_with_7_parts_0_plr_12_2')).toBe(1);
    expect(decisionSeq('req_plr_1_3')).toBeNull();
    expect(decisionSeq('nonsense')).toBeNull();
  });
});
