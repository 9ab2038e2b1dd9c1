import { getJson } from '../lib/api.js';
import type { ForkSummary } from '../../../src/view/lineage.js';

/** A projected event as the API and the socket send it (the fields the player relies on). */
export type WireEvent = { seq: number; turn: number; phase: string; type: string; payload: Record<string, unknown> } & Record<string, unknown>;

export type SnapshotResponse = { game_id: string; seq: number; last_seq: number; state_hash: string; state: unknown };
type EventsPage = { events: WireEvent[]; last_seq: number; next_after: number };

const q = (view: string): string => `view=${encodeURIComponent(view)}`;

/** `GET /games/:id/snapshot?seq=&view=`: the viewer's projected state after `seq` (with `bearer`, a seat token's view). */
export function fetchSnapshot(gameId: string, view: string, seq?: number, signal?: AbortSignal, bearer?: string): Promise<SnapshotResponse> {
  return getJson<SnapshotResponse>(`/games/${encodeURIComponent(gameId)}/snapshot?${q(view)}${seq === undefined ? '' : `&seq=${seq}`}`, signal, bearer);
}

const PAGE = 1000;

/**
 * Every event after `after` up to the head this viewer may see, in pages of 1,000, in seq order.
 * With `expectedHead` (the game record's last_seq), the pages up to it are asked for at once
 * rather than one after another; a shorter head (a delayed spectator) just ends the list early,
 * and a longer one (a live game that moved on) is read on page by page.
 */
export async function fetchEvents(gameId: string, view: string, after: number, signal?: AbortSignal, expectedHead = after, bearer?: string): Promise<{ events: WireEvent[]; head: number }> {
  const page = (from: number) => getJson<EventsPage>(`/games/${encodeURIComponent(gameId)}/events?${q(view)}&after=${from}&limit=${PAGE}`, signal, bearer);
  const starts: number[] = [];
  for (let from = after; from < expectedHead; from += PAGE) starts.push(from);
  const pages = await Promise.all(starts.map(page));
  const events: WireEvent[] = [];
  let head = after;
  for (const p of pages) {
    // Only contiguous pages count: one that does not start where the list ends is past the visible head.
    if (p.events.length === 0 || p.events[0]!.seq !== (events.at(-1)?.seq ?? after) + 1) break;
    events.push(...p.events);
    head = p.last_seq;
    if (p.next_after >= p.last_seq) return { events, head };
  }
  let cursor = events.at(-1)?.seq ?? after;
  for (;;) {
    const p = await page(cursor);
    events.push(...p.events);
    head = p.last_seq;
    if (p.events.length === 0 || p.next_after >= p.last_seq) break;
    cursor = p.next_after;
  }
  return { events, head };
}

/** The game's record (status, seats, options). */
export type GameRecordView = {
  game_id: string;
  status: 'created' | 'running' | 'ended' | 'aborted';
  seats: { seat: number; player_id: string; agent: string; display_name?: string }[];
  last_seq: number;
  options: { spectator_delay_ms?: number; spectators?: 'public' | 'broadcast'; broadcast_held?: boolean } & Record<string, unknown>;
  placements: { player_id: string; placement: number }[] | null;
  /** GET /games/:id's lineage (absent from a replay file): a fork's parent, the game's own forks. */
  parent?: { game_id: string; seq: number; round: number | null; same_deck?: boolean; reseed?: number; status: string | null } | null;
  forks?: ForkSummary[];
  fork_count?: number;
};

export const fetchGame = (gameId: string, signal?: AbortSignal): Promise<GameRecordView> => getJson<GameRecordView>(`/games/${encodeURIComponent(gameId)}`, signal);
