import { placeLabels, type Arrow, type Link, type SeatScene } from '../../../src/view/index.js';
import { CardView } from './card-view.js';

type Point = { x: number; y: number };

/** The stretch of a seat-to-seat line drawn between the seat boxes (which cover its ends). */
const along = (a: Point, b: Point, t: number): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });

/** Two seats' lines in opposite directions are offset apart, so A→B and B→A both show. */
function offset(a: Point, b: Point, by: number): [Point, Point] {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const ox = (-dy / len) * by;
  const oy = (dx / len) * by;
  return [
    { x: a.x + ox, y: a.y + oy },
    { x: b.x + ox, y: b.y + oy },
  ];
}

type Props = { seats: SeatScene[]; arrows: Arrow[]; links: Link[]; names: Map<string, string> };

/**
 * What is drawn across the table: trust or grievance lines and the attacks in flight (SVG, decorative),
 * and each attack's label at its middle (text: its card, plan and outcome).
 */
export function TableOverlay({ seats, arrows, links, names }: Props) {
  const at = new Map(seats.map((s) => [s.player_id, s.at]));
  const name = (id: string) => names.get(id) ?? id;
  const drawn = arrows.filter((a) => at.has(a.from) && at.has(a.to));
  // Several attacks between the same two seats (a stack of them) get lanes side by side.
  const lanes = new Map<string, number>();
  const laneOf = new Map<string, number>();
  for (const a of drawn) {
    const pair = [a.from, a.to].sort().join(':');
    const n = lanes.get(pair) ?? 0;
    lanes.set(pair, n + 1);
    laneOf.set(a.action_id, n);
  }
  const ends = (a: Arrow): [Point, Point] => offset(at.get(a.from)!, at.get(a.to)!, 2.4 * laneOf.get(a.action_id)!);
  // Each label where it covers least of the seats and of the labels before it (label-layout.ts).
  const spots = placeLabels(
    drawn.map((a) => {
      const [from, to] = ends(a);
      return { from, to };
    }),
    seats.map((s) => s.at),
  );
  return (
    <>
      <svg class="overlay" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
        <defs>
          <marker id="arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" class="head" />
          </marker>
        </defs>
        {links.map((l) => {
          const [a, b] = offset(at.get(l.from) ?? { x: 50, y: 50 }, at.get(l.to) ?? { x: 50, y: 50 }, 0.9);
          const s = along(a, b, 0.2);
          const e = along(a, b, 0.8);
          return <line key={`${l.kind}:${l.from}:${l.to}`} class={`link ${l.kind}${l.value < 0 ? ' neg' : ''}`} x1={s.x} y1={s.y} x2={e.x} y2={e.y} stroke-width={1 + Math.abs(l.value) * 4} />;
        })}
        {drawn.map((a) => {
          const [p, q] = ends(a);
          const s = along(p, q, 0.25);
          const e = along(p, q, 0.8);
          return <line key={a.action_id} class={`arrow ${a.outcome}`} pathLength={100} x1={s.x} y1={s.y} x2={e.x} y2={e.y} marker-end="url(#arrowhead)" />;
        })}
      </svg>
      {drawn.map((a, i) => {
        const m = spots[i]!;
        return (
          <div key={a.action_id} class={`arrow-label ${a.outcome}`} style={{ left: `${m.x}%`, top: `${m.y}%` }} data-testid="attack-arrow" data-from={a.from} data-to={a.to} data-outcome={a.outcome}>
            <span class="who">
              {name(a.from)} → {name(a.to)}
            </span>
            {a.card ? <CardView card={a.card} /> : null}
            {a.reaction && (
              <span class="react">
                {' '}met with <CardView card={a.reaction} />
              </span>
            )}
            <span class="plan" data-testid="arrow-plan">
              {a.plan ? `${a.plan.manipulation_plan.replace(/_/g, ' ')} → ${a.plan.emotional_intent.replace(/_/g, ' ')}` : 'plan hidden'}
            </span>
            {/* The view model's word, as the attack list says it ("pending" in both). */}
            <span class={`outcome ${a.outcome}`} data-testid="arrow-outcome">
              {a.outcome}
            </span>
          </div>
        );
      })}
    </>
  );
}
