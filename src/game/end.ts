import type { Placement } from '../protocol/index.js';
import type { StepContext } from './context.js';
import { drawCards } from './draw.js';
import { clamp, round4 } from './math.js';
import { alivePlayers } from './players.js';
import type { GameState, PlayerState } from './state.js';
import { tellOf } from './tells.js';
import { cardRefOf } from './views-cards.js';

/** End: seats at resolve ≤ 0 lose a life (or leave the game); the game ends on one seat or the cap. */
export function runEnd(ctx: StepContext): void {
  const s = ctx.state;
  const r = s.rules;
  for (const p of alivePlayers(s)) {
    if (p.resolve > 0) continue;
    const livesLeft = p.lives - 1;
    const discarded = p.hand.map((c) => cardRefOf(s, c));
    ctx.emit('life_lost', {
      player_id: p.player_id,
      lives_left: livesLeft,
      resolve_after: livesLeft > 0 ? r.resolve_after_life_lost : p.resolve,
      discarded,
    });
    if (livesLeft > 0) {
      drawCards(ctx, p.player_id, r.draw_after_life_lost, 'life_lost');
      const l = r.emotion.life_lost;
      const emotions = {
        ...p.emotions,
        shame: round4(clamp(p.emotions.shame + l.shame, -1, 1)),
        fear: round4(clamp(p.emotions.fear + l.fear, -1, 1)),
        tilt: round4(clamp(p.emotions.tilt + l.tilt, -1, 1)),
      };
      ctx.emit(
        'emotion_updated',
        { player_id: p.player_id, reason: 'life_lost', emotions, trust: { ...p.trust }, grievance: { ...p.grievance }, tell: tellOf(s, p, emotions) },
        [
          { key: 'emotions', to: [p.player_id] },
          { key: 'trust', to: [p.player_id] },
          { key: 'grievance', to: [p.player_id] },
        ],
      );
    } else {
      const arena = s.arena.filter((a) => a.owner === p.player_id).map((a) => cardRefOf(s, a.card_id));
      ctx.emit('player_eliminated', { player_id: p.player_id, discarded: arena });
    }
  }
  const alive = alivePlayers(s).length;
  if (alive <= 1 || s.turn >= r.round_cap) {
    ctx.emit('game_ended', {
      reason: alive === 1 ? 'last_seat_standing' : alive === 0 ? 'all_eliminated' : 'round_cap',
      rounds: s.turn,
      placements: placements(s),
    });
  }
}

/**
 * Rules brief: alive first, then lives, resolve, tempo (desc), exposure (asc); exact ties share a
 * placement. Among eliminated seats the later elimination ranks higher (a tie-break the brief leaves open).
 */
export function placements(s: GameState): Placement[] {
  const key = (p: PlayerState) => [p.alive ? 1 : 0, p.eliminated_turn ?? Number.MAX_SAFE_INTEGER, p.lives, p.resolve, p.tempo, -p.exposure];
  const cmp = (a: PlayerState, b: PlayerState) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i]! - ka[i]!;
    return 0;
  };
  const sorted = s.players.slice().sort((a, b) => cmp(a, b) || a.seat - b.seat);
  const out: Placement[] = [];
  sorted.forEach((p, i) => {
    const prev = i > 0 ? sorted[i - 1]! : null;
    const placement = prev && cmp(prev, p) === 0 ? out[i - 1]!.placement : i + 1;
    out.push({
      player_id: p.player_id,
      placement,
      alive: p.alive,
      lives: p.lives,
      resolve: p.resolve,
      tempo: p.tempo,
      exposure: p.exposure,
      eliminated_turn: p.eliminated_turn,
    });
  });
  return out;
}
