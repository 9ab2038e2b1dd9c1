import type { CardMove } from '../protocol/index.js';
import { cardDef } from './cards.js';
import { engagementOf } from './rules.js';
import type { StepContext } from './context.js';
import { EffectBuilder } from './effect-builder.js';
import { alivePlayers, cardName, player } from './players.js';
import type { GameState, PlayerId } from './state.js';
import { cardRef } from './views-cards.js';

/**
 * Rules brief: sort alive seats by tempo (desc), ties by the base order rotated by the round number.
 */
export function initiativeFor(state: GameState, tempoAfter: (id: PlayerId) => number): PlayerId[] {
  const n = state.base_order.length;
  const rot = state.turn % n;
  const rotated = [...state.base_order.slice(rot), ...state.base_order.slice(0, rot)];
  const rank = new Map(rotated.map((id, i) => [id, i]));
  return rotated
    .filter((id) => player(state, id).alive)
    .sort((a, b) => tempoAfter(b) - tempoAfter(a) || rank.get(a)! - rank.get(b)!);
}

/** Upkeep: resolve drifts to baseline, tempo +1, arena clocks tick, rituals at 0 fire, statuses roll over. */
export function runUpkeep(ctx: StepContext): void {
  // Face-down cards' clocks are the owner's secret: a ticking face-down card would betray a False Tell.
  const s = ctx.state;
  const r = s.rules;
  const resolveDelta: Record<PlayerId, number> = {};
  const tempoDelta: Record<PlayerId, number> = {};
  // Rules 2.0.0: sitting out costs. The round before this one (the record just pushed is this round's).
  const eng = engagementOf(r);
  const last = s.rounds.length > 1 ? s.rounds[s.rounds.length - 2] : undefined;
  const idle = (id: PlayerId) => eng.idle_loss > 0 && s.turn >= eng.idle_from_round && !(last?.attacks[id]?.length);
  for (const p of alivePlayers(s)) {
    const gap = r.resolve_baseline - p.resolve;
    const a = r.attrition;
    const drift =
      s.turn >= a.from_round
        ? -(a.loss + Math.floor((s.turn - a.from_round) / a.step_every))
        : Math.sign(gap) * Math.min(Math.abs(gap), r.resolve_drift);
    const total = drift - (idle(p.player_id) ? eng.idle_loss : 0);
    if (total) resolveDelta[p.player_id] = total;
    const gain = Math.min(r.tempo_cap, p.tempo + r.tempo_per_upkeep) - p.tempo;
    if (gain) tempoDelta[p.player_id] = gain;
  }
  const ticks = [];
  const moves: CardMove[] = [];
  const firing: string[] = [];
  for (const a of s.arena) {
    if (a.face_down) {
      // A ticking face-down card would betray a False Tell, so its clock is not in the event: evolve
      // ticks face-down clocks itself (tickFaceDown, zones.ts). It still expires in public, face up.
      const rounds = a.rounds_left === null ? null : a.rounds_left - 1;
      if (rounds !== null && rounds < 0)
        moves.push({
          card_id: a.card_id,
          from: `arena:${a.owner}` as const,
          to: 'discard' as const,
          reason: 'expired',
        });
      continue;
    }
    const rounds = a.rounds_left === null ? null : a.rounds_left - 1;
    const countdown = a.countdown === null ? null : a.countdown - 1;
    if (rounds === a.rounds_left && countdown === a.countdown) continue;
    ticks.push({ card_id: a.card_id, rounds_left: rounds, countdown });
    if (rounds !== null && rounds < 0)
      moves.push({
        card_id: a.card_id,
        from: `arena:${a.owner}` as const,
        to: 'discard' as const,
        reason: 'expired',
      });
    if (countdown !== null && countdown <= 0) firing.push(a.card_id);
  }
  const lockedOut = s.players.filter((p) => p.alive && p.next_lockout).map((p) => p.player_id);
  const forced: Record<PlayerId, PlayerId> = {};
  for (const p of s.players)
    if (p.alive && p.next_forced_line) forced[p.player_id] = p.next_forced_line;
  ctx.emit('upkeep_applied', {
    initiative_order: initiativeFor(s, (id) => player(s, id).tempo + (tempoDelta[id] ?? 0)),
    resolve_delta: resolveDelta,
    tempo_delta: tempoDelta,
    locked_out: lockedOut,
    forced_lines: forced,
    arena_ticks: ticks,
    card_moves: moves,
  });
  for (const cardId of firing) fireRitual(ctx, cardId);
}

/** A ritual whose countdown reached 0 fires: at upkeep, or at once when hastened to 0. */
export function fireRitual(ctx: StepContext, cardId: string): void {
  const s = ctx.state;
  const entry = s.arena.find((a) => a.card_id === cardId);
  if (!entry) return;
  const name = cardName(s, cardId);
  const def = cardDef(name);
  const owner = entry.owner;
  const fx = new EffectBuilder(s);
  const notes: string[] = [];
  const e = s.rules.effects;
  if (name === 'Slow Burn') {
    for (const p of alivePlayers(s)) {
      if (p.player_id === owner) continue;
      fx.addResolve(p.player_id, e.slow_burn_resolve);
      fx.addEmotion(p.player_id, { tilt: e.slow_burn_tilt });
    }
    notes.push(
      `Slow Burn: every opponent ${e.slow_burn_resolve} resolve, tilt +${e.slow_burn_tilt}`,
    );
  } else if (name === 'Rebuild') {
    fx.addResolve(owner, e.rebuild_resolve, s.rules.resolve_baseline);
    fx.addEmotion(owner, { confidence: e.rebuild_confidence });
    notes.push(
      `Rebuild: +${e.rebuild_resolve} resolve (cap ${s.rules.resolve_baseline}), confidence +${e.rebuild_confidence}`,
    );
  }
  fx.moves.push({ card_id: cardId, from: `arena:${owner}`, to: 'discard', reason: 'ritual_fired' });
  ctx.emit(
    'ritual_fired',
    {
      card: cardRef(cardId, def),
      owner_player_id: owner,
      tactical_effect: fx.tactical(),
      affective_effect: fx.affective(),
      rules_notes: notes,
    },
    [{ key: 'affective_effect', to: [] }],
  );
}
