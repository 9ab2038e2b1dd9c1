import { seatColor } from './seat-color.js';
import { useNewestRows } from './newest-rows.js';

import { plainSpeech, type SpeechLine } from '../../../src/view/index.js';

/** Lines drawn at first (and per "show earlier"): a few screens of the feed's scroll box. */
const PAGE = 30;

/**
 * The speech feed, newest first, announced politely to screen readers as it grows. Text only.
 * `lines` is the whole game's feed (computed once per log); the first `count` have been said by
 * the position on screen.
 */
export function SpeechPanel({ lines, count, names }: { lines: readonly SpeechLine[]; count: number; names: Map<string, string> }) {
  const { rows, more } = useNewestRows(lines, count, PAGE, 'lines');
  return (
    <section class="panel" aria-labelledby="speech-h">
      <h2 id="speech-h">Table talk</h2>
      {rows.length === 0 && <p class="muted">Nothing said yet.</p>}
      {
        <ol class="feed" aria-live="polite" aria-relevant="additions" data-testid="speech-feed" aria-labelledby="speech-h" tabIndex={0}>
          {rows.map(({ item: l, key }) => (
            <li key={key} class={l.channel === 'private' ? 'private' : undefined}>
              <span class="who" style={{ color: seatColor(l.speaker) }}>
                {names.get(l.speaker) ?? l.speaker}
              </span>
              {l.channel === 'private' && <span class="muted">→ {l.target ? (names.get(l.target) ?? l.target) : '?'} (private) </span>}
              {l.text === null ? <span class="muted">[private message]</span> : <span class="text">{plainSpeech(l.text, names)}</span>}
              {l.speech_act && <span class="act">{l.speech_act}</span>}
              <span class="act">r{l.turn}</span>
            </li>
          ))}
        </ol>
      }
      {more}
    </section>
  );
}
