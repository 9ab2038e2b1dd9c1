import type { TurnPlanRequest } from '../../../protocol/index.js';
import { Rng, seedRng } from '../../../game/rng.js';
import type { Agent } from '../../agent.js';
import { answer, candidates, choose, PASS, type ActionAnswer, type ChoiceOptions } from './action.js';
import { planRound, secretPlan } from './intent.js';
import { newMemory, observe, touch, type Memory, type RoundPlan } from './memory.js';
import type { Personality } from './personality.js';
import { react } from './reaction.js';
import { talk } from './talk.js';
import { nameOf, viewOf, type View } from './view.js';

const NOTHING = new Set<string>();

function roundPlan(v: View, m: Memory, pers: Personality): RoundPlan {
  if (!m.plan) m.plan = planRound(v, m, pers);
  return m.plan;
}

/** Whether this action window is the seat's first action of the round (a compact answer always is). */
const firstAction = (r: TurnPlanRequest): boolean => r.constraints.compact || r.constraints.actions_left >= (r.constraints.locked_out ? 1 : 2);

function action(v: View, m: Memory, pers: Personality) {
  // A rejected answer gets one more try; a pass is always legal, so never risk a second rejection.
  if (v.r.constraints.reprompt) return PASS;
  roundPlan(v, m, pers);
  const o: ChoiceOptions = { second: !firstAction(v.r), tempo: v.me.tempo, exclude: NOTHING, extra: [], trapComing: false };
  return answer(v, m, pers, choose(v, m, pers, o));
}

/** Compact windows: secret plan, talk, and up to two actions in one answer. */
function compact(v: View, m: Memory, pers: Personality) {
  if (v.r.constraints.reprompt) return { ...PASS, speech_actions: [] };
  const plan = roundPlan(v, m, pers);
  const speech = m.talked ? [] : talk(v, m, pers, plan);
  m.talked = true;
  const base = { speech_actions: speech, secret_plan: secretPlan(v, pers, plan) };
  const o: ChoiceOptions = { second: false, tempo: v.me.tempo, exclude: NOTHING, extra: speech, trapComing: false };
  const c1 = choose(v, m, pers, o);
  const first = answer(v, m, pers, c1);
  if (!c1.legal || v.r.constraints.actions_left < 2) return { ...first, ...base };
  const o2: ChoiceOptions = {
    second: true,
    tempo: v.me.tempo - c1.legal.tempo_cost,
    exclude: new Set([c1.legal.card_id]),
    extra: speech,
    trapComing: c1.legal.kind === 'play_card' && c1.legal.type === 'trap',
  };
  const c2 = choose(v, m, pers, o2);
  return c2.legal ? { ...first, ...base, follow_up: answer(v, m, pers, c2) } : { ...first, ...base };
}

/**
 * Every action this seat could take now, one answer per card and target (and passing), best first
 * by the personality's own weighing: the expert's wide candidate list. Reads the agent's memory
 * (the round plan its secret plan declared) on a scratch copy, and its own PRNG, so the agent's
 * later decisions are the same whether or not its options were listed.
 */
function options(r: TurnPlanRequest, m: Memory, pers: Personality, rng: Rng): ActionAnswer[] {
  const v = viewOf(r, rng);
  const scratch: Memory = { ...m, kineticNow: [...m.kineticNow], hurt: new Map(m.hurt) };
  roundPlan(v, scratch, pers);
  const o: ChoiceOptions = { second: !firstAction(r), tempo: v.me.tempo, exclude: NOTHING, extra: [], trapComing: false, everyTarget: true };
  return candidates(v, scratch, pers, o).map((x) => answer(v, scratch, pers, x));
}

function reflect(v: View, m: Memory): { memory_updates: string[] } {
  const p = m.plan;
  if (!p?.target || m.attacksThisTurn === 0) return { memory_updates: [] };
  return { memory_updates: [`turn ${v.r.turn}: pushed ${p.emotion} on ${nameOf(v, p.target)} via ${p.plan}`] };
}

/** A heuristic agent, which can also list every action it weighed (after deciding on the request). */
export type HeuristicAgent = Agent & { options(r: TurnPlanRequest): ActionAnswer[] };

/**
 * A heuristic agent for a personality: a policy over its seat's request only, with its own PRNG
 * and a closure memory of its round plan, its promises and what it saw others do.
 */
export function heuristicAgent(pers: Personality): (seed: string) => HeuristicAgent {
  return (seed) => {
    const rng = new Rng(seedRng(seed));
    // Made on first use: rollouts build a heuristic agent per seat per world and never list options.
    let optionRng: Rng | null = null;
    const m = newMemory();
    return {
      name: pers.name,
      options: (r) => options(r, m, pers, (optionRng ??= new Rng(seedRng(`${seed}:options`)))),
      decide(r: TurnPlanRequest): unknown {
        const v = viewOf(r, rng);
        touch(m, r.turn);
        observe(m, v);
        switch (r.window) {
          case 'intent':
            return secretPlan(v, pers, roundPlan(v, m, pers));
          case 'talk': {
            if (m.talked) return { speech_actions: [] };
            m.talked = true;
            return { speech_actions: talk(v, m, pers, roundPlan(v, m, pers)) };
          }
          case 'action':
            return r.constraints.compact ? compact(v, m, pers) : action(v, m, pers);
          case 'reaction':
            return react(v, pers);
          case 'reflect':
            return reflect(v, m);
        }
      },
    };
  };
}
