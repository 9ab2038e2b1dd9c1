import type { DeliveryChannel, EmotionalIntent, KineticIntent, ManipulationPlan, TacticalIntent } from '../../../protocol/index.js';
import type { View } from './view.js';

/** The round's intention, fixed at intent and carried into talk and action (alignment bonus). */
export type RoundPlan = {
  readonly turn: number;
  readonly target: string | null;
  readonly emotion: EmotionalIntent;
  readonly plan: ManipulationPlan;
  readonly channel: DeliveryChannel;
  readonly tactical: TacticalIntent;
  /** The seat named in the private message (betrayal cue; also Whisper's named seat). */
  readonly named: string | null;
  /** Whether fear has the seat turtling this round. */
  readonly defend: boolean;
};

/** What an opponent was seen doing (decayed each round). */
export type OppStats = { onMe: number; onOthers: number; defensive: number };

/** An agent's private memory: closures keep it, keyed by turn where it matters. */
export type Memory = {
  turn: number;
  plan: RoundPlan | null;
  talked: boolean;
  /** Kinetic intents of our attacks last round and this round (repeating one costs exposure). */
  kineticPrev: KineticIntent[];
  kineticNow: KineticIntent[];
  /** Seat → last turn through which we promised not to attack it. */
  peace: Map<string, number>;
  /** Seats we threatened this round. */
  threatened: Set<string>;
  /** Damage we aimed at a seat, decayed: those seats are likely to retaliate. */
  hurt: Map<string, number>;
  stats: Map<string, OppStats>;
  seen: Set<string>;
  attacksThisTurn: number;
};

export const newMemory = (): Memory => ({
  turn: -1,
  plan: null,
  talked: false,
  kineticPrev: [],
  kineticNow: [],
  peace: new Map(),
  threatened: new Set(),
  hurt: new Map(),
  stats: new Map(),
  seen: new Set(),
  attacksThisTurn: 0,
});

/** Rolls the memory over to a new round: last round's intents become "previous", stats decay. */
export function touch(m: Memory, turn: number): void {
  if (m.turn === turn) return;
  m.kineticPrev = m.turn === turn - 1 ? m.kineticNow : [];
  m.kineticNow = [];
  m.turn = turn;
  m.plan = null;
  m.talked = false;
  m.threatened.clear();
  m.seen.clear();
  m.attacksThisTurn = 0;
  for (const s of m.stats.values()) {
    s.onMe *= 0.7;
    s.onOthers *= 0.7;
    s.defensive *= 0.7;
  }
  for (const [k, h] of m.hurt) m.hurt.set(k, h * 0.5);
  for (const [k, t] of m.peace) if (t < turn) m.peace.delete(k);
}

export const statsOf = (m: Memory, id: string): OppStats => {
  let s = m.stats.get(id);
  if (!s) {
    s = { onMe: 0, onOthers: 0, defensive: 0 };
    m.stats.set(id, s);
  }
  return s;
};

/** Learns who attacks whom from this round's stack as far as the seat can see it. */
export function observe(m: Memory, v: View): void {
  for (const e of v.r.public_world_view.stack) {
    if (e.player_id === v.id || m.seen.has(e.action_id)) continue;
    m.seen.add(e.action_id);
    const s = statsOf(m, e.player_id);
    if (e.target_player_id === v.id) s.onMe += 1;
    else if (e.target_player_id) s.onOthers += 1;
    else if (!e.card || e.card.type === 'guard' || e.card.type === 'mask' || e.card.type === 'trap') s.defensive += 1;
  }
  const incoming = v.r.constraints.incoming_attack;
  if (incoming && !m.seen.has(incoming.action_id)) {
    m.seen.add(incoming.action_id);
    statsOf(m, incoming.attacker_player_id).onMe += 1;
  }
}

/** Whether our word binds us not to attack this seat now. */
export const promised = (m: Memory, id: string): boolean => (m.peace.get(id) ?? -1) >= m.turn;
