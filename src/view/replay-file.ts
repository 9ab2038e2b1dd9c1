import { z } from 'zod';
import { initialState } from '../game/setup.js';
import { viewState, type StateView, type Viewer } from '../game/views.js';
import type { GameEvent } from '../protocol/events.js';

/** The largest replay file the player opens (a 3,500-event admin log is ≈ 2 MB; this is ten such). */
export const MAX_REPLAY_BYTES = 32 * 1024 * 1024;
/** The most events a replay file may hold (the longest ranged games are ≈ 3,500). */
export const MAX_REPLAY_EVENTS = 100_000;

/**
 * `?view=` values a replay can be exported for: exactly the views /events serves, the broadcast
 * one included (an anonymous visitor's export of a broadcast game, the demo table's default).
 */
const ReplayViewName = z.string().regex(/^(spectator|broadcast|researcher|admin|plr_[1-9]\d?)$/, 'spectator, broadcast, researcher, admin or a seat id (plr_N)');

/**
 * One event as the viewer was sent it. The player folds it with the shared reducer, which refuses
 * what it cannot fold, so only the fields it steers by are checked here.
 */
const ReplayEvent = z.looseObject({
  seq: z.int().min(1),
  turn: z.int().min(0),
  phase: z.string().max(40),
  type: z.string().min(1).max(60),
  payload: z.record(z.string(), z.unknown()),
});

const ReplaySeat = z.object({
  player_id: z.string().regex(/^plr_\d+$/),
  display_name: z.string().max(80).optional(),
  agent: z.string().max(200),
});

/**
 * A replay file (version 1): one game exactly as one view was sent it — the view's snapshot at seq
 * 0 and its projected events up to the head it could see when exported (a delayed spectator's
 * head, not the log's). It holds nothing that view's `/events` and `/snapshot` would not.
 *
 * @example ReplayFile.parse(JSON.parse(text)).events.length
 */
export const ReplayFile = z
  .object({
    format: z.literal('tiltyard-replay'),
    version: z.literal(1),
    game_id: z.string().regex(/^game_[A-Za-z0-9_-]{1,64}$/),
    view: ReplayViewName.meta({ description: 'The view the events were projected for' }),
    game_over: z.boolean().meta({ description: 'Whether the game had ended when it was exported (researchers see everything then)' }),
    seats: z.array(ReplaySeat).min(1).max(16),
    last_seq: z.int().min(0).meta({ description: 'The head this view could see at export: the last event in `events`' }),
    base: z.looseObject({ world: z.record(z.string(), z.unknown()), private: z.array(z.unknown()) }).meta({ description: 'The view’s state at seq 0 (the undealt table)' }),
    events: z.array(ReplayEvent).max(MAX_REPLAY_EVENTS),
  })
  .superRefine((f, ctx) => {
    // The player folds seq 1, 2, 3…: a hole or a shuffle would fold into a wrong table silently.
    const bad = f.events.findIndex((e, i) => e.seq !== i + 1);
    if (bad >= 0) ctx.addIssue({ code: 'custom', path: ['events', bad, 'seq'], message: `events must run 1, 2, 3… without gaps; found seq ${f.events[bad]!.seq} at position ${bad + 1}` });
    if (f.last_seq !== f.events.length) ctx.addIssue({ code: 'custom', path: ['last_seq'], message: `last_seq ${f.last_seq} is not the last event's seq (${f.events.length})` });
  });
export type ReplayFile = z.infer<typeof ReplayFile>;

/** What the player needs from a replay: who watched, the seq-0 state and the events. */
export type LoadedReplay = { game_id: string; view: string; viewer: Viewer; game_over: boolean; seats: ReplayFile['seats']; base: StateView; events: GameEvent[]; source: 'replay' | 'ndjson' };

export type ReplayLoad = { ok: true; replay: LoadedReplay } | { ok: false; error: string };

const viewerOf = (view: string): Viewer => (view === 'spectator' || view === 'broadcast' || view === 'researcher' || view === 'admin' ? { role: view } : { role: 'seat', player_id: view });

const issues = (e: z.ZodError): string =>
  e.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`)
    .join('; ');

/** A `tiltyard play --json` line: a full (admin) event. game_started carries the rules and the seed. */
const LogEvent = ReplayEvent.extend({ game_id: z.string().max(80) });
const GameStartedPayload = z.looseObject({
  seed: z.int(),
  rules: z.record(z.string(), z.unknown()),
  players: z.array(z.looseObject({ player_id: z.string(), display_name: z.string().max(80).optional(), baseline: z.record(z.string(), z.number()).optional() })).min(1).max(16),
});

/** An NDJSON log: every event, unredacted, so it opens as the admin view from the engine's seq-0 state. */
function fromNdjson(text: string): ReplayLoad {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length > MAX_REPLAY_EVENTS) return { ok: false, error: `too many events (${lines.length}; at most ${MAX_REPLAY_EVENTS})` };
  const events: GameEvent[] = [];
  for (const [i, line] of lines.entries()) {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return { ok: false, error: `line ${i + 1} is not JSON` };
    }
    const e = LogEvent.safeParse(json);
    if (!e.success) return { ok: false, error: `line ${i + 1} is not a game event: ${issues(e.error)}` };
    if (e.data.seq !== i + 1) return { ok: false, error: `line ${i + 1} holds seq ${e.data.seq}: the log must run 1, 2, 3… without gaps` };
    events.push(e.data as unknown as GameEvent);
  }
  const first = events[0];
  if (!first || first.type !== 'game_started') return { ok: false, error: 'the log does not start with game_started' };
  const start = GameStartedPayload.safeParse(first.payload);
  if (!start.success) return { ok: false, error: `game_started lacks what the table needs: ${issues(start.error)}` };
  const { seed, rules, players } = start.data;
  let base: StateView;
  try {
    // The log has each seat's resulting baseline, not the config that asked for it: keep what
    // differs from the default (what a config must have said). The seq-0 state matches the
    // stored one unless a config spelled out default values (only raw.seat_configs then differs).
    const startConfidence = typeof rules['start_confidence'] === 'number' ? rules['start_confidence'] : 0.2;
    const asked = (b: Record<string, number> | undefined) => Object.fromEntries(Object.entries(b ?? {}).filter(([k, v]) => v !== (k === 'confidence' ? startConfidence : 0)));
    const seats = [...players].map((p) => {
      const baseline = asked(p.baseline);
      return { ...(p.display_name ? { display_name: p.display_name } : {}), ...(Object.keys(baseline).length ? { baseline } : {}) };
    });
    base = viewState(initialState({ game_id: first.game_id, seats, rules }, seed), { role: 'admin' }, true);
  } catch (e) {
    return { ok: false, error: `game_started does not set up a game: ${e instanceof Error ? e.message : String(e)}` };
  }
  const game_over = events.at(-1)!.type === 'game_ended';
  const seats = players.map((p) => ({ player_id: p.player_id, agent: p.display_name ?? p.player_id, ...(p.display_name ? { display_name: p.display_name } : {}) }));
  return { ok: true, replay: { game_id: first.game_id, view: 'admin', viewer: { role: 'admin' }, game_over, seats, base, events, source: 'ndjson' } };
}

/**
 * Reads a replay file or a `tiltyard play --json` log (told apart by their first character),
 * validating everything; a bad file is an error value with a sentence, never a throw.
 *
 * @example parseReplay(await file.text()) // { ok: true, replay: { view: 'spectator', events: […] } }
 */
export function parseReplay(text: string): ReplayLoad {
  if (text.length > MAX_REPLAY_BYTES) return { ok: false, error: `the file is too large (${Math.round(text.length / 1e6)} MB; at most ${MAX_REPLAY_BYTES / 1024 / 1024} MB)` };
  const trimmed = text.trimStart();
  if (trimmed === '') return { ok: false, error: 'the file is empty' };
  // A replay file is one JSON object spanning the file; an NDJSON log is one event per line.
  const firstLine = trimmed.slice(0, trimmed.indexOf('\n') < 0 ? undefined : trimmed.indexOf('\n'));
  if (firstLine.includes('"seq"') && firstLine.trim().endsWith('}') && !firstLine.includes('"format"')) return fromNdjson(trimmed);
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { ok: false, error: 'not a Tiltyard replay: the file is neither JSON nor a play --json log' };
  }
  const f = ReplayFile.safeParse(json);
  if (!f.success) return { ok: false, error: `not a valid Tiltyard replay (version 1): ${issues(f.error)}` };
  const r = f.data;
  return { ok: true, replay: { game_id: r.game_id, view: r.view, viewer: viewerOf(r.view), game_over: r.game_over, seats: r.seats, base: r.base as unknown as StateView, events: r.events as unknown as GameEvent[], source: 'replay' } };
}
