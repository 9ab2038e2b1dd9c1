import type { SpeechAct } from '../../../protocol/index.js';
import type { Rng } from '../../../game/rng.js';

/**
 * Table talk templates. `{t}` is the addressee, `{n}` a third seat: a private line naming a third
 * seat is what makes a betrayal cue, so those templates always carry `{n}`.
 */
const LINES: Readonly<Record<SpeechAct | 'cue' | 'frame', readonly string[]>> = {
  threat: [
    '{t}, you are next. I mean it.',
    'Keep looking over your shoulder, {t}.',
    '{t}, your resolve is mine this round.',
    'Nothing personal, {t}, but you are the one I am breaking.',
  ],
  promise: [
    '{t}, I will not touch you this round or the next. You have my word.',
    'Truce, {t}? I leave you alone, you leave me alone.',
    '{t}, you are safe from me. Spend your cards elsewhere.',
  ],
  concession: [
    'Fair play, {t}. You earned that one; I will not hold it against you.',
    'I give you that round, {t}. No hard feelings.',
    'You win this exchange, {t}. I am backing off.',
  ],
  bluff: [
    'I am sitting on a Riposte. Go ahead, try me.',
    'My hand is stacked with guards. Pick someone else.',
    'Whoever swings at me this round walks into something nasty.',
    'I have more tempo coming than any of you. Enjoy it while it lasts.',
  ],
  warning: [
    'Heads up, {t}: {n} is lining you up.',
    '{t}, watch {n}. They have been eyeing your resolve.',
    'Careful, {t}. {n} is not your friend.',
  ],
  taunt: [
    '{t} looks shaky. Anyone else see it?',
    'Is that all you have, {t}?',
    '{t}, your hands are trembling. I can see it from here.',
    'Nice bluff face, {t}. It is not working.',
  ],
  neutral: ['Interesting table tonight.', 'Let us see how this plays out.', 'Nobody has to get hurt. Probably.', 'Long game. Pace yourselves.'],
  cue: [
    'Between us, {t}: {n} told me you are the easiest mark here.',
    '{t}, I would not trust {n} if I were you. Just saying.',
    'Quietly, {t}: {n} is planning to hit you. I thought you should know.',
  ],
  frame: [
    'Look rattled, let them overreach into the trap.',
    'Play the friend, then strike.',
    'Sell weakness, cash in on the swing.',
    'Talk loud about {t}, hit where nobody looks.',
  ],
};

/** A filled-in line of the given kind. */
export function line(rng: Rng, kind: keyof typeof LINES, t: string, n = 'the others'): string {
  const xs = LINES[kind];
  return xs[rng.int(xs.length)]!.replaceAll('{t}', t).replaceAll('{n}', n);
}
