import type { GameEvent } from '../protocol/index.js';
import type { StateView } from '../game/views.js';

/** One directed cell: `from`'s trust in and grievance toward `to` (null where the view cannot see them) and the seqs that moved them. */
export type TrustCell = { from: string; to: string; trust: number | null; grievance: number | null; moved_by: number[] };
/** Seat × seat, row-major (`from` rows, `to` columns), without the diagonal. */
export type TrustMatrix = { seats: string[]; cells: TrustCell[] };

type Rows = Record<string, Record<string, number>>;

/**
 * The trust and grievance heatmap: values from the folded view's private emotion states (a seat
 * sees its own row, admins and researchers after the end every row), and per cell the events
 * that visibly moved it: resolutions and settlements whose affective effect (or the seat's own
 * slice of it) names the cell, and emotion updates that changed it.
 *
 * @example trustMatrix(view, events).cells.find((c) => c.from === 'plr_1' && c.to === 'plr_2')?.moved_by
 */
export function trustMatrix(view: StateView, events: readonly GameEvent[]): TrustMatrix {
  const seats = view.world.players.map((p) => p.player_id);
  const moved = new Map<string, Set<number>>();
  const mark = (from: string, to: string, seq: number) => {
    const k = `${from}>${to}`;
    let s = moved.get(k);
    if (!s) moved.set(k, (s = new Set()));
    s.add(seq);
  };
  const seen = new Map<string, number>();
  const observe = (kind: string, from: string, row: Record<string, number>, seq: number) => {
    for (const [to, x] of Object.entries(row)) {
      const k = `${kind}|${from}>${to}`;
      const before = seen.get(k);
      if (before !== undefined && before !== x) mark(from, to, seq);
      seen.set(k, x);
    }
  };
  const deltas = (seq: number, rows: Rows | undefined) => {
    for (const [from, row] of Object.entries(rows ?? {})) for (const [to, x] of Object.entries(row)) if (x !== 0) mark(from, to, seq);
  };
  for (const e of events) {
    if (e.type === 'action_resolved' || e.type === 'ledger_settled' || e.type === 'ritual_fired') {
      const a = e.payload.affective_effect;
      deltas(e.seq, a?.trust_delta);
      deltas(e.seq, a?.grievance_delta);
    }
    if (e.own) {
      const me = e.own.player_id;
      deltas(e.seq, e.own.trust_delta ? { [me]: e.own.trust_delta } : undefined);
      deltas(e.seq, e.own.grievance_delta ? { [me]: e.own.grievance_delta } : undefined);
    }
    if (e.type === 'emotion_updated' && e.payload.trust && e.payload.grievance) {
      observe('t', e.payload.player_id, e.payload.trust, e.seq);
      observe('g', e.payload.player_id, e.payload.grievance, e.seq);
    }
  }
  const cells: TrustCell[] = [];
  for (const from of seats) {
    const em = view.private.find((p) => p.player_id === from)?.emotion_state;
    for (const to of seats) {
      if (to === from) continue;
      cells.push({ from, to, trust: em?.trust[to] ?? null, grievance: em?.grievance[to] ?? null, moved_by: [...(moved.get(`${from}>${to}`) ?? [])].sort((a, b) => a - b) });
    }
  }
  return { seats, cells };
}
