import { beforeAll, describe, expect, it } from 'vitest';
import { BEHAVIOR_SHIFTS, CARD_TYPES, type GameEvent } from '../../src/protocol/index.js';
import type { AgentName } from '../../src/agents/builtin/index.js';
import { agentOf, play, type Played } from './harness.js';

const HEURISTIC = ['balanced', 'aggressor', 'turtle', 'manipulator', 'trickster'] as const satisfies readonly AgentName[];
const POOL: readonly AgentName[] = ['random', 'balanced', 'aggressor', 'turtle', 'manipulator', 'trickster'];
const GAMES = 30;

/** Game g: the agent under test and three others from the pool, seats rotated so it sits everywhere. */
function lineupFor(agent: AgentName, g: number): AgentName[] {
  const table = [agent, POOL[g % 6]!, POOL[(g + 1) % 6]!, POOL[(g + 3) % 6]!];
  return table.map((_, i) => table[(i + g) % 4]!);
}

type Of<T extends GameEvent['type']> = Extract<GameEvent, { type: T }>;
const eventsOf = <T extends GameEvent['type']>(games: readonly Played[], type: T) =>
  games.flatMap((g) => g.events.filter((e): e is Of<T> => e.type === type).map((e) => ({ e, g })));

describe.each(HEURISTIC)('%s', (agent) => {
  let games: Played[] = [];
  const mine = (g: Played, id: string) => agentOf(g, id) === agent;

  beforeAll(() => {
    games = Array.from({ length: GAMES }, (_, g) => play(lineupFor(agent, g), 9100 + g));
  });

  it('never has an answer rejected', () => {
    const rejected = eventsOf(games, 'action_rejected').filter(({ e, g }) => mine(g, e.payload.player_id));
    const defaulted = eventsOf(games, 'secret_plan_committed').filter(({ e, g }) => mine(g, e.payload.player_id) && e.payload.defaulted);
    expect(rejected.map(({ e }) => e.payload.code)).toEqual([]);
    expect(defaulted).toHaveLength(0);
  });

  it('plays every card type, springs traps and hastens rituals', () => {
    const plays = games.flatMap((g) => g.plays).filter((p) => p.agent === agent);
    for (const type of CARD_TYPES) expect(plays.some((p) => p.type === type), type).toBe(true);
    expect(plays.some((p) => p.kind === 'activate' && p.type === 'trap')).toBe(true);
    expect(plays.some((p) => p.kind === 'activate' && p.type === 'ritual')).toBe(true);
    expect(plays.some((p) => p.kind === 'reaction')).toBe(true);
    for (const name of ['Whisper', 'False Tell', 'Composure', 'Slow Burn', 'Rebuild']) expect(plays.some((p) => p.name === name), name).toBe(true);
  });

  it('attacks with a full AttackPlan whose behaviour shift starts with a classified word', () => {
    const attacks = eventsOf(games, 'action_resolved').filter(({ e, g }) => mine(g, e.payload.actor_player_id) && e.payload.target_player_ids.length > 0);
    expect(attacks.length).toBeGreaterThan(GAMES * 3);
    for (const { e } of attacks) {
      const plan = e.payload.attack_plan!;
      expect(BEHAVIOR_SHIFTS).toContain(plan.expected_behavior_shift.split(':')[0]);
      expect(plan.target_player_id).toBe(e.payload.target_player_ids[0]);
    }
    // Plans are picked to hold: most attacks get the precondition bonus.
    const contests = attacks.flatMap(({ e }) => (e.payload.manipulation ? [e.payload.manipulation] : []));
    const held = contests.filter((c) => c.plan_precondition).length;
    expect(held / contests.length).toBeGreaterThan(0.7);
  });

  it('talks in public and in private with varied speech acts', () => {
    const speech = eventsOf(games, 'speech_posted').filter(({ e, g }) => mine(g, e.payload.player_id));
    const acts = new Set(speech.map(({ e }) => e.payload.speech_act));
    expect(acts.size).toBeGreaterThanOrEqual(6);
    expect(speech.some(({ e }) => e.payload.channel === 'private')).toBe(true);
    expect(speech.some(({ e }) => e.payload.channel === 'public')).toBe(true);
    for (const { e } of speech) expect(e.payload.text!.length).toBeLessThanOrEqual(500);
  });

  it('bluffs and predicts, reads scored by the engine', () => {
    const speech = eventsOf(games, 'speech_posted').filter(({ e, g }) => mine(g, e.payload.player_id));
    expect(speech.some(({ e }) => e.payload.speech_act === 'bluff')).toBe(true);
    const reads = eventsOf(games, 'prediction_scored').filter(({ e, g }) => mine(g, e.payload.predictor_player_id));
    expect(reads.length).toBeGreaterThan(GAMES);
    expect(reads.filter(({ e }) => e.payload.correct).length / reads.length).toBeGreaterThan(0.35);
  });
});

describe('determinism', () => {
  it('the same seed gives the same decisions, whatever ran before', () => {
    const table: AgentName[] = ['balanced', 'trickster', 'manipulator', 'aggressor'];
    const a = play(table, 4242);
    play(['turtle', 'random', 'balanced', 'turtle'], 7);
    const b = play(table, 4242);
    expect(JSON.stringify(b.decisions)).toBe(JSON.stringify(a.decisions));
    const c = play(table, 4243);
    expect(JSON.stringify(c.decisions)).not.toBe(JSON.stringify(a.decisions));
  });
});
