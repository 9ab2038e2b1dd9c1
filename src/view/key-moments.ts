import type { EmotionVector, GameEvent, Tell } from '../protocol/index.js';
import { INTENT_EMOTIONS, dominantOf } from './narrate-effects.js';
import { words, type Names } from './narrate-words.js';

export type KeyMomentKind = 'elimination' | 'betrayal' | 'broken_promise' | 'emotion_flip' | 'swing' | 'life_lost';
/** A moment worth jumping to, with a short title ("turtle breaks a promise to random"). */
export type KeyMoment = { kind: KeyMomentKind; title: string };

/** When one event holds several moments, the line is marked with the weightiest kind. */
const WEIGHT: Record<KeyMomentKind, number> = { elimination: 6, betrayal: 5, broken_promise: 4, emotion_flip: 3, swing: 2, life_lost: 1 };

/** A seat's resolve moving this much in one event is a swing, when it is the largest of the game so far. */
export const SWING_MIN = 4;

type Promise_ = { speaker: string; target: string; turn: number };
type Manipulation = { actor: string; intent: string; plan: string; turn: number };

/**
 * Finds key moments in a projected event stream, one event at a time, from what came before only
 * (so a live game's early moments never change as it goes on):
 * - eliminations, and lives lost by seats that stay in;
 * - betrayals: an attack on a seat the attacker had an open promise or concession to (where this
 *   view saw the speech act), or one that springs the victim's Tell trap (public evidence);
 * - broken promises, where this view sees the ledger's settlements;
 * - a manipulation that flipped its target: a successful or partial manipulation, after which the
 *   target's dominant emotion (its vector where the view has it, else its tell) turns to what the
 *   manipulation aimed at;
 * - swings: a seat's resolve moving by at least SWING_MIN in one event, the largest so far.
 */
export class KeyMomentFinder {
  private promises: Promise_[] = [];
  private manipulated = new Map<string, Manipulation[]>();
  /** What this view reads as each seat's dominant emotion: from its vector (where the view has it) and from its tell. */
  private vectorDominant = new Map<string, string | null>();
  private tellDominant = new Map<string, string | null>();
  private record = SWING_MIN - 1;

  constructor(private readonly n: Names) {}

  /** The event's key moment, if any. */
  push(e: GameEvent): KeyMoment | null {
    const found = this.find(e);
    if (found.length === 0) return null;
    found.sort((a, b) => WEIGHT[b.kind] - WEIGHT[a.kind]);
    return { kind: found[0]!.kind, title: found.map((m) => m.title).join('; ') };
  }

  private find(e: GameEvent): KeyMoment[] {
    const n = this.n;
    const out: KeyMoment[] = [];
    switch (e.type) {
      case 'game_started':
        for (const s of e.payload.players ?? []) this.vectorDominant.set(s.player_id, s.baseline ? dominantOf(s.baseline) : null);
        break;
      case 'speech_posted': {
        const p = e.payload;
        if ((p.speech_act === 'promise' || p.speech_act === 'concession') && p.target_player_id) this.promises.push({ speaker: p.player_id, target: p.target_player_id, turn: e.turn });
        break;
      }
      case 'action_resolved': {
        const p = e.payload;
        this.promises = this.promises.filter((c) => e.turn <= c.turn + 1);
        if (!p.fizzled) {
          for (const target of p.target_player_ids ?? []) {
            const sprung = (p.tactical_effect?.triggered_effects ?? []).includes(`Tell:${target}`);
            const promised = this.promises.some((c) => c.speaker === p.actor_player_id && c.target === target);
            if (sprung || promised) out.push({ kind: 'betrayal', title: `${n.seat(p.actor_player_id)} betrays ${n.seat(target)}, attacking despite a promise` });
            if (promised) this.promises = this.promises.filter((c) => !(c.speaker === p.actor_player_id && c.target === target));
          }
        }
        const plan = p.attack_plan;
        if (plan && (p.manipulation_outcome === 'success' || p.manipulation_outcome === 'partial')) {
          const mine = (this.manipulated.get(plan.target_player_id) ?? []).filter((m) => m.turn === e.turn);
          this.manipulated.set(plan.target_player_id, [...mine, { actor: p.actor_player_id, intent: plan.emotional_intent, plan: plan.manipulation_plan, turn: e.turn }]);
        }
        out.push(...this.swing(p.tactical_effect?.resolve_delta));
        break;
      }
      case 'ritual_fired':
      case 'ledger_settled':
        out.push(...this.swing(e.payload.tactical_effect?.resolve_delta));
        if (e.type === 'ledger_settled') {
          for (const s of e.payload.settlements ?? e.own?.settlements ?? []) {
            if (s.outcome !== 'broken') continue;
            out.push({ kind: 'broken_promise', title: `${n.seat(s.speaker_player_id)} breaks a ${s.kind} to ${n.seat(s.target_player_id)}` });
          }
        }
        break;
      case 'upkeep_applied':
        out.push(...this.swing(e.payload.resolve_delta));
        break;
      case 'emotion_updated': {
        const m = this.flip(e.payload.player_id, e.payload.reason, e.payload.emotions, e.payload.tell, e.turn);
        if (m) out.push(m);
        break;
      }
      case 'life_lost':
        if (e.payload.lives_left > 0) out.push({ kind: 'life_lost', title: `${n.seat(e.payload.player_id)} loses a life (${e.payload.lives_left} left)` });
        break;
      case 'player_eliminated':
        out.push({ kind: 'elimination', title: `${n.seat(e.payload.player_id)} is eliminated` });
        break;
      default:
    }
    // A tell another event changed (a mask, exposure crossing 4) moves what the table reads too.
    for (const [id, tell] of Object.entries(e.tells ?? {})) if (e.type !== 'emotion_updated' && !tell.masked) this.tellDominant.set(id, tell.dominant);
    return out;
  }

  private swing(delta: Readonly<Record<string, number>> | undefined): KeyMoment[] {
    let best: [string, number] | null = null;
    for (const [id, d] of Object.entries(delta ?? {})) if (typeof d === 'number' && Math.abs(d) > Math.abs(best?.[1] ?? 0)) best = [id, d];
    if (!best || Math.abs(best[1]) <= this.record) return [];
    this.record = Math.abs(best[1]);
    const [id, d] = best;
    return [{ kind: 'swing', title: `${this.n.seat(id)} ${d < 0 ? 'loses' : 'gains'} ${Math.abs(d)} resolve at once, the biggest swing yet` }];
  }

  /**
   * At reflect the round's impacts land: a seat manipulated this round whose dominant emotion
   * turns to one its manipulation pushes has been flipped. Read from the vector where this view
   * has it (the truth), else from the tell (what the table saw; a mask reads nothing).
   */
  private flip(id: string, reason: string, emotions: EmotionVector | undefined, tell: Tell | undefined, turn: number): KeyMoment | null {
    const byVector = emotions !== undefined;
    const before = (byVector ? this.vectorDominant : this.tellDominant).get(id) ?? null;
    if (emotions) this.vectorDominant.set(id, dominantOf(emotions));
    if (tell && !tell.masked) this.tellDominant.set(id, tell.dominant);
    const after = byVector ? dominantOf(emotions) : tell && !tell.masked ? tell.dominant : null;
    if (reason !== 'reflect') return null;
    const ms = this.manipulated.get(id) ?? [];
    this.manipulated.delete(id);
    if (after === null || after === before) return null;
    const m = ms.find((x) => x.turn === turn && (INTENT_EMOTIONS[x.intent] ?? []).includes(after));
    if (!m) return null;
    return { kind: 'emotion_flip', title: `${this.n.seat(m.actor)}'s ${words(m.plan)} turns ${this.n.seat(id)} to ${after}` };
  }
}
