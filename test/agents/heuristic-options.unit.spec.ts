/**
 * A heuristic agent's option list (the expert's wide candidates): every option is a move the
 * engine accepts, attacks are listed at each target, and listing them leaves the agent's own play
 * unchanged (it reads a scratch copy of its memory and its own PRNG).
 */
import { describe, expect, it } from 'vitest';
import { heuristicAgent } from '../../src/agents/builtin/heuristics/policy.js';
import { BASE_PERSONALITY } from '../../src/agents/builtin/heuristics/personality.js';
import { awaiting, initialState, requestFor, stepInPlace } from '../../src/game/index.js';
import { cloneState } from '../../src/game/clone.js';

type Move = { selected_action: { kind: string; payload: { card_id?: string; target_player_id?: string } } };

/** Plays game `seed` with balanced seats; plr_1 lists its options at every action window when `list`. */
function play(seed: number, list: boolean, onOptions: (options: Move[], accepted: boolean[]) => void = () => {}) {
  const state = initialState({ seats: 4 }, seed);
  const agents = [0, 1, 2, 3].map((i) => heuristicAgent(BASE_PERSONALITY)(`opt:${seed}:${i}`));
  stepInPlace(state, { type: 'start' });
  const decisions: string[] = [];
  for (let next = awaiting(state); next; next = awaiting(state)) {
    const seat = next.seats[0]!;
    const agent = agents[Number(seat.slice(4)) - 1]!;
    const r = requestFor(state, seat);
    const d = agent.decide(r);
    if (seat === 'plr_1') decisions.push(JSON.stringify(d));
    if (list && seat === 'plr_1' && next.window === 'action' && !r.constraints.reprompt) {
      const options = agent.options(r) as Move[];
      const accepted = options.map((o) => {
        const res = stepInPlace(cloneState(state), { type: 'decision', player_id: seat, window: 'action', decision: o });
        return res.ok && !res.events.some((e) => e.type === 'action_rejected');
      });
      onOptions(options, accepted);
    }
    const res = stepInPlace(state, { type: 'decision', player_id: seat, window: next.window, decision: d });
    if (!res.ok) throw new Error(res.rejection.message);
  }
  return decisions;
}

describe('heuristic options', () => {
  it('given seeded games, then every listed option is accepted by the engine, with passing among them and attacks at more than one target', () => {
    let lists = 0;
    let multiTarget = 0;
    for (const seed of [3, 4]) {
      play(seed, true, (options, accepted) => {
        lists++;
        expect(accepted.every(Boolean)).toBe(true);
        expect(options.some((o) => o.selected_action.kind === 'pass')).toBe(true);
        const targets = new Map<string, Set<string>>();
        for (const o of options) {
          const { card_id, target_player_id } = o.selected_action.payload;
          if (card_id && target_player_id) targets.set(card_id, (targets.get(card_id) ?? new Set()).add(target_player_id));
        }
        if ([...targets.values()].some((t) => t.size > 1)) multiTarget++;
      });
    }
    expect(lists).toBeGreaterThan(20);
    expect(multiTarget).toBeGreaterThan(lists / 4);
  });

  it('given the same seed, when the agent lists its options at every action window, then its own decisions are the same as when it does not', () => {
    expect(play(5, true)).toEqual(play(5, false));
  });
});
