import { describe, expect, it } from 'vitest';
import { viewEvent, viewState } from '../../src/game/index.js';
import { foldEvents, stateHash } from '../../src/view/index.js';
import { MAX_REPLAY_BYTES, parseReplay } from '../../src/view/replay-file.js';
import { playGame } from '../support/played-game.js';

const { events, states } = playGame({ seed: 77_001, seats: 4, round_cap: 4, compact: false, driver: 2, names: ['ada', 'bo', 'cy', 'di'] });
const ndjson = events.map((e) => `${JSON.stringify(e)}\n`).join('');
const gameId = events[0]!.game_id;
const spectatorFile = (over: Record<string, unknown> = {}) => ({
  format: 'tiltyard-replay',
  version: 1,
  game_id: gameId,
  view: 'spectator',
  game_over: true,
  seats: ['ada', 'bo', 'cy', 'di'].map((n, i) => ({ player_id: `plr_${i + 1}`, agent: 'random', display_name: n })),
  last_seq: events.length,
  base: viewState(states[0]!, { role: 'spectator' }, true),
  events: events.map((e) => viewEvent(e, { role: 'spectator' }, true)),
  ...over,
});

describe('parseReplay', () => {
  it('given a `tiltyard play --json` log, then it opens as the admin view whose fold reaches the engine’s final state', async () => {
    const r = parseReplay(ndjson);
    if (!r.ok) throw new Error(r.error);
    expect(r.replay).toMatchObject({ source: 'ndjson', view: 'admin', game_id: gameId, game_over: true });
    expect(r.replay.seats.map((s) => s.display_name)).toEqual(['ada', 'bo', 'cy', 'di']);
    const folded = foldEvents(r.replay.base, r.replay.events, r.replay.viewer, true);
    expect(await stateHash(folded)).toBe(await stateHash(viewState(states.at(-1)!, { role: 'admin' }, true)));
  });

  it('given a replay file, then it opens for the view it was exported for, and its fold reaches that view’s final state', async () => {
    const r = parseReplay(JSON.stringify(spectatorFile()));
    if (!r.ok) throw new Error(r.error);
    expect(r.replay).toMatchObject({ source: 'replay', view: 'spectator', viewer: { role: 'spectator' } });
    const folded = foldEvents(r.replay.base, r.replay.events, r.replay.viewer, true);
    expect(await stateHash(folded)).toBe(await stateHash(viewState(states.at(-1)!, { role: 'spectator' }, true)));
  });

  it.each([
    ['an empty file', '', /empty/],
    ['a picture', '\x89PNG\r\n\x1a\n…', /neither JSON nor/],
    ['JSON of another kind', '{"hello":"world"}', /not a valid Tiltyard replay.*format/],
    ['a newer version', JSON.stringify(spectatorFile({ version: 2 })), /version/],
    ['a hole in the events', JSON.stringify(spectatorFile({ events: spectatorFile().events.filter((e) => e.seq !== 5) })), /without gaps; found seq 6/],
    ['an unknown view', JSON.stringify(spectatorFile({ view: 'god' })), /view/],
    ['a log missing a line', ndjson.split('\n').filter((_, i) => i !== 3).join('\n'), /line 4 holds seq 5/],
    ['a log cut mid-line', ndjson.slice(0, ndjson.length - 40), /is not JSON/],
    ['a log not starting at game_started', ndjson.split('\n').slice(1).join('\n'), /seq 2/],
  ])('given %s, then a clear error, not a throw', (_what, text, message) => {
    const r = parseReplay(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });

  it('given a file over the bound, then it is refused before parsing', () => {
    const r = parseReplay(' '.repeat(MAX_REPLAY_BYTES + 1));
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/too large/) });
  });
});
