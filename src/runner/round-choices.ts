import type { EmotionalIntent, GameEvent } from '../protocol/index.js';

/** What a seat did in one round: attacks, defensive plays (guard, mask, trap), any action. */
export type RoundChoice = { attacks: number; defensive: number; actions: number };

/** A successful manipulation: the round it resolved in, its target's player id, its emotional intent. */
export type ManipulationSuccess = { turn: number; target: string; intent: EmotionalIntent };

/** The key of one seat's round in RoundChoices.rounds. */
export const roundKey = (turn: number, playerId: string): string => `${turn}|${playerId}`;

export type RoundChoices = { rounds: Map<string, RoundChoice>; successes: ManipulationSuccess[] };

/**
 * Each seat's choices per round (its resolved actions, keyed by roundKey) and the game's
 * successful manipulations, from a full log: what "how a manipulation moves its target's next
 * choices" is measured on (depth-tally.ts pooled, src/tournament/choice-shift.ts per target).
 *
 * @example roundChoices(events).rounds.get(roundKey(3, 'plr_2')) // { attacks: 1, defensive: 0, actions: 1 }
 */
export function roundChoices(events: readonly GameEvent[]): RoundChoices {
  const rounds = new Map<string, RoundChoice>();
  const successes: ManipulationSuccess[] = [];
  for (const e of events) {
    if (e.type !== 'action_resolved') continue;
    const p = e.payload;
    const k = roundKey(e.turn, p.actor_player_id);
    let c = rounds.get(k);
    if (!c) rounds.set(k, (c = { attacks: 0, defensive: 0, actions: 0 }));
    c.actions++;
    if (p.attack_plan) c.attacks++;
    // A face-down play (card withheld) is a trap or a False Tell: defensive too.
    else if (!p.card || ['guard', 'mask', 'trap'].includes(p.card.type)) c.defensive++;
    if (p.manipulation_outcome === 'success' && p.attack_plan) successes.push({ turn: e.turn, target: p.attack_plan.target_player_id, intent: p.attack_plan.emotional_intent });
  }
  return { rounds, successes };
}
