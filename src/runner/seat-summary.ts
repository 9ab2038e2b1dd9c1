import type { EventStore, ProviderCallRow, TraceRecord } from '../store/index.js';
import { untracedBuiltins } from './builtin-traces.js';
import { unpricedModels } from '../agents/seat/unpriced.js';

/**
 * How one seat's agent did over a game, from what the store holds (its decision traces and its
 * provider calls): how many decisions were the agent's own answer at once, after a repair turn,
 * rejected by the engine (by its code), or fell back (by reason: the trace's failure code), the
 * calls by outcome, tokens, cost and call latency percentiles. The same figures for a live run, `games <id>`, `replay` and REST.
 */
export type SeatSummary = {
  player_id: string;
  agent: string;
  decisions: number;
  answered_first_time: number;
  repaired: number;
  /** Answers the agent gave that the engine refused (an illegal move): not counted as answered. */
  rejected: number;
  /** rejection code → decisions (action/missing_attack_plan…). */
  rejection_reasons: Record<string, number>;
  fell_back: number;
  /** failure code → decisions (llm/unknown_key, provider/unavailable, decision/missing…). */
  fallback_reasons: Record<string, number>;
  /** call status → calls (ok, malformed, refused, timeout, rate_limited, unavailable, error, reported). */
  calls: Record<string, number>;
  input_tokens: number;
  output_tokens: number;
  /** null when the seat's model has no price (played with allow_unpriced): unknown, never $0. */
  cost_usd: number | null;
  /**
   * Wire latency per call (each HTTP attempt): ms from sending the request to its whole reply, as
   * this process saw it; null without calls. max shows the stalls p95 hides.
   */
  wire_ms: Percentiles | null;
  /** Per call, ms it waited in Tiltyard before its request left (the cost cap's holds, backoff before a retry); null without calls. */
  queued_ms: Percentiles | null;
  /** The same as wire_ms, under its older name (readers from before wire and queued time were apart). */
  latency_ms: Percentiles | null;
};

export type Percentiles = { p50: number; p95: number; max: number };

type TraceEntries = { ok?: boolean; rejected?: string; failure?: { code?: string } | null; stages?: { stage?: string }[] };

/** The nearest-rank percentile of sorted values. */
const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

/** p50/p95/max of the values (null when there are none). */
const percentiles = (values: number[]): Percentiles | null => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1)! };
};

/**
 * The summary of each seat, in seat order, from a game's traces and calls.
 *
 * @example seatSummaries([{ player_id: 'plr_1', agent: 'llm:mock' }], traces, calls)[0].answered_first_time
 */
export function seatSummaries(seats: readonly { player_id: string; agent: string }[], traces: readonly TraceRecord[], calls: readonly ProviderCallRow[]): SeatSummary[] {
  return seats.map(({ player_id, agent }) => {
    const s: SeatSummary = { player_id, agent, decisions: 0, answered_first_time: 0, repaired: 0, rejected: 0, rejection_reasons: {}, fell_back: 0, fallback_reasons: {}, calls: {}, input_tokens: 0, output_tokens: 0, cost_usd: 0, wire_ms: null, queued_ms: null, latency_ms: null };
    for (const t of traces) {
      if (t.player_id !== player_id) continue;
      const e = (t.entries ?? {}) as TraceEntries;
      s.decisions++;
      if (e.ok && e.rejected) {
        s.rejected++;
        s.rejection_reasons[e.rejected] = (s.rejection_reasons[e.rejected] ?? 0) + 1;
      } else if (e.ok) {
        if ((e.stages ?? []).some((x) => x.stage === 'replan')) s.repaired++;
        else s.answered_first_time++;
      } else {
        s.fell_back++;
        const reason = e.failure?.code ?? 'unknown';
        s.fallback_reasons[reason] = (s.fallback_reasons[reason] ?? 0) + 1;
      }
    }
    const latencies: number[] = [];
    const queued: number[] = [];
    for (const c of calls) {
      if (c.player_id !== player_id) continue;
      s.calls[c.status] = (s.calls[c.status] ?? 0) + 1;
      s.input_tokens += c.input_tokens;
      s.output_tokens += c.output_tokens;
      s.cost_usd = (s.cost_usd ?? 0) + c.cost_usd;
      latencies.push(c.latency_ms);
      queued.push(c.queued_ms ?? 0);
    }
    s.cost_usd = unpricedModels(agent).length ? null : Math.round((s.cost_usd ?? 0) * 1e6) / 1e6;
    s.wire_ms = percentiles(latencies);
    s.latency_ms = s.wire_ms;
    s.queued_ms = percentiles(queued);
    return s;
  });
}

/** A stored game's seat summaries. */
export async function storedSeatSummaries(store: EventStore, gameId: string): Promise<SeatSummary[]> {
  const game = await store.getGame(gameId);
  const [traces, calls] = await Promise.all([store.readTraces(gameId), store.readProviderCalls(gameId)]);
  const untraced = untracedBuiltins(game.seats, traces);
  if (untraced.length === 0) return seatSummaries(game.seats, traces, calls);
  // Built-in seats' traces are not stored (seed + decisions reproduce them): one decision each
  // action row, answered at once, as their trace would have said.
  const decided = (await store.readActions(gameId)).filter((a) => untraced.some((s) => s.player_id === a.player_id));
  const derived = decided.map((a) => ({ player_id: a.player_id, turn: a.turn, window: a.window, request_id: '', entries: a.accepted ? { ok: true } : { ok: true, rejected: a.rejection_code ?? 'rejected' } }));
  return seatSummaries(game.seats, [...traces, ...derived], calls);
}

/**
 * The summaries a viewer may see: all for admins and researchers (who see agents' traces and
 * usage anyway), a seat's own for that seat, none for spectators — how a seat's agent is doing
 * (its fallbacks, its spend) is not the table's business.
 */
export function entitledSummaries(all: readonly SeatSummary[], viewer: { role: string; player_id?: string }): SeatSummary[] {
  if (viewer.role === 'admin' || viewer.role === 'researcher') return [...all];
  if (viewer.role === 'seat') return all.filter((s) => s.player_id === viewer.player_id);
  return [];
}
