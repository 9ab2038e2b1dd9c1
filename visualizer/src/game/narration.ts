import { Narrator, type GameEvent, type Narration, type NarrationGroup, type NarrationLine } from '../../../src/view/index.js';
import type { WireEvent } from './history.js';

/**
 * The move list's model: the shared narrator (src/view/narrate.ts) kept warm across a live game.
 * The player's event list only grows, so each update narrates the new events alone; groups that
 * did not change keep their identity (the panel then skips redrawing them). A list that is not an
 * extension of the last one (a new view, a resync from a snapshot) starts over.
 */
export class NarrationLog {
  private narrator: Narrator;
  private seen: readonly WireEvent[] = [];
  private story: Narration = { lines: [], groups: [], moments: [] };

  /** `humans`: the seats a person plays, whose missing answers the story tells as a clock run out (NarrateOptions.humans). */
  constructor(
    private readonly names: ReadonlyMap<string, string>,
    private readonly humans: readonly string[] = [],
  ) {
    this.narrator = new Narrator({ names, humans });
  }

  /** The narration of `all` (the viewer's events in seq order). */
  update(all: readonly WireEvent[]): Narration {
    const n = this.seen.length;
    const extends_ = all.length >= n && (n === 0 || all[n - 1] === this.seen[n - 1]) && all[0] === this.seen[0];
    if (!extends_) {
      this.narrator = new Narrator({ names: this.names, humans: this.humans });
      this.story = { lines: [], groups: [], moments: [] };
      this.seen = [];
    }
    const fresh = all.slice(this.seen.length).flatMap((e) => this.narrator.push(e as unknown as GameEvent));
    this.seen = all;
    if (fresh.length === 0) return this.story;
    this.story = { lines: [...this.story.lines, ...fresh], groups: extend(this.story.groups, fresh), moments: [...this.story.moments, ...fresh.filter((l) => l.key_moment)] };
    return this.story;
  }
}

/** Appends lines to groups, copying only the last group when it grows (earlier ones keep their identity). */
function extend(groups: readonly NarrationGroup[], lines: readonly NarrationLine[]): NarrationGroup[] {
  const out = groups.slice();
  for (const l of lines) {
    const last = out.at(-1);
    if (last && last.round === l.round && last.phase === l.phase) out[out.length - 1] = { ...last, lines: [...last.lines, l] };
    else out.push({ round: l.round, phase: l.phase, lines: [l] });
  }
  return out;
}
