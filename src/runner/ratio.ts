/** A share rounded to 4 decimals; null when nothing was counted. */
export const ratio = (n: number, d: number): number | null => (d === 0 ? null : Math.round((n / d) * 1e4) / 1e4);
