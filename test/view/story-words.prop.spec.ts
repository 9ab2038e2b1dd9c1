import { beforeAll, describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { viewEvent } from '../../src/game/index.js';
import { SimulationSpec, playSeated } from '../../src/runner/simulate.js';
import { formatTranscript } from '../../src/cli/transcript.js';
import { narrate, type NarrationLine } from '../../src/view/index.js';
import { perspectives } from '../support/fold-check.js';

/** Six built-ins: `random` speaks seat ids ("plr_3, mark my words."), `manipulator` expects "lash_out: …". */
const LINEUP = ['random', 'balanced', 'aggressor', 'turtle', 'manipulator', 'trickster'];
const SEEDS = [11, 22, 33];

/** What a person must never read in the story: a seat id, a snake_case key, a bare seq, a raw contest margin. */
const JARGON: [string, RegExp][] = [
  ['seat id', /plr_\d/],
  ['snake_case word', /\b[a-z]+_[a-z_]+\b/],
  ['seq', /\bseq\b/],
  ['raw margin', /\bmargin [+−-]?\d/],
];

const sentences = (l: NarrationLine) => [l.text, ...l.details, l.key_moment?.title ?? ''];

type Played = { seed: number; events: GameEvent[]; names: Map<string, string> };

/**
 * The whole story of 6-seat games the built-in agents play, every line of every view and of the
 * CLI transcript, agents' own quoted words included: plain words only (issue 38, point 7).
 */
describe('the story speaks to people: no internal identifiers in any line', () => {
  const games: Played[] = [];
  beforeAll(async () => {
    for (const seed of SEEDS) {
      const spec = SimulationSpec.parse({ games: 1, seed, seats: 6, agents: LINEUP });
      const { run } = await playSeated(spec, 0);
      const started = run.events.find((e): e is Extract<GameEvent, { type: 'game_started' }> => e.type === 'game_started')!;
      games.push({ seed, events: run.events, names: new Map(started.payload.players.map((p) => [p.player_id, p.display_name])) });
    }
  }, 240_000);

  it('given 6-seat games of built-ins, in every projection, then no narrated line, detail or key moment holds a seat id, a snake_case key, "seq" or a raw margin', () => {
    let lines = 0;
    for (const [i, g] of games.entries()) {
      // The public, broadcast and all-seeing views, and one seat's (a different one each game).
      const views = perspectives(6).filter((p) => ['spectator', 'broadcast', 'admin', `plr_${2 * i + 1}`].includes(p.name));
      for (const p of views) {
        const story = narrate(g.events.map((e) => viewEvent(e, p.viewer, p.gameOver)), { names: g.names });
        for (const l of story.lines) {
          for (const s of sentences(l)) for (const [what, re] of JARGON) expect(s, `seed ${g.seed} ${p.name} seq ${l.seq}: ${what}`).not.toMatch(re);
        }
        lines += story.lines.length;
      }
    }
    expect(lines).toBeGreaterThan(5_000);
  });

  it('given agent speech that names seats by id, then the story quotes it with the seats’ display names', () => {
    let checked = 0;
    for (const g of games) {
      const story = narrate(g.events, { names: g.names });
      for (const e of g.events) {
        if (e.type !== 'speech_posted' || !e.payload.text?.includes('plr_')) continue;
        const said = e.payload.text.replace(/plr_\d+/g, (id) => g.names.get(id)!);
        expect(story.lines.find((l) => l.seq === e.seq)!.text).toContain(`“${said}”`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('given the same games, then every line of the CLI transcript is free of them too', () => {
    for (const g of games) {
      const out = formatTranscript(g.events).split('\n');
      expect(out.length).toBeGreaterThan(500);
      out.forEach((line, i) => {
        for (const [what, re] of JARGON) expect(line, `seed ${g.seed} transcript line ${i + 1}: ${what}`).not.toMatch(re);
      });
    }
  });
});
