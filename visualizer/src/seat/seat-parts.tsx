import { useMemo } from 'preact/hooks';
import { METER_EMOTIONS, cardFace, narrate, type GameEvent, type NarrationLine, type StateView } from '../../../src/view/index.js';
import type { PlayerPrivateState } from '../../../src/protocol/index.js';
import { Meters } from '../table/meters.js';
import type { WireEvent } from '../game/history.js';

const signed = (v: number) => (v >= 0 ? `+${v.toFixed(2)}` : `−${Math.abs(v).toFixed(2)}`);

/** The seat's hand with every card's text written out (a person plays from it; no hover needed). */
export function HandPanel({ me }: { me: PlayerPrivateState | undefined }) {
  const faces = (me?.hand ?? []).map(cardFace);
  return (
    <section class="panel" aria-labelledby="hand-h" data-testid="seat-hand">
      <h2 id="hand-h">Your hand ({faces.length})</h2>
      {faces.length === 0 ? (
        <p class="muted">No cards in hand.</p>
      ) : (
        <ul class="seat-hand">
          {faces.map((c) => (
            <li key={c.key} class={`seat-card t-${c.type}`} data-card={c.key} data-name={c.name}>
              <b>{c.name}</b> <span class="muted">{c.type}</span>
              {c.line && <span class="fx">{c.line}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What the seat feels (its own emotion vector, which only it sees) and whom it trusts. */
export function FeelingsPanel({ me, names }: { me: PlayerPrivateState | undefined; names: Map<string, string> }) {
  if (!me) return null;
  const e = me.emotion_state;
  const trust = Object.entries(e.trust);
  return (
    <section class="panel" aria-labelledby="feel-h" data-testid="seat-feelings">
      <h2 id="feel-h">How you feel</h2>
      <Meters meters={METER_EMOTIONS.map((emotion) => ({ emotion, value: e[emotion] }))} from="private" />
      {trust.length > 0 && (
        <p class="muted">
          Trust (−1 to +1):{' '}
          {trust.map(([id, v], i) => (
            <span key={id}>
              {i > 0 && ', '}
              {names.get(id) ?? id} {signed(v)}
            </span>
          ))}
        </p>
      )}
    </section>
  );
}

/** Story lines shown (newest first); older ones are in the game's own page once it is over. */
const STORY_LINES = 60;

/** The story so far as this seat saw it, newest first, in the shared narration's sentences. */
export function StoryPanel({ events, names }: { events: readonly WireEvent[]; names: Map<string, string> }) {
  const lines = useMemo<NarrationLine[]>(() => narrate(events as unknown as GameEvent[], { names }).lines, [events]);
  const shown = lines.slice(-STORY_LINES).reverse();
  return (
    <section class="panel" aria-labelledby="story-h">
      <h2 id="story-h">The story so far</h2>
      {shown.length === 0 && <p class="muted">Nothing has happened yet.</p>}
      <ol class="feed seat-story" data-testid="seat-story" aria-live="polite" aria-relevant="additions" tabIndex={0} aria-labelledby="story-h">
        {shown.map((l, i) => (
          <li key={`${l.seq}-${i}`} data-seq={l.seq}>
            <span class="muted">r{l.round} </span>
            {l.text}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The seat's own private view in a state (undefined before the deal). */
export const mine = (view: StateView, playerId: string): PlayerPrivateState | undefined => view.private.find((p) => p.player_id === playerId);
