import type { EmotionVector, GameEvent, Tell } from '../protocol/index.js';

/** A seat's affect at one seq: its tell (what everyone sees), and its whole vector where this view has it. */
export type EmotionPoint = { seq: number; turn: number; tell: Tell | null; vector: EmotionVector | null };
/** Per seat, a point at every seq where its tell or (visible) vector changed. */
export type EmotionSeries = Record<string, EmotionPoint[]>;

/**
 * The emotion dashboard's data. Tells come from every event that changed one (public); vectors
 * from the public baselines at the start and from `emotion_updated` where the view keeps them (a
 * seat its own, admins and researchers after the end everyone's).
 *
 * @example emotionSeries(events)['plr_2']?.map((p) => p.vector?.tilt ?? null)
 */
export function emotionSeries(events: readonly GameEvent[]): EmotionSeries {
  const out: EmotionSeries = {};
  const last = new Map<string, EmotionPoint>();
  const push = (id: string, e: GameEvent, tell: Tell | undefined, vector: EmotionVector | undefined) => {
    const prev = last.get(id);
    const point: EmotionPoint = { seq: e.seq, turn: e.turn, tell: tell ?? prev?.tell ?? null, vector: vector ?? prev?.vector ?? null };
    (out[id] ??= []).push(point);
    last.set(id, point);
  };
  for (const e of events) {
    const vectors = new Map<string, EmotionVector>();
    if (e.type === 'game_started') for (const s of e.payload.players) vectors.set(s.player_id, s.baseline);
    if (e.type === 'emotion_updated' && e.payload.emotions) vectors.set(e.payload.player_id, e.payload.emotions);
    const tells = new Map<string, Tell>(Object.entries(e.tells ?? {}));
    if (e.type === 'emotion_updated') tells.set(e.payload.player_id, e.payload.tell);
    for (const id of new Set([...vectors.keys(), ...tells.keys()])) push(id, e, tells.get(id), vectors.get(id));
  }
  return out;
}
