/**
 * A logical clock: simulated games stamp events deterministically so their logs hash the same.
 * Each call is one millisecond after the previous; the result is exactly `Date#toISOString`.
 */
export function logicalClock(startMs = Date.UTC(2026, 0, 1)): () => string {
  let tick = 0;
  // A Date and its ISO string per call cost about as much as a random seat's whole decision, so
  // the string up to the seconds is formatted once per second and only the milliseconds per call.
  let second = Number.NaN;
  let prefix = '';
  return () => {
    const ms = startMs + tick++;
    if (!Number.isSafeInteger(ms)) return new Date(ms).toISOString();
    const s = Math.floor(ms / 1000);
    if (s !== second) {
      const iso = new Date(ms).toISOString();
      // Years outside 0000–9999 come out as ±YYYYYY: keep the general path for those.
      if (iso.length !== 24) return iso;
      second = s;
      prefix = iso.slice(0, 20);
    }
    const frac = ms - s * 1000;
    return `${prefix}${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}Z`;
  };
}
