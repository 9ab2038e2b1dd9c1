/**
 * The text colour that reads best on a fill: near-black or white, whichever has the higher WCAG
 * contrast with it. Heat-map cells take their fill from a colour scale, so a fixed threshold on
 * the scale's position misjudged the middle of it (3.5:1 where 4.5:1 is the floor for small text).
 *
 * @example inkOn('rgb(130, 126, 117)') // '#111'
 */
export function inkOn(fill: string): '#111' | '#fff' {
  const rgb = parse(fill);
  if (!rgb) return '#fff';
  const l = luminance(rgb);
  // Contrast with #111 (luminance ≈ 0.0056) against contrast with white (1).
  return (l + 0.05) / (0.0056 + 0.05) >= 1.05 / (l + 0.05) ? '#111' : '#fff';
}

/** `rgb(r, g, b)` (what d3's interpolators return) or `#rrggbb`. */
function parse(c: string): [number, number, number] | null {
  const m = /^rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\s*\)$/.exec(c) ?? /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(c);
  if (!m) return null;
  const radix = c.startsWith('#') ? 16 : 10;
  return [parseInt(m[1]!, radix), parseInt(m[2]!, radix), parseInt(m[3]!, radix)];
}

/** WCAG 2 relative luminance of an sRGB colour. */
function luminance([r, g, b]: [number, number, number]): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
