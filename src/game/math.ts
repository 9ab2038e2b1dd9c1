/** Numeric helpers shared by the rules; all deterministic. */

export const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x);

/** Emotions and trust are kept to 4 decimals so logs stay short and readable. */
export const round4 = (x: number): number => Math.round(x * 1e4) / 1e4 + 0;

/** Rules brief: damage is rounded half away from zero. */
export const roundHalfAway = (x: number): number => Math.sign(x) * Math.round(Math.abs(x)) + 0;
