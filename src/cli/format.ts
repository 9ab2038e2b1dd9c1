/** Small number formats shared by the summary and the transcript. */

export const pct = (x: number | null | undefined, digits = 1): string => (x == null ? '–' : `${(x * 100).toFixed(digits)}%`);

export const int = (n: number): string => Math.round(n).toLocaleString('en-US');

/** A signed delta: +2, −1 (a real minus sign reads better in a table). */
export const signed = (n: number, digits = 0): string => `${n < 0 ? '−' : '+'}${Math.abs(n).toFixed(digits)}`;

export const num = (x: number | null | undefined, digits = 2): string => (x == null ? '–' : x.toFixed(digits));

/** The first `left` columns left-aligned, the others right-aligned, two spaces apart. */
export function table(rows: readonly (readonly string[])[], left = 1): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd());
}
