import { ApiError, getJson } from '../lib/api.js';
import type { Ladder, LadderSummary } from './ladder-types.js';

export type * from './ladder-types.js';

export const loadLadder = (id: string, signal?: AbortSignal): Promise<Ladder> => getJson<Ladder>(`/ladders/${encodeURIComponent(id)}`, signal);

/** The ladders, or null when this server has no ladders API (a 404): the lobby then shows no section. */
export async function listLadders(): Promise<LadderSummary[] | null> {
  try {
    return (await getJson<{ ladders: LadderSummary[] }>('/ladders')).ladders;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}
