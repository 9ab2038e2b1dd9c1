import type { Meter } from '../../../src/view/index.js';
import { EMOTION_COLOURS } from './emotion-colours.js';

const fmt = (v: number) => (v >= 0 ? `+${v.toFixed(2)}` : `−${Math.abs(v).toFixed(2)}`);

/**
 * A seat's emotions as small signed meters on a −1 … +1 scale: the bar grows from the middle,
 * right for positive, left for negative (hatched), and the value is printed beside it. Each
 * emotion has its own colour (EMOTION_COLOURS, keyed by a swatch at its label and named in the
 * meter's tooltip and the table's legend).
 */
export function Meters({ meters, from }: { meters: Meter[]; from: 'private' | 'tell' | null }) {
  return (
    <div class="meters" role="group" aria-label={from === 'tell' ? 'emotions, read off its tell' : 'emotions'} data-testid="meters">
      {meters.map((m) => {
        const v = Math.max(-1, Math.min(1, m.value));
        // Geometry through the CSSOM (a style object), which the strict CSP allows.
        const fill = { left: `${50 + Math.min(0, v) * 50}%`, width: `${Math.abs(v) * 50}%` };
        const colour = EMOTION_COLOURS[m.emotion];
        return (
          <div key={m.emotion} class={`meter${v < 0 ? ' neg' : ''}`} style={{ '--emo': colour.hex }} title={`${m.emotion} (${colour.name}): ${fmt(v)} on −1 to +1`} role="meter" aria-label={m.emotion} aria-valuemin={-1} aria-valuemax={1} aria-valuenow={Number(v.toFixed(2))} aria-valuetext={`${m.emotion} ${fmt(v)} on −1 to +1`} data-emotion={m.emotion}>
            <span class="lbl" aria-hidden="true">
              {m.emotion}
            </span>
            <span class="bar" aria-hidden="true">
              <i style={fill} />
            </span>
            <span class="val" aria-hidden="true">
              {fmt(v)}
            </span>
          </div>
        );
      })}
    </div>
  );
}
