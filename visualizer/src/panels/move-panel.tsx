import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { lineAt, stepMoment, type NarrationGroup } from '../../../src/view/index.js';
import { biggestSwings, keyMomentSeqs, type KeySwing } from '../../../src/eval/swings.js';
import type { WireEvent } from '../game/history.js';
import { NarrationLog } from '../game/narration.js';
import type { Player } from '../game/player.js';
import { ownsKeys } from '../game/controls.js';
import { seatColor } from './seat-color.js';
import './move-panel.css';

/** `onTrace`: offered to views entitled to decision traces; opens the current line's seat and round. */
type Props = { player: Player; all: readonly WireEvent[]; cursor: number; names: Map<string, string>; humans?: readonly string[]; onTrace?: (seat: string, seq: number) => void };

const MOMENT_LABEL: Record<string, string> = {
  elimination: 'elimination',
  betrayal: 'betrayal',
  broken_promise: 'broken promise',
  emotion_flip: 'emotion flipped',
  swing: 'big swing',
  life_lost: 'life lost',
};


/**
 * The move list: the game told as sentences by the shared narrator, grouped by round and phase.
 * It is the scrubber's twin: a click on a line seeks there, the line at the position is marked
 * and kept in view as the game plays, and key moments have previous/next buttons (P / N keys).
 * Agent text is rendered as text only.
 */
export function MovePanel({ player, all, cursor, names, humans = [], onTrace }: Props) {
  const namesKey = [...names].map(([k, v]) => `${k}=${v}`).join('\n');
  const log = useMemo(() => new NarrationLog(names, humans), [namesKey, humans.join(',')]);
  const story = useMemo(() => log.update(all), [log, all]);
  const timeline = player.timeline.value;
  // The largest swings of the chances to win join the key moments (the track grows with `all`).
  const swings = useMemo(() => (timeline ? biggestSwings(timeline.wins.points, (s) => timeline.event(s), (id) => names.get(id) ?? 'a seat') : []), [timeline, all, namesKey]);
  const moments = useMemo(() => keyMomentSeqs(story.moments, swings), [story, swings]);
  // Each swing is titled on the line the position shows at its event (an event may have no line of its own).
  const swingsAt = useMemo(() => {
    const at = new Map<number, KeySwing[]>();
    for (const s of swings) {
      const i = lineAt(story.lines, s.seq);
      const seq = i >= 0 ? story.lines[i]!.seq : s.seq;
      at.set(seq, [...(at.get(seq) ?? []), s]);
    }
    return at;
  }, [swings, story]);
  const box = useRef<HTMLOListElement>(null);
  const seek = (seq: number) => {
    player.pause();
    player.seek(seq);
  };
  const moment = (dir: 1 | -1) => {
    const to = stepMoment(moments, player.cursor.value, dir);
    if (to !== null) seek(to);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // The player's own rule: only text being typed keeps N and P (a focused scrubber does not).
      if (ownsKeys(e.target, e.key) || e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === 'n' || e.key === 'N') moment(1);
      else if (e.key === 'p' || e.key === 'P') moment(-1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  // The lines are drawn once per change of the log (each group once while it stays the same); a
  // seek only moves the mark below, so scrubbing never redraws hundreds of sentences.
  // A group is drawn again when its swings change too (a live game's largest swings move on).
  const cache = useMemo(() => new WeakMap<NarrationGroup, { swings: string; el: JSX.Element }>(), [log]);
  const groupSwings = useMemo(() => story.groups.map((g) => g.lines.flatMap((l) => swingsAt.get(l.seq) ?? []).map((s) => `${s.seq}:${s.title}`).join('\n')), [story, swingsAt]);
  const list = story.groups.map((g, i) => {
    const key = groupSwings[i]!;
    let hit = cache.get(g);
    if (!hit || hit.swings !== key) {
      hit = { swings: key, el: <Group key={`${g.lines[0]!.seq}:${i}`} group={g} swingsAt={swingsAt} /> };
      cache.set(g, hit);
    }
    return hit.el;
  });

  const current = lineAt(story.lines, cursor);
  const currentSeq = current >= 0 ? story.lines[current]!.seq : null;
  useLayoutEffect(() => {
    const ol = box.current;
    if (!ol) return;
    for (const el of ol.querySelectorAll('[aria-current]')) {
      el.removeAttribute('aria-current');
      el.classList.remove('current');
    }
    if (currentSeq === null) return;
    const marked = ol.querySelectorAll<HTMLElement>(`li[data-seq="${currentSeq}"]`);
    for (const el of marked) {
      el.setAttribute('aria-current', 'step');
      el.classList.add('current');
    }
    const last = marked[marked.length - 1];
    if (last) keepInView(ol, last);
    follow(ol);
  }, [currentSeq, story]);

  const onClick = (e: MouseEvent) => {
    const li = (e.target as HTMLElement).closest<HTMLElement>('li[data-seq]');
    if (li) seek(Number(li.dataset['seq']));
  };
  const here = currentSeq !== null ? story.lines[current]! : null;
  const prev = stepMoment(moments, cursor, -1);
  const next = stepMoment(moments, cursor, 1);

  return (
    <section class="panel moves" aria-labelledby="moves-h">
      <div class="moves-head">
        <h2 id="moves-h">The story</h2>
        <button type="button" onClick={() => moment(-1)} disabled={prev === null} title="Previous key moment (P)" data-testid="prev-moment">
          ◀ key moment
        </button>
        <button type="button" onClick={() => moment(1)} disabled={next === null} title="Next key moment (N)" data-testid="next-moment">
          key moment ▶
        </button>
        <span class="muted" data-testid="moment-count">
          {moments.length} key moment{moments.length === 1 ? '' : 's'}
        </span>
      </div>
      {story.lines.length === 0 && <p class="muted">Nothing has happened yet.</p>}
      {/* A scroll box: focusable so keyboard users can scroll it (its lines are not buttons). */}
      <ol class="move-list" ref={box} onClick={onClick} data-testid="move-list" aria-label="Moves, by round and phase" tabIndex={0}>
        {list}
      </ol>
      <p class="muted moves-foot" aria-live="polite" data-testid="move-current">
        {here ? `Round ${here.round}, ${here.phase}: ${here.text}` : 'Before the first move.'}{' '}
        {here && onTrace && here.seats[0] && (
          <button type="button" class="ghost" data-testid="open-trace" onClick={() => onTrace(here.seats[0]!, here.seq)}>
            {names.get(here.seats[0]) ?? here.seats[0]}’s reasoning and trace
          </button>
        )}
      </p>
    </section>
  );
}

/** One round-and-phase group: a heading, then its lines, each carrying its seq. */
function Group({ group, swingsAt }: { group: NarrationGroup; swingsAt: ReadonlyMap<number, KeySwing[]> }) {
  return (
    <li class="move-group" data-testid="move-group">
      <h3>{group.round === 0 ? 'Setup' : `Round ${group.round} · ${group.phase}`}</h3>
      <ol>
        {group.lines.map((l, i) => (
          <li key={i} data-seq={l.seq} data-kind={l.kind} class={l.key_moment ? `move key ${l.key_moment.kind}` : swingsAt.has(l.seq) ? 'move key chance_swing' : 'move'} data-testid="move-line" title={`event ${l.seq} — click to go there`}>
            {l.key_moment && (
              <span class="moment" data-testid="moment-title">
                <b>{MOMENT_LABEL[l.key_moment.kind] ?? 'key moment'}</b> {l.key_moment.title}
              </span>
            )}
            {swingsAt.get(l.seq)?.map((s) => (
              <span key={s.seq} class="moment" data-testid="swing-title" data-swing-seq={s.seq}>
                <b>chances swing</b> {s.title}
              </span>
            ))}
            {l.seats[0] && <i class="seat-dot" style={{ '--seat-color': seatColor(l.seats[0]) }} aria-hidden="true" />}
            <span class="text">{l.text}</span>
            {l.details.length > 0 && (
              <span class="details">
                {l.details.map((d, j) => (
                  <span key={j}>{d}</span>
                ))}
              </span>
            )}
            {l.reasoning?.map((r, j) => (
              // The seat's own words (a broadcast shows them with the event, a round behind): text only.
              <details key={`why${j}`} class="reasoning" data-testid="move-reasoning" data-seat={r.player_id}>
                <summary>{r.name}’s reasoning</summary>
                <q data-testid="move-reasoning-text">{r.text}</q>
              </details>
            ))}
          </li>
        ))}
      </ol>
    </li>
  );
}

/**
 * Scrolls the list (never the page) so the line is visible, a third of the way down. Always an
 * instant jump: a smooth scroll is restarted on every step of a fast replay and after a long jump
 * it ends where the line used to be, so the followed line was out of view most of the time.
 */
function keepInView(box: HTMLElement, el: HTMLElement): void {
  // Measured on screen: offsetTop would depend on which ancestor is the offset parent (groups are contained).
  const r = el.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  const top = r.top - b.top + box.scrollTop;
  const bottom = top + r.height;
  if (top >= box.scrollTop && bottom <= box.scrollTop + box.clientHeight) return;
  // 'instant', not 'auto': 'auto' defers to the stylesheet's scroll-behavior.
  box.scrollTo({ top: Math.max(0, top - box.clientHeight / 3), behavior: 'instant' });
}

/** Frames a list keeps its marked line in view after the mark moves (see follow). */
const SETTLE_FRAMES = 20;
/** Per list: frames left, and where the list was scrolled when we last looked (ours, or untouched). */
const settling = new WeakMap<HTMLElement, { left: number; top: number }>();

/**
 * Groups are laid out lazily (content-visibility): after a jump, the ones it brings into view take
 * their real height only at the next frames, which pushes the marked line out again, and a group
 * drawn anew replaces the line's element. So for a few frames after each move of the mark, the
 * list looks up its marked line afresh and brings it back into view if it has moved out — unless
 * someone else has scrolled the list meanwhile (a reader, or a click's scroll into view): then it
 * lets go at once, so it never fights a person for the list.
 */
function follow(box: HTMLElement): void {
  const running = settling.has(box);
  settling.set(box, { left: SETTLE_FRAMES, top: box.scrollTop });
  // Tests wait for this before judging where the line is (a frame count, not a clock).
  box.dataset['settled'] = 'false';
  if (running) return;
  const done = () => {
    settling.delete(box);
    box.dataset['settled'] = 'true';
  };
  const tick = () => {
    const s = settling.get(box);
    if (!s || s.left <= 0 || !box.isConnected || Math.abs(box.scrollTop - s.top) > 1) return done();
    s.left--;
    const marked = box.querySelectorAll<HTMLElement>('li[aria-current]');
    const last = marked[marked.length - 1];
    if (last) keepInView(box, last);
    s.top = box.scrollTop;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
