import type { GameEvent, SpeechAct } from '../protocol/index.js';

/** One line of table talk as this view sees it: private text and labels are null where hidden. */
export type SpeechLine = {
  seq: number;
  turn: number;
  speaker: string;
  channel: 'public' | 'private';
  target: string | null;
  text: string | null;
  speech_act: SpeechAct | null;
};

/**
 * The speech feed: every statement, public text for all, private text and `speech_act` labels
 * only where the projection kept them. Text is untrusted: render it as text, never as HTML.
 */
export function speechFeed(events: readonly GameEvent[]): SpeechLine[] {
  const out: SpeechLine[] = [];
  for (const e of events) {
    if (e.type !== 'speech_posted') continue;
    const p = e.payload;
    out.push({ seq: e.seq, turn: e.turn, speaker: p.player_id, channel: p.channel, target: p.target_player_id, text: p.text ?? null, speech_act: p.speech_act ?? null });
  }
  return out;
}
