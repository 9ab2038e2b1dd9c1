import { beforeAll, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import type { AgentName } from '../../src/agents/builtin/index.js';
import { agentOf, lineup, play, type Play, type Played } from './harness.js';

const HEURISTIC: readonly AgentName[] = ['balanced', 'aggressor', 'turtle', 'manipulator', 'trickster'];

const share = (plays: readonly Play[], pred: (p: Play) => boolean) => plays.filter(pred).length / Math.max(1, plays.length);
const shielded = (p: Play) => p.type === 'guard' || p.type === 'mask';

describe('heuristic personalities at one table', () => {
  let games: Played[] = [];
  let plays: Play[] = [];
  beforeAll(() => {
    games = Array.from({ length: 80 }, (_, g) => play(lineup(HEURISTIC, g), 5300 + g));
    plays = games.flatMap((g) => g.plays);
  });

  it('couple play to fear: guards and masks first when afraid (simulator definition, reactions included)', () => {
    const high = plays.filter((p) => p.fear >= 0.5);
    const low = plays.filter((p) => p.fear < 0.2);
    expect(high.length).toBeGreaterThan(200);
    expect(low.length).toBeGreaterThan(200);
    expect(share(high, shielded)).toBeGreaterThan(2 * share(low, shielded));
    // In the action window alone the difference is starker still.
    const act = (p: Play) => p.kind !== 'reaction';
    expect(share(high.filter(act), shielded)).toBeGreaterThan(3 * share(low.filter(act), shielded));
  });

  it('every card type is at least 3 % of the plays', () => {
    for (const type of ['gambit', 'guard', 'trap', 'mask', 'pressure', 'ritual'] as const) {
      expect(share(plays, (p) => p.type === type), type).toBeGreaterThan(0.03);
    }
  });

  it('differ by personality', () => {
    const of = (a: AgentName) => plays.filter((p) => p.agent === a);
    const attacks = (a: AgentName) => {
      let n = 0;
      let rounds = 0;
      for (const g of games) {
        for (const e of g.events) {
          if (e.type === 'action_resolved' && e.payload.target_player_ids.length && agentOf(g, e.payload.actor_player_id) === a) n++;
          if (e.type === 'upkeep_applied') rounds += e.payload.initiative_order.filter((id) => agentOf(g, id) === a).length;
        }
      }
      return n / rounds;
    };
    // Aggressor swings most, turtle least; turtle builds traps and rituals, manipulator leans on pressure.
    expect(attacks('aggressor')).toBeGreaterThan(attacks('balanced'));
    expect(attacks('balanced')).toBeGreaterThan(attacks('turtle') * 1.3);
    const typeShare = (a: AgentName, t: Play['type']) => share(of(a), (p) => p.type === t);
    expect(typeShare('turtle', 'trap')).toBeGreaterThan(typeShare('aggressor', 'trap'));
    expect(typeShare('turtle', 'ritual')).toBeGreaterThan(typeShare('aggressor', 'ritual'));
    expect(typeShare('manipulator', 'pressure')).toBeGreaterThan(typeShare('balanced', 'pressure'));
    expect(typeShare('aggressor', 'gambit')).toBeGreaterThan(typeShare('turtle', 'gambit'));
    const overreach = (a: AgentName) => share(of(a), (p) => p.name === 'Overreach');
    expect(overreach('aggressor')).toBeGreaterThan(overreach('turtle'));
    // Trickster lies: it bluffs (since version 2 only over a face-down trap of its own, so less often
    // than balanced's unbacked bluffs), breaks its word (false concessions, since version 2 for a
    // kill) and lays more False Tells than balanced.
    const speech = games.flatMap((g) => g.events.flatMap((e) => (e.type === 'speech_posted' ? [{ a: agentOf(g, e.payload.player_id), act: e.payload.speech_act }] : [])));
    const bluffs = (a: AgentName) => speech.filter((x) => x.a === a && x.act === 'bluff').length / Math.max(1, speech.filter((x) => x.a === a).length);
    expect(bluffs('trickster')).toBeGreaterThan(0);
    const falseTells = (a: AgentName) => share(of(a), (p) => p.name === 'False Tell');
    expect(falseTells('trickster')).toBeGreaterThan(falseTells('balanced'));
    const plansOf = (a: AgentName) =>
      games.flatMap((g) => g.events.flatMap((e: GameEvent) => (e.type === 'action_resolved' && e.payload.attack_plan && agentOf(g, e.payload.actor_player_id) === a ? [e.payload.attack_plan.manipulation_plan] : [])));
    expect(plansOf('trickster')).toContain('false_concession');
    expect(plansOf('trickster')).toContain('bait');
    expect(plansOf('balanced')).not.toContain('false_concession');
  });
});

describe('compact windows', () => {
  it('answer with speech, a secret plan and follow-ups, and are never rejected', () => {
    const games = Array.from({ length: 20 }, (_, g) => play(lineup(HEURISTIC, g), 6100 + g, { windows: 'compact' }));
    const events = games.flatMap((g) => g.events.map((e) => ({ e, g })));
    const rejected = events.filter(({ e, g }) => e.type === 'action_rejected' && agentOf(g, e.payload.player_id) !== 'random');
    expect(rejected).toHaveLength(0);
    expect(events.filter(({ e }) => e.type === 'speech_posted').length).toBeGreaterThan(100);
    const decisions = (games.flatMap((g) => g.decisions) as { selected_action?: unknown; follow_up?: unknown; secret_plan?: unknown }[]).filter((d) => d.selected_action);
    expect(decisions.some((d) => d.follow_up)).toBe(true);
    expect(decisions.every((d) => d.secret_plan)).toBe(true);
  });
});
