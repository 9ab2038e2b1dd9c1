import { useEffect, useMemo, useState } from 'preact/hooks';
import { SPEEDS, type Player } from './player.js';
import { findStop, stepStop, type PhaseStop } from './navigation.js';

export type MarkerLike = { seq: number; kind: string; label?: string };

const MARKER_LABEL: Record<string, string> = {
  elimination: 'elimination',
  manipulation: 'successful manipulation',
  broken_promise: 'broken promise',
  phase: 'phase start',
  round: 'round start',
};

type Props = { player: Player; stops: PhaseStop[]; markers: MarkerLike[]; live: boolean };

/** Inputs whose keys are not text: a click on the scrubber (a range) must not swallow the shortcuts. */
const NOT_TEXT = new Set(['range', 'button', 'submit', 'reset', 'checkbox', 'radio', 'color', 'file', 'image']);

/**
 * Whether a key press belongs to the focused control rather than the player: text being typed,
 * a select's own arrows. Everything else — the page, a button, the scrubber — hands keys to the
 * shortcuts (they used to stop working after any click on the scrubber, which keeps the focus).
 */
export function ownsKeys(t: EventTarget | null, key: string): boolean {
  if (!(t instanceof HTMLElement)) return false;
  if (t.isContentEditable || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT') return true;
  if (t instanceof HTMLInputElement) return !NOT_TEXT.has(t.type);
  // A focused button or link activates on Space and Enter itself (doing it twice would undo it);
  // so does an element acting as one (a speech bubble that opens).
  if ((t.tagName === 'BUTTON' || t.tagName === 'A' || t.tagName === 'SUMMARY' || t.getAttribute('role') === 'button') && (key === ' ' || key === 'Enter')) return true;
  return false;
}

/**
 * The player's controls: scrubber with markers, play/pause, speeds, step by event/phase/round,
 * jump to a round and phase, and the keyboard shortcuts (listed in the help line).
 */
export function Controls({ player, stops, markers, live }: Props) {
  const head = player.head.value;
  const cursor = player.cursor.value;
  const [turn, setTurn] = useState('');
  const [phase, setPhase] = useState('');
  const [jumpError, setJumpError] = useState<string | null>(null);
  const phases = [...new Set(stops.map((s) => s.phase))];

  const step = (dir: 1 | -1, by: 'event' | 'phase' | 'round') => {
    const c = player.cursor.value;
    player.pause();
    if (by === 'event') player.seek(c + dir);
    else {
      const to = stepStop(stops, c, dir, by);
      if (to !== null) player.seek(to);
      else player.seek(dir === 1 ? player.head.value : player.first);
    }
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (ownsKeys(e.target, e.key) || e.metaKey || e.ctrlKey || e.altKey) return;
      const k = e.key;
      let handled = true;
      if (k === ' ' || k === 'k') player.togglePlay();
      else if (k === 'ArrowRight') step(1, e.shiftKey ? 'phase' : 'event');
      else if (k === 'ArrowLeft') step(-1, e.shiftKey ? 'phase' : 'event');
      else if (k === ']') step(1, 'round');
      else if (k === '[') step(-1, 'round');
      else if (k === 'Home') player.seek(player.first);
      else if (k === 'End') player.seek(player.head.value);
      else if (k === 'l' && live) player.goLive();
      else if (k === '+' || k === '=') player.setSpeed(SPEEDS[Math.min(SPEEDS.length - 1, SPEEDS.indexOf(player.speed.value as (typeof SPEEDS)[number]) + 1)]!);
      else if (k === '-') player.setSpeed(SPEEDS[Math.max(0, SPEEDS.indexOf(player.speed.value as (typeof SPEEDS)[number]) - 1)]!);
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const jump = (e: Event) => {
    e.preventDefault();
    const t = Number(turn);
    if (!Number.isInteger(t)) return setJumpError('round must be a whole number');
    const to = findStop(stops, t, phase || null);
    if (to === null) return setJumpError(`round ${t}${phase ? ` ${phase}` : ''} is not in the log (yet)`);
    setJumpError(null);
    player.pause();
    player.seek(to);
  };

  // The same elements until the log grows: a seek does not diff hundreds of markers again.
  const markerRow = useMemo(
    () =>
      head > 0 &&
      markers
        .filter((m) => m.kind !== 'phase')
        .map((m) => <span key={`${m.kind}${m.seq}`} class={`marker ${m.kind}`} style={{ left: `${(100 * m.seq) / head}%` }} title={m.label ?? MARKER_LABEL[m.kind] ?? m.kind} />),
    [markers, head],
  );

  return (
    <section class="panel player" aria-label="Player">
      <div class="scrub">
        <div class="markers" aria-hidden="true">
          {markerRow}
        </div>
        <input
          type="range"
          min={player.first}
          max={head}
          value={cursor}
          aria-label="Event position"
          aria-valuetext={`event ${cursor} of ${head}`}
          data-testid="scrubber"
          data-history={player.history.value}
          onInput={(e) => {
            player.pause();
            player.seek(Number((e.target as HTMLInputElement).value));
          }}
        />
      </div>
      <div class="controls">
        <button type="button" onClick={() => step(-1, 'round')} title="Previous round ([)" aria-label="Previous round">
          ◀ round
        </button>
        <button type="button" onClick={() => step(-1, 'phase')} title="Previous phase (Shift+←)" aria-label="Previous phase">
          ◀ phase
        </button>
        <button type="button" onClick={() => step(-1, 'event')} title="Previous event (←)" aria-label="Previous event" data-testid="step-back">
          ◀
        </button>
        <button type="button" onClick={() => player.togglePlay()} aria-pressed={player.playing.value} data-testid="play" title="Play / pause (Space)">
          {player.playing.value ? 'Pause' : 'Play'}
        </button>
        <button type="button" onClick={() => step(1, 'event')} title="Next event (→)" aria-label="Next event" data-testid="step-forward">
          ▶
        </button>
        <button type="button" onClick={() => step(1, 'phase')} title="Next phase (Shift+→)" aria-label="Next phase" data-testid="next-phase">
          phase ▶
        </button>
        <button type="button" onClick={() => step(1, 'round')} title="Next round (])" aria-label="Next round" data-testid="next-round">
          round ▶
        </button>
        <label>
          speed{' '}
          <select value={String(player.speed.value)} onChange={(e) => player.setSpeed(Number((e.target as HTMLSelectElement).value))} data-testid="speed">
            {SPEEDS.map((s) => (
              <option key={s} value={String(s)}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        {live && (
          <button type="button" onClick={() => player.goLive()} aria-pressed={player.following.value} data-testid="go-live" title="Follow the live head (L)">
            ● live
          </button>
        )}
        <span class="muted" data-testid="position">
          event <b data-testid="cursor">{cursor}</b> / <span data-testid="head">{head}</span>
          {player.history.value === 'loading' && <span data-testid="history-loading"> · loading the history…</span>}
        </span>
        <form class="controls" onSubmit={jump} aria-label="Jump to a round">
          <label>
            round <input type="number" min={0} value={turn} onInput={(e) => setTurn((e.target as HTMLInputElement).value)} style={{ width: '4.5em' }} data-testid="jump-turn" />
          </label>
          <select value={phase} onChange={(e) => setPhase((e.target as HTMLSelectElement).value)} aria-label="phase" data-testid="jump-phase">
            <option value="">start</option>
            {phases.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
          <button type="submit" data-testid="jump">
            Jump
          </button>
          {jumpError && (
            <span class="error" role="alert">
              {jumpError}
            </span>
          )}
        </form>
      </div>
      <div class="legend" aria-hidden="true">
        <span>
          <i style={{ background: 'var(--bad)' }} />
          elimination
        </span>
        <span>
          <i style={{ background: 'var(--good)' }} />
          successful manipulation
        </span>
        <span>
          <i style={{ background: 'var(--seat-5)' }} />
          broken promise
        </span>
        <span>
          <i style={{ background: 'var(--line)' }} />
          round
        </span>
        <span class="keys-help" data-testid="keys-help">
          keys: <span class="kbd">Space</span> play · <span class="kbd">←/→</span> event · <span class="kbd">Shift+←/→</span> phase · <span class="kbd">[ ]</span> round · <span class="kbd">+/−</span> speed
          {live ? <> · <span class="kbd">L</span> live</> : null}
        </span>
      </div>
    </section>
  );
}
