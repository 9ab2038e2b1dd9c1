import type { StepContext } from '../context.js';
import { cardDef, defOf } from '../cards.js';
import { player } from '../players.js';
import type { PlayerId } from '../state.js';
import type { LegalPlay } from '../validate-action.js';
import { cardRef } from '../views-cards.js';

/** Submits a validated action: card and tempo are committed now, effects wait for resolve. */
export function submitAction(ctx: StepContext, id: PlayerId, play: LegalPlay, notes: string[] = []): void {
  const s = ctx.state;
  if (play.kind === 'pass') {
    ctx.emit('action_submitted', { action_id: `act_${s.game_id.slice(5)}_${s.next_action}`, player_id: id, kind: 'pass', target_player_id: null, tempo_paid: 0, forced: false, rules_notes: notes });
    return;
  }
  const actionId = `act_${s.game_id.slice(5)}_${s.next_action}`;
  const def = play.def!;
  const target = play.payload.target_player_id ?? null;
  const faceDown = play.kind === 'play_card' && def.faceDown;
  ctx.emit(
    'action_submitted',
    {
      action_id: actionId,
      player_id: id,
      kind: play.kind,
      action: {
        action_id: actionId,
        game_id: s.game_id,
        turn: s.turn,
        phase: s.phase,
        player_id: id,
        kind: play.kind,
        payload: play.payload,
        submitted_at: ctx.ts,
      },
      card: faceDown ? null : cardRef(play.card_id!, def),
      target_player_id: target,
      attack_plan: play.attack_plan,
      tempo_paid: play.tempo,
      forced: false,
      rules_notes: notes,
    },
    faceDown ? [{ key: 'action', to: [id] }] : [{ key: 'attack_plan', to: [id] }],
  );
  if (play.attack_plan && target) offerReaction(ctx, actionId, id, target);
}

/** A seat forced to pass (its answers were rejected twice, or it had no valid answer). */
export function forcePass(ctx: StepContext, id: PlayerId, reason: string): void {
  const s = ctx.state;
  ctx.emit('action_submitted', { action_id: `act_${s.game_id.slice(5)}_${s.next_action}`, player_id: id, kind: 'pass', target_player_id: null, tempo_paid: 0, forced: true, rules_notes: [reason] });
}

/** The guards in hand the target can pay for, best first (Brace prevents more and is free). */
export function affordableGuards(ctx: StepContext, target: PlayerId): string[] {
  const s = ctx.state;
  const p = player(s, target);
  return p.hand
    .filter((c) => {
      const d = defOf(s, c);
      return d.reactionOnly && d.tempo <= p.tempo;
    })
    .sort((a, b) => defOf(s, b).prevent - defOf(s, a).prevent);
}

/**
 * Rules brief: an attack on a seat holding a Guard asks that seat once to react. In full windows
 * every attacked seat is asked, guard or not — asking only guard holders would tell the table who
 * holds one. Compact windows answer for the seat (its best affordable guard): one call per round.
 */
function offerReaction(ctx: StepContext, actionId: string, attacker: PlayerId, target: PlayerId): void {
  if (ctx.state.rules.windows === 'compact') {
    const guards = affordableGuards(ctx, target);
    if (guards.length === 0) return;
    const cardId = guards[0]!;
    const def = cardDef(ctx.state.cards[cardId] ?? '');
    ctx.emit('reaction_submitted', { player_id: target, action_id: actionId, card: cardRef(cardId, def), tempo_paid: def.tempo });
    return;
  }
  ctx.emit('reaction_requested', { player_id: target, action_id: actionId, attacker_player_id: attacker });
}
