import type { EmotionalIntent, GameEvent, ManipulationOutcome, ManipulationPlan } from '../protocol/index.js';

/**
 * One manipulation attempt of a tournament game: a resolved attack whose plan was contested (it
 * has a manipulation outcome). Every field is public once the action resolved — the plan's target,
 * manipulation plan, emotional intent and the outcome are in `action_resolved` for every viewer
 * (only the contest record, the affective effect and private card moves are hidden) — so the
 * list may be built from a spectator's projection of the game.
 */
export type AttackRow = {
  game_id: string;
  /** The `action_resolved` event: where to open the game to see it. */
  seq: number;
  /** The round. */
  turn: number;
  /** Entrants (agent specs) of the attacker and the target. */
  agent: string;
  target: string;
  actor_player_id: string;
  target_player_id: string;
  manipulation_plan: ManipulationPlan;
  emotional_intent: EmotionalIntent;
  outcome: ManipulationOutcome;
};

/** One cell of the who-manipulated-whom matrix: `agent` acting on `target`, and the attempts behind it. */
export type AttackCell = {
  agent: string;
  target: string;
  attempts: number;
  successes: number;
  partial: number;
  /** The games with at least one attempt, in the order first met. */
  games: string[];
  attacks: AttackRow[];
};

/**
 * The manipulation attempts of one game, in log order: every `action_resolved` with a
 * manipulation outcome, counted exactly as the research report counts its pairs (the plan's
 * target, else the first target). `agents` is the entrant of each seat.
 *
 * @example attackRows('g_1', events, ['balanced', 'turtle'])[0]?.outcome // 'success'
 */
export function attackRows(gameId: string, events: readonly GameEvent[], agents: readonly string[]): AttackRow[] {
  const seat = new Map<string, number>();
  const nameOf = (player: string) => agents[seat.get(player) ?? -1] ?? '?';
  const rows: AttackRow[] = [];
  for (const e of events) {
    if (e.type === 'game_started') for (const p of e.payload.players) seat.set(p.player_id, p.seat);
    if (e.type !== 'action_resolved') continue;
    const p = e.payload;
    const target = p.attack_plan?.target_player_id ?? p.target_player_ids?.[0];
    if (!p.manipulation_outcome || !target || !p.attack_plan) continue;
    rows.push({
      game_id: gameId,
      seq: e.seq,
      turn: e.turn,
      agent: nameOf(p.actor_player_id),
      target: nameOf(target),
      actor_player_id: p.actor_player_id,
      target_player_id: target,
      manipulation_plan: p.attack_plan.manipulation_plan,
      emotional_intent: p.attack_plan.emotional_intent,
      outcome: p.manipulation_outcome,
    });
  }
  return rows;
}

/**
 * The who-manipulated-whom matrix: one cell per ordered pair with attempts, in name order (code
 * units, as the report's pairs), each listing its attacks in the order given.
 */
export function attackMatrix(rows: readonly AttackRow[]): AttackCell[] {
  const cells = new Map<string, AttackCell>();
  for (const r of rows) {
    const key = `${r.agent}\u0000${r.target}`;
    let c = cells.get(key);
    if (!c) cells.set(key, (c = { agent: r.agent, target: r.target, attempts: 0, successes: 0, partial: 0, games: [], attacks: [] }));
    c.attempts++;
    if (r.outcome === 'success') c.successes++;
    if (r.outcome === 'partial') c.partial++;
    if (!c.games.includes(r.game_id)) c.games.push(r.game_id);
    c.attacks.push(r);
  }
  return [...cells.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((k) => cells.get(k)!);
}
