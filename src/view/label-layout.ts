/**
 * Where the table puts its attack labels. A label sits on its arrow, but arrows between
 * neighbours run past the seat boxes, and a stack of attacks between the same two seats puts
 * several labels on nearly one line: drawn at their middles they covered each other and the
 * seats' names. Each label in turn takes the first spot, along its arrow and then nudged toward
 * the felt, that covers the least of what is already there (seat boxes, the felt's caption,
 * labels placed before it). Pure and deterministic: the same attacks always land in the same spots.
 *
 * Units are percent of the table's square box (seatPoint's).
 */
export type Point = { x: number; y: number };
type Rect = { x: number; y: number; w: number; h: number };

/** Sizes in percent of the ring (a 640–800 px square): a seat box ~196×200 px, a label ~150×80 px. */
export const LABEL_SIZE = { w: 21, h: 12 };
const SEAT_SIZE = { w: 28, h: 29 };
/** The felt's own caption (phase, round, deck) in its middle. */
const CAPTION: Rect = { x: 50, y: 50, w: 24, h: 12 };

// Along the arrow first (the middle, then out from it), then toward the felt's middle.
const ALONG = [0.5, 0.42, 0.58, 0.34, 0.66];
const TOWARD_CENTER = [0, 0.25, 0.45, 0.65];
// Then aside from the arrow, either way (percent of the table).
const ASIDE = [0, 8, -8, 15, -15];

const overlap = (a: Rect, b: Rect): number => {
  const w = Math.min(a.x + a.w / 2, b.x + b.w / 2) - Math.max(a.x - a.w / 2, b.x - b.w / 2);
  const h = Math.min(a.y + a.h / 2, b.y + b.h / 2) - Math.max(a.y - a.h / 2, b.y - b.h / 2);
  return w > 0 && h > 0 ? w * h : 0;
};

const clamp = (v: number, half: number) => Math.min(100 - half, Math.max(half, v));

/**
 * The centre of each arrow's label, in the arrows' order.
 *
 * @example placeLabels([{ from: seatPoint(0, 4), to: seatPoint(2, 4) }], [0, 1, 2, 3].map((i) => seatPoint(i, 4)))
 */
export function placeLabels(arrows: ReadonlyArray<{ from: Point; to: Point }>, seats: readonly Point[]): Point[] {
  const seatBoxes: Rect[] = seats.map((s) => ({ ...s, ...SEAT_SIZE }));
  const placed: Rect[] = [];
  return arrows.map(({ from, to }) => {
    const r = bestSpot(from, to, seatBoxes, placed);
    placed.push(r);
    return { x: Math.round(r.x * 100) / 100, y: Math.round(r.y * 100) / 100 };
  });
}

/** The first candidate spot that covers nothing, else the one covering least (plus a little for straying). */
function bestSpot(from: Point, to: Point, seats: readonly Rect[], placed: readonly Rect[]): Rect {
  const len = Math.hypot(to.x - from.x, to.y - from.y) || 1;
  const normal = { x: -(to.y - from.y) / len, y: (to.x - from.x) / len };
  let best: Rect | null = null;
  let bestCost = Infinity;
  for (const aside of ASIDE) {
    for (const pull of TOWARD_CENTER) {
      for (const t of ALONG) {
        const on = { x: from.x + (to.x - from.x) * t + normal.x * aside, y: from.y + (to.y - from.y) * t + normal.y * aside };
        const r: Rect = { x: clamp(on.x + (50 - on.x) * pull, LABEL_SIZE.w / 2), y: clamp(on.y + (50 - on.y) * pull, LABEL_SIZE.h / 2), ...LABEL_SIZE };
        // Covering another label hides it whole; covering a seat's edge or the caption hides less.
        const covered = placed.reduce((c, p) => c + 3 * overlap(r, p), 0) + seats.reduce((c, s) => c + overlap(r, s), 0) + overlap(r, CAPTION);
        if (covered === 0) return r;
        // Off its arrow a label is harder to pair with it: a little cost for the distance.
        const cost = covered + 5 * Math.abs(t - 0.5) + 10 * pull + 0.6 * Math.abs(aside);
        if (cost < bestCost) {
          bestCost = cost;
          best = r;
        }
      }
    }
  }
  return best!;
}
