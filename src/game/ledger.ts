import type { SpeechAct } from '../protocol/index.js';
import type { StepContext } from './context.js';
import { EffectBuilder } from './effect-builder.js';
import { currentRound } from './evolve.js';
import { alivePlayers, player } from './players.js';
import type { Commitment, GameState, PlayerId } from './state.js';

/** Speech acts aimed at a seat that enter the commitment ledger; a bluff enters with or without a target. */
export const enters = (act: SpeechAct, target: PlayerId | null): boolean =>
  act === 'bluff' || (target !== null && (act === 'promise' || act === 'concession' || act === 'threat' || act === 'warning'));

/** A promise or concession from `speaker` to `target` that is still binding. */
export const openPromise = (state: GameState, speaker: PlayerId, target: PlayerId): boolean =>
  state.ledger.some(
    (c) => c.speaker === speaker && c.target === target && (c.kind === 'promise' || c.kind === 'concession') && state.turn <= c.turn + 1,
  );

type Outcome = 'broken' | 'kept' | 'credible' | 'empty' | 'came_true' | 'expired' | 'called' | 'uncalled';

/** How one commitment stands at the end of this round's resolve; null while it is still open. */
function settle(state: GameState, c: Commitment, fx: EffectBuilder): Outcome | null {
  const r = state.rules.ledger;
  const round = currentRound(state);
  const lastRound = state.turn >= c.turn + 1;
  const attacked = (by: PlayerId, on: PlayerId | null) => on !== null && (round.attacks[by] ?? []).includes(on);
  const others = alivePlayers(state).filter((p) => p.player_id !== c.speaker);
  switch (c.kind) {
    case 'promise':
    case 'concession':
      if (attacked(c.speaker, c.target)) {
        fx.addExposure(c.speaker, r.broken_exposure);
        fx.addGrievance(c.target!, c.speaker, r.broken_grievance);
        if (c.public) for (const o of others) fx.addTrust(o.player_id, c.speaker, r.broken_public_trust);
        return 'broken';
      }
      if (!lastRound) return null;
      fx.addTrust(c.target!, c.speaker, r.kept_trust);
      return 'kept';
    case 'threat':
      if (attacked(c.speaker, c.target)) {
        fx.addEmotion(c.target!, { fear: r.credible_fear });
        return 'credible';
      }
      if (!lastRound) return null;
      fx.addEmotion(c.speaker, { dominance: r.empty_threat_dominance });
      return 'empty';
    case 'warning': {
      const cameTrue = Object.entries(round.attacks).some(([by, on]) => by !== c.speaker && on.includes(c.target!));
      if (cameTrue) {
        const listeners = c.public ? others : others.filter((o) => o.player_id === c.target);
        for (const o of listeners) fx.addTrust(o.player_id, c.speaker, r.warning_trust);
        return 'came_true';
      }
      return lastRound ? 'expired' : null;
    }
    case 'bluff': {
      const attackers = Object.entries(round.attacks).filter(([, on]) => on.includes(c.speaker)).map(([by]) => by);
      const first = state.initiative_order.find((id) => attackers.includes(id));
      if (first) {
        fx.addExposure(c.speaker, r.bluff_called_exposure);
        fx.addTempo(first, r.bluff_called_tempo);
        return 'called';
      }
      fx.addEmotion(c.speaker, { confidence: r.bluff_uncalled_confidence });
      return 'uncalled';
    }
    default:
      return 'expired';
  }
}

/**
 * Settles the ledger after the round's actions resolved (rules brief, "Commitment ledger"). One
 * event per resolve, always: which commitments settled is secret, their consequences public.
 */
export function settleLedger(ctx: StepContext): void {
  const s = ctx.state;
  const fx = new EffectBuilder(s);
  const settlements = [];
  for (const c of s.ledger) {
    if (!player(s, c.speaker).alive) continue;
    const outcome = settle(s, c, fx);
    if (!outcome) continue;
    settlements.push({ commitment_id: c.commitment_id, kind: c.kind, speaker_player_id: c.speaker, target_player_id: c.target, outcome });
  }
  ctx.emit('ledger_settled', { settlements, tactical_effect: fx.tactical(), affective_effect: fx.affective() }, [
    { key: 'settlements', to: [] },
    { key: 'affective_effect', to: [] },
  ]);
}
