import { CATALOG, cardDef } from './cards.js';

/**
 * One line of rules text per card, for people (the visualizer's card faces). The engine never
 * reads these: it reads the numbers in the catalog. The numbers here are the default rules'
 * (docs/rules.md, "Cards"); `cardLine` adds the catalog's own tempo, damage and affect in front.
 */
const TEXT: Readonly<Record<string, string>> = {
  Feint: 'Attack; may swing tempo or force a line.',
  Overreach: 'Attack with any kinetic intent; your own exposure +2.',
  Sever: 'Attack that breaks one of the target’s arena cards.',
  Strip: 'Attack; the target discards 2 cards or is locked out.',
  Brace: 'Reaction: prevents up to 3 damage; resistance +0.15.',
  Riposte: 'Reaction: prevents up to 2 damage; the attacker takes 2.',
  Composure: 'Arena for 2 rounds: resistance +0.2; own tilt −0.2 on play.',
  Snare: 'Face-down trap: a gambit against you costs the attacker 3 resolve and +2 exposure.',
  Tell: 'Face-down trap: an attack by a seat that promised you costs it 2 resolve; you gain 2 tempo.',
  Lockjaw: 'Face-down trap: a pressure card against you locks its attacker out and halves its affect.',
  'Poker Face': 'Mask for 2 rounds: tells hidden, resistance +0.15; own exposure −3 on play.',
  'False Tell': 'Face-down mask for 2 rounds: your tell shows a chosen emotion; the next attack on you is weaker.',
  Needle: 'Pressure attack; declares a kinetic intent without applying it.',
  Humiliate: 'Public pressure attack; the others trust the target 0.1 less.',
  Whisper: 'Private pressure attack naming a third seat; the target trusts it 0.2 less.',
  'Slow Burn': 'Ritual, fires after 3 upkeeps: every other seat −2 resolve, tilt +0.1.',
  Rebuild: 'Ritual, fires after 2 upkeeps: you +5 resolve (up to 12), confidence +0.2.',
};

/** Every catalog card has a line (checked by a unit test, so a new card cannot ship without one). */
export const CARD_TEXT_NAMES: readonly string[] = CATALOG.map((c) => c.name);

/**
 * The one-line effect of a card by its catalog name, with its cost in front; null for a name the
 * catalog does not know (a face-down card's placeholder, or a newer server's card).
 *
 * @example cardLine('Feint') // 'tempo 0 · 2 damage · affect 0.2 — Attack; may swing tempo or force a line.'
 */
export function cardLine(name: string): string | null {
  const text = TEXT[name];
  if (!text) return null;
  const def = cardDef(name);
  const cost = [`tempo ${def.tempo}`, def.damage ? `${def.damage} damage` : '', def.affect ? `affect ${def.affect}` : ''].filter(Boolean).join(' · ');
  return `${cost} — ${text}`;
}
