import type { EmotionVector } from '../protocol/index.js';
import type { RulesConfig } from './rules.js';

/** Rules brief, "Affect-driven errors": tilt, panic and overconfidence make a misplay likely. */
export function slipChance(e: EmotionVector, r: RulesConfig['slip']): number {
  return Math.min(
    r.cap,
    r.tilt * Math.max(0, e.tilt) + r.fear * Math.max(0, e.fear - r.fear_over) + r.confidence * Math.max(0, e.confidence - r.confidence_over),
  );
}
