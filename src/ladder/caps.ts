import type { EntrantRecord, LadderStore } from '../store/index.js';

/** An LLM entrant's money this deal: how much it may still spend (USD), or why it may not play. */
export type Headroom = { agent: string; usd: number } | { agent: string; capped: string };

/** Midnight UTC of `now`: the daily cap's day. */
export const dayStart = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/**
 * What each capped entrant may still spend: the least of its daily cap less today's recorded cost
 * (UTC day) and its total cap less all of it. At or under zero it is benched (not suspended: it
 * plays again the next day, or once its cap is raised). Entrants with no cap are left out.
 */
export async function headroom(ladders: LadderStore, ladderId: string, entrants: readonly EntrantRecord[], now: Date): Promise<Headroom[]> {
  const out: Headroom[] = [];
  for (const e of entrants) {
    if (e.max_usd_per_day === null && e.max_usd_total === null) continue;
    const room: number[] = [];
    if (e.max_usd_total !== null) room.push(e.max_usd_total - (await ladders.spend(ladderId, e.agent)));
    if (e.max_usd_per_day !== null) room.push(e.max_usd_per_day - (await ladders.spend(ladderId, e.agent, dayStart(now))));
    const usd = Math.min(...room);
    out.push(usd > 0 ? { agent: e.agent, usd } : { agent: e.agent, capped: `at its cap (${e.max_usd_total !== null && room[0]! <= 0 ? `$${e.max_usd_total} in all` : `$${e.max_usd_per_day} a day`})` });
  }
  return out;
}
