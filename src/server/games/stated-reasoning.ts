import type { GameEvent } from '../../protocol/index.js';
import type { EventStore, ReasoningRow } from '../../store/index.js';

/** What an LLM seat said of why it chose, as the broadcast shows it with the event its answer made. */
export type StatedReasoning = { player_id: string; window: string; text: string };

/** A projected event as the broadcast sends it: with the reasoning behind the decision that made it, if any. */
export type ReasonedEvent = GameEvent & { reasoning?: StatedReasoning[] };

/** The answer schema caps `reasoning` at 300 characters; traces from other releases or agents are cut to it too. */
export const MAX_STATED_REASONING = 300;

/**
 * The seq of the first event a decision's step made: the runner asks each seat at the state of
 * `seq_before` (the request id is `req_<game>_<seq>_<player>_<rejections>`, game/request.ts) and
 * commits the answer's events from `seq_before + 1`. Null for an id of another shape.
 */
export function decisionSeq(requestId: string): number | null {
  const m = /_(\d{1,10})_plr_\d{1,2}_\d{1,4}$/.exec(requestId);
  return m ? Number(m[1]) + 1 : null;
}

/**
 * A game's stated reasoning keyed by the seq of the event each decision made. The broadcast hands
 * a decision's reasoning out only attached to that event (withReasoning), so whatever holds the
 * event back — the spectator delay, the round rule, a held broadcast — holds its reasoning too:
 * nothing here decides what may be seen, the event's release does. Only the text is kept (never
 * the prompt, the calls or the rest of the trace). `refresh` reads on from the last trace it saw.
 *
 * @example const idx = new ReasoningIndex(store, 'game_ab12'); await idx.refresh(); withReasoning(event, idx)
 */
export class ReasoningIndex {
  private readonly bySeq = new Map<number, StatedReasoning[]>();
  private lastId = 0;
  private pending: Promise<void> | null = null;

  constructor(
    private readonly store: Pick<EventStore, 'readReasoning'>,
    private readonly gameId: string,
  ) {}

  /** Reads the traces recorded since the last refresh (one read at a time; a call during one waits for it, then reads on). */
  async refresh(): Promise<void> {
    while (this.pending) await this.pending;
    this.pending = this.store.readReasoning(this.gameId, this.lastId).then((rows) => this.add(rows));
    try {
      await this.pending;
    } finally {
      this.pending = null;
    }
  }

  /** The reasoning stated for the decision that made event `seq`. */
  at(seq: number): StatedReasoning[] | undefined {
    return this.bySeq.get(seq);
  }

  private add(rows: readonly ReasoningRow[]): void {
    for (const r of rows) {
      this.lastId = Math.max(this.lastId, r.id);
      const seq = decisionSeq(r.request_id);
      const text = r.reasoning.trim().slice(0, MAX_STATED_REASONING);
      if (seq === null || text === '') continue;
      const lines = this.bySeq.get(seq) ?? [];
      lines.push({ player_id: r.player_id, window: r.window, text });
      this.bySeq.set(seq, lines);
    }
  }
}

/**
 * The event with the reasoning of the decision that made it, for the broadcast view only: every
 * other view gets the event as it is (the public table never sees a seat's thinking; researchers
 * and admins read the traces themselves).
 */
export function withReasoning(event: GameEvent, view: { role: string }, index: Pick<ReasoningIndex, 'at'> | null): ReasonedEvent {
  if (view.role !== 'broadcast' || !index) return event;
  const lines = index.at(event.seq);
  return lines ? { ...event, reasoning: lines } : event;
}
