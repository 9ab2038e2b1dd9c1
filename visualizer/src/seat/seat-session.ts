import { batch, signal } from '@preact/signals';
import type { TurnPlanRequest } from '../../../src/protocol/index.js';
import { foldView, type GameEvent, type StateView } from '../../../src/view/index.js';
import { errorMessage } from '../lib/api.js';
import { fetchEvents, fetchSnapshot, type WireEvent } from '../game/history.js';

/** The pending decision as the seat page holds it: the request, and when its time runs out (performance.now() ms). */
export type Pending = { requestId: string; request: TurnPlanRequest; timeoutMs: number | null; deadline: number | null };

/** What became of a submitted answer. */
export type Sent = { ok: true } | { ok: false; code: string; message: string; status: number };

/** Polling: quick after a change, slower while nothing moves, never a tight loop. */
export const POLL = { first: 400, max: 3000, factor: 1.5 } as const;

/**
 * One human seat's connection to its game, for the seat page: the seat's projected events and
 * state (the seat token reads that view only), and its pending decision request. It polls both
 * with a backoff (no socket room takes a seat token yet). A request that leaves the desk without
 * an answer from this page timed out: `timedOut` says which window, so the page can say so.
 */
export class SeatSession {
  readonly view = signal<StateView | null>(null);
  readonly events = signal<readonly WireEvent[]>([]);
  readonly pending = signal<Pending | null>(null);
  readonly ended = signal(false);
  readonly error = signal<string | null>(null);
  /** The window of the last decision whose time ran out before this page answered it. */
  readonly timedOut = signal<string | null>(null);

  private head = 0;
  private delay: number = POLL.first;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly abort = new AbortController();
  private readonly answered = new Set<string>();
  private closed = false;

  constructor(
    readonly gameId: string,
    readonly playerId: string,
    private readonly token: string,
  ) {}

  private path(p: string): string {
    return `/games/${encodeURIComponent(this.gameId)}/seats/${encodeURIComponent(this.playerId)}/${p}`;
  }

  private get auth(): Record<string, string> {
    return { authorization: `Bearer ${this.token}` };
  }

  /** The seat's table from seq 0, then the polling loop. */
  async start(): Promise<void> {
    try {
      const base = await fetchSnapshot(this.gameId, this.playerId, 0, this.abort.signal, this.token);
      this.view.value = base.state as StateView;
      this.head = 0;
      await this.tick();
    } catch (e) {
      this.fail(e);
    }
  }

  close(): void {
    this.closed = true;
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
  }

  /** Sends the answer to the pending request; a refusal keeps the request pending (try again). */
  async submit(decision: unknown): Promise<Sent> {
    const p = this.pending.peek();
    if (!p) return { ok: false, status: 409, code: 'seat/nothing_pending', message: 'nothing is waiting for your answer' };
    const res = await fetch(this.path('decision'), { method: 'POST', headers: { ...this.auth, 'content-type': 'application/json' }, body: JSON.stringify({ requestId: p.requestId, decision }) });
    if (res.status === 202) {
      this.answered.add(p.requestId);
      this.pending.value = null;
      this.soon();
      return { ok: true };
    }
    const body = (await res.json().catch(() => ({}))) as { code?: unknown; message?: unknown };
    return { ok: false, status: res.status, code: typeof body.code === 'string' ? body.code : `http/${res.status}`, message: typeof body.message === 'string' ? body.message : res.statusText };
  }

  /** Polls again soon (after an answer the game moves at once). */
  private soon(): void {
    this.delay = POLL.first;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), POLL.first / 2);
  }

  private async tick(): Promise<void> {
    this.timer = null;
    if (this.closed) return;
    try {
      const moved = (await this.pullEvents()) || (await this.pullRequest());
      if (this.closed) return;
      this.delay = moved ? POLL.first : Math.min(POLL.max, Math.round(this.delay * POLL.factor));
      if (!this.ended.peek()) this.timer = setTimeout(() => void this.tick(), this.delay);
    } catch (e) {
      if (this.closed) return;
      // A network blip: say so, and keep asking at the slowest pace.
      this.error.value = e instanceof Error ? e.message : String(e);
      this.delay = POLL.max;
      this.timer = setTimeout(() => void this.tick(), this.delay);
    }
  }

  /** New events of the seat's view, folded; true when there were any. */
  private async pullEvents(): Promise<boolean> {
    const got = await fetchEvents(this.gameId, this.playerId, this.head, this.abort.signal, this.head, this.token);
    const fresh = got.events.filter((e) => e.seq > this.head);
    if (fresh.length === 0) return false;
    let view = this.view.peek()!;
    for (const e of fresh) {
      try {
        view = foldView(view, e as unknown as GameEvent, { role: 'seat', player_id: this.playerId });
      } catch {
        // The shared reducer could not fold it: take the server's own state there.
        view = (await fetchSnapshot(this.gameId, this.playerId, e.seq, this.abort.signal, this.token)).state as StateView;
      }
      this.head = e.seq;
    }
    batch(() => {
      this.view.value = view;
      this.events.value = [...this.events.peek(), ...fresh];
      if (fresh.some((e) => e.type === 'game_ended')) this.ended.value = true;
      this.error.value = null;
    });
    // The request may have changed with the events: read it in the same tick.
    await this.pullRequest();
    return true;
  }

  /** The pending request; true when it changed. */
  private async pullRequest(): Promise<boolean> {
    const res = await fetch(this.path('request'), { headers: this.auth, signal: this.abort.signal });
    if (res.status !== 200 && res.status !== 204) throw new Error(await errorMessage(res));
    const before = this.pending.peek();
    const input = res.status === 200 ? ((await res.json()) as { requestId: string; input: TurnPlanRequest }) : null;
    if (input?.requestId === before?.requestId) return false;
    if (before && !this.answered.has(before.requestId)) this.timedOut.value = before.request.window;
    if (!input) {
      this.pending.value = null;
      return true;
    }
    const timeout = Number(res.headers.get('Decision-Timeout-Ms'));
    const remaining = Number(res.headers.get('Decision-Remaining-Ms'));
    const known = res.headers.has('Decision-Remaining-Ms') && Number.isFinite(remaining);
    this.pending.value = { requestId: input.requestId, request: input.input, timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : null, deadline: known ? performance.now() + remaining : null };
    return true;
  }

  private fail(e: unknown): void {
    if (this.closed) return;
    this.error.value = e instanceof Error ? e.message : String(e);
  }
}
