import { seatColor } from './seat-color.js';

import type { SpeechLine } from '../../../src/view/index.js';

const MAX_LINES = 200;

/** The speech feed, newest first, announced politely to screen readers as it grows. Text only. */
export function SpeechPanel({ lines, names }: { lines: readonly SpeechLine[]; names: Map<string, string> }) {
  // Newest first: the latest line is in view without scrolling. Keys are positions in the whole
  // feed, so a new line (live) or a short seek adds and drops rows instead of rewriting them all.
  const start = Math.max(0, lines.length - MAX_LINES);
  const shown = lines.slice(start).map((l, i) => ({ l, key: start + i })).reverse();
  return (
    <section class="panel" aria-labelledby="speech-h">
      <h2 id="speech-h">Table talk</h2>
      {shown.length === 0 && <p class="muted">Nothing said yet.</p>}
      {
        <ol class="feed" aria-live="polite" aria-relevant="additions" data-testid="speech-feed">
          {shown.map(({ l, key }) => (
            <li key={key} class={l.channel === 'private' ? 'private' : undefined}>
              <span class="who" style={{ color: seatColor(l.speaker) }}>
                {names.get(l.speaker) ?? l.speaker}
              </span>
              {l.channel === 'private' && <span class="muted">→ {l.target ? (names.get(l.target) ?? l.target) : '?'} (private) </span>}
              {l.text === null ? <span class="muted">[private message]</span> : <span class="text">{l.text}</span>}
              {l.speech_act && <span class="act">{l.speech_act}</span>}
              <span class="act">r{l.turn}</span>
            </li>
          ))}
        </ol>
      }
    </section>
  );
}
