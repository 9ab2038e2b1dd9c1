import { getJson } from '../lib/api.js';

/** A projected event as the API and the socket send it (the fields the player relies on). */
export type WireEvent = { seq: number; turn: number; phase: string; type: string; payload: Record<string, unknown> } & Record<string, unknown>;

export type SnapshotResponse = { game_id: string; seq: number; last_seq: number; state_hash: string; state: unknown };
type EventsPage = { events: WireEvent[]; last_seq: number; next_after: number };

const q = (view: string): string => `view=${encodeURIComponent(view)}`;

/** `GET /games/:id/snapshot?seq=&view=`: the viewer's projected state after `seq`. */
export function fetchSnapshot(gameId: string, view: string, seq?: number, signal?: AbortSignal): Promise<SnapshotResponse> {
  return getJson<SnapshotResponse>(`/games/${encodeURIComponent(gameId)}/snapshot?${q(view)}${seq === undefined ? '' : `&seq=${seq}`}`, signal);
}

/**
 * Every event after `after` up to the head this viewer may see, in pages of 1,000, in seq order.
 * Returns the events and the head the last page reported.
 */
export async function fetchEvents(gameId: string, view: string, after: number, signal?: AbortSignal): Promise<{ events: WireEvent[]; head: number }> {
  const events: WireEvent[] = [];
  let cursor = after;
  let head = after;
  for (;;) {
    const page = await getJson<EventsPage>(`/games/${encodeURIComponent(gameId)}/events?${q(view)}&after=${cursor}&limit=1000`, signal);
    events.push(...page.events);
    head = page.last_seq;
    if (page.events.length === 0 || page.next_after >= page.last_seq) break;
    cursor = page.next_after;
  }
  return { events, head };
}

/** The game's record (status, seats, options). */
export type GameRecordView = {
  game_id: string;
  status: 'created' | 'running' | 'ended' | 'aborted';
  seats: { seat: number; player_id: string; agent: string; display_name?: string }[];
  last_seq: number;
  options: { spectator_delay_ms?: number } & Record<string, unknown>;
  placements: { player_id: string; placement: number }[] | null;
};

export const fetchGame = (gameId: string, signal?: AbortSignal): Promise<GameRecordView> => getJson<GameRecordView>(`/games/${encodeURIComponent(gameId)}`, signal);
