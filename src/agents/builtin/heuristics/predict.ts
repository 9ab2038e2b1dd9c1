import type { BehaviorShift, EmotionalIntent, PlayerPublicState } from '../../../protocol/index.js';
import { statsOf, type Memory } from './memory.js';
import { readEmotion, type View } from './view.js';

const REASONS: Record<BehaviorShift, string> = {
  defensive: 'the fear shows; expect guards, masks and traps instead of swings',
  retaliate: 'they are angry and we just hurt them; expect them to hit back at us',
  lash_out: 'they have been swinging at the rest of the table; expect more of it',
  reckless: 'they are tilting; expect overreach and a misplay',
  withdrawn: 'no tempo and a thin hand; expect them to sit the round out',
};

/**
 * A behaviour-shift read of an attack's target, from what its tell and the table show: visible fear
 * → defensive, tilt → reckless, nothing to play with → withdrawn, anger or our own hits →
 * retaliate, a habit of attacking others → lash_out; failing all that, what the pushed emotion does.
 */
export function predictShift(v: View, m: Memory, p: PlayerPublicState, emotion: EmotionalIntent): BehaviorShift {
  const fear = readEmotion(p, 'fear') ?? 0;
  const tilt = readEmotion(p, 'tilt') ?? 0;
  const anger = readEmotion(p, 'anger') ?? 0;
  const s = statsOf(m, p.player_id);
  if (fear >= 0.4 || (p.tell.dominant === 'fear' && !p.tell.masked)) return 'defensive';
  if (tilt >= 0.35) return 'reckless';
  if ((p.tempo === 0 && p.hand_count <= 2) || p.hand_count === 0) return 'withdrawn';
  if (anger >= 0.35 || s.onMe >= 1) return 'retaliate';
  if (s.onOthers >= 1.5 && s.onOthers > 2 * s.onMe) return 'lash_out';
  if (s.defensive >= 1.5 && s.onOthers + s.onMe < 0.5) return 'defensive';
  if ((m.hurt.get(p.player_id) ?? 0) >= 3) return 'retaliate';
  switch (emotion) {
    case 'fear':
      return p.exposure >= 4 ? 'defensive' : 'lash_out';
    case 'tilt':
    case 'overconfidence':
      return 'reckless';
    case 'anger':
      return 'retaliate';
    case 'shame':
    case 'paranoia':
      return 'lash_out';
  }
}

/** The AttackPlan's free text: the classified word first, then why. */
export const shiftText = (shift: BehaviorShift, targetName: string): string => `${shift}: ${targetName} — ${REASONS[shift]}`;
