import type { AffectiveEffect, AttackPlan, CardRef, ContestRecord, GameEvent, ManipulationOutcome, TacticalEffect } from '../protocol/index.js';

/** How an attack resolved, as far as the view may see (`affective` and `manipulation` are hidden until the view may see everything). */
export type AttackResolution = {
  seq: number;
  tactical: TacticalEffect;
  affective: AffectiveEffect | null;
  manipulation: ContestRecord | null;
  outcome: ManipulationOutcome | null;
  manipulation_success: boolean | null;
  observed_shift: string | null;
  slipped: boolean;
  fizzled: boolean;
  rules_notes: string[];
};

/** One attack: who, on whom, with what card and plan (null while hidden from this view), and its resolution once resolved. */
export type AttackRow = {
  action_id: string;
  seq: number;
  turn: number;
  actor: string;
  target: string;
  card: CardRef | null;
  plan: AttackPlan | null;
  reaction_card: CardRef | null;
  resolution: AttackResolution | null;
};

/**
 * Every attack in a list of projected events, in submission order. A spectator sees the plan once
 * it resolves (plans are revealed at resolve); a seat sees its own at once.
 *
 * @example attackList(timeline.events()).filter((a) => a.resolution?.manipulation_success)
 */
export function attackList(events: readonly GameEvent[]): AttackRow[] {
  const rows = new Map<string, AttackRow>();
  for (const e of events) {
    if (e.type === 'action_submitted') {
      const p = e.payload;
      if (p.kind === 'pass' || !p.target_player_id) continue;
      rows.set(p.action_id, { action_id: p.action_id, seq: e.seq, turn: e.turn, actor: p.player_id, target: p.target_player_id, card: p.card ?? null, plan: p.attack_plan ?? null, reaction_card: null, resolution: null });
    } else if (e.type === 'reaction_submitted') {
      const row = rows.get(e.payload.action_id);
      if (row && e.payload.card) row.reaction_card = e.payload.card;
    } else if (e.type === 'action_resolved') {
      const p = e.payload;
      const target = p.attack_plan?.target_player_id ?? p.target_player_ids[0];
      if (!target) continue;
      let row = rows.get(p.action_id);
      if (!row) rows.set(p.action_id, (row = { action_id: p.action_id, seq: e.seq, turn: e.turn, actor: p.actor_player_id, target, card: p.card, plan: null, reaction_card: null, resolution: null }));
      row.plan = p.attack_plan ?? row.plan;
      row.card = p.card ?? row.card;
      row.resolution = {
        seq: e.seq,
        tactical: p.tactical_effect,
        affective: p.affective_effect ?? null,
        manipulation: p.manipulation ?? null,
        outcome: p.manipulation_outcome,
        manipulation_success: p.manipulation_outcome ? p.manipulation_outcome === 'success' : null,
        observed_shift: p.affective_effect?.observed_behavior_shift ?? null,
        slipped: p.slipped,
        fizzled: p.fizzled,
        rules_notes: p.rules_notes,
      };
    }
  }
  return [...rows.values()];
}
