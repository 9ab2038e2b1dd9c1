import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEvent } from '../../src/game/evolve.js';
import { viewEvent, type GameState, type StateView as FoldedView, type Viewer as FoldViewer } from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';
import { logicalInputClock } from '../../src/runner/input-clock.js';
import { runPersistent } from '../../src/runner/persistent-runner.js';
import { SimStats } from '../../src/runner/sim-stats.js';
import { readDecisions, readLog } from '../../src/runner/stored-game.js';
import { serverSettings } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { maskHidden } from '../../src/server/games/partial-figures.js';
import { JsonLogger } from '../../src/lib/json-logger.js';
import { canonicalJson } from '../../src/store/index.js';
import { foldView } from '../../src/view/index.js';
import { leaks } from '../support/leaks.js';
import { flipSegmentByte } from '../store/support.js';
import { Watcher } from './spectate-support.js';

const ADMIN = 'admin-token-for-tests';
const RESEARCHER = 'researcher-token-for-tests';
/** Six digits or more, so a leaked seed is findable as text. */
const SEED = 4_242_421;
const LINEUP = ['manipulator', 'trickster', 'balanced', 'aggressor'];
const RULES = { round_cap: 6 };

type Reply<T> = { status: number; body: T; text: string };
type EventsPage = { game_id: string; events: GameEvent[]; last_seq: number; next_after: number };
type StateView = { world: { seed: number | null; players: Array<{ player_id: string }> }; private: Array<{ player_id: string; hand: Array<{ card_id: string }> }>; raw?: GameState };
type Snapshot = { game_id: string; seq: number; last_seq: number; state_hash: string; state: StateView };
type ErrorBody = { statusCode: number; error: string; message: string };

/** Crashes a runner right after a commit, leaving its game in progress. */
class Crash extends Error {}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('GET /games/:id/events, /snapshot, /verify', () => {
  let server: RunningServer;
  const logged: Array<Record<string, unknown>> = [];
  let ended: string;
  let running: string;
  let fullLog: GameEvent[];

  async function get<T>(path: string, token?: string): Promise<Reply<T>> {
    const res = await fetch(`${server.url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as T, text };
  }

  /** Every event of a game, page by page, as one caller sees it (checking each page's contract). */
  async function allEvents(gameId: string, query: string, token?: string, limit = 97): Promise<{ events: GameEvent[]; texts: string[] }> {
    const events: GameEvent[] = [];
    const texts: string[] = [];
    for (let after = 0; ; ) {
      const r = await get<EventsPage>(`/games/${gameId}/events?after=${after}&limit=${limit}${query}`, token);
      expect(r.status).toBe(200);
      texts.push(r.text);
      if (r.body.events.length === 0) {
        expect(r.body.next_after).toBe(after);
        return { events, texts };
      }
      expect(r.body.events.length).toBeLessThanOrEqual(limit);
      events.push(...r.body.events);
      after = r.body.next_after;
    }
  }

  /** The state right after each event of the log (the shadow the leak checker reads). */
  async function statesAlong(gameId: string, log: readonly GameEvent[]): Promise<GameState[]> {
    const shadow = await server.store.stateAt(gameId, 0);
    return log.map((e) => {
      applyEvent(shadow, e);
      return structuredClone(shadow);
    });
  }

  /** Leaks a viewer (a seat, or null for the public table) finds in projected events. */
  async function leaksIn(gameId: string, events: readonly GameEvent[], viewer: string | null): Promise<string[]> {
    const log = await readLog(server.store, gameId);
    const states = await statesAlong(gameId, log);
    const found: string[] = [];
    let revealedThrough = 0;
    events.forEach((e, i) => {
      if (e.type === 'plans_revealed') revealedThrough = e.turn;
      for (const f of leaks(e, { viewer, state: states[i]!, revealedThrough })) found.push(`${e.type}#${e.seq}: ${f}`);
    });
    return found;
  }

  beforeAll(async () => {
    const logger = new JsonLogger('error', (line) => logged.push(JSON.parse(line) as Record<string, unknown>));
    server = await createServer(
      serverSettings({ PORT: '0', TILTYARD_DATA_DIR: 'memory://', TILTYARD_DEMO: 'off', TILTYARD_ADMIN_TOKEN: ADMIN, TILTYARD_RESEARCHER_TOKEN: RESEARCHER }),
      { logger },
    );
    ended = (await runPersistent(server.store, { seed: SEED, agents: LINEUP, rules: RULES })).gameId;
    fullLog = await readLog(server.store, ended);
    let commits = 0;
    const crashed = await runPersistent(server.store, { seed: SEED + 1, agents: LINEUP, rules: RULES }, {
      onCommit: () => {
        if (++commits === 60) throw new Crash();
      },
    }).catch((e: unknown) => e);
    expect(crashed).toBeInstanceOf(Crash);
    running = (await server.store.listGames({ status: 'running' })).games[0]!.game_id;
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('events', () => {
    it('given a finished game with private speech, plans, hands and emotions, when a spectator pages through the whole log, then no response carries any of them', async () => {
      const kinds = new Set(fullLog.map((e) => (e.type === 'speech_posted' ? `${e.type}:${e.payload.channel}` : e.type)));
      expect([...kinds]).toEqual(expect.arrayContaining(['speech_posted:private', 'speech_posted:public', 'secret_plan_committed', 'cards_drawn', 'emotion_updated']));

      const { events, texts } = await allEvents(ended, '');
      expect(events.map((e) => e.seq)).toEqual(fullLog.map((e) => e.seq));
      expect(await leaksIn(ended, events, null)).toEqual([]);
      for (const [i, e] of events.entries()) {
        const full = fullLog[i]!;
        const hidden = full.visibility.hidden.map((h) => h.key);
        for (const key of hidden) expect(e.payload, `${e.type}#${e.seq}.${key}`).not.toHaveProperty(key);
        if (hidden.length) expect(e.redacted).toEqual(hidden);
        expect(e.visibility.hidden.every((h) => h.to.length === 0)).toBe(true);
        expect(e).not.toHaveProperty('rng');
      }
      // Private texts appear nowhere in what was sent, unless someone also said them in public.
      const said = (channel: string) => fullLog.flatMap((e) => (e.type === 'speech_posted' && e.payload.channel === channel ? [e.payload.text] : []));
      const publicTexts = new Set(said('public'));
      const privateOnly = said('private').filter((t) => !publicTexts.has(t));
      expect(privateOnly.length).toBeGreaterThan(0);
      const sent = texts.join('\n');
      for (const t of privateOnly) expect(sent).not.toContain(JSON.stringify(t));
      expect(sent).not.toContain('"speech_act":');
      expect(sent).not.toContain('"emotions":');
      expect(sent).not.toContain(`"seed":${SEED}`);
    });

    it('given the same finished game, then the admin gets the log exactly as stored and a researcher too (the game is over)', async () => {
      const admin = await allEvents(ended, '', ADMIN);
      expect(JSON.stringify(admin.events)).toBe(JSON.stringify(fullLog));
      const researcher = await allEvents(ended, '', RESEARCHER);
      expect(JSON.stringify(researcher.events)).toBe(JSON.stringify(fullLog));
    });

    it('given a game in progress, then a researcher sees the public table only (as a spectator does) while the admin sees everything', async () => {
      expect((await server.store.getGame(running)).status).toBe('running');
      const log = await readLog(server.store, running);
      const researcher = await allEvents(running, '', RESEARCHER);
      const spectator = await allEvents(running, '');
      expect(researcher.events.length).toBe(log.length);
      expect(researcher.events).toEqual(spectator.events);
      expect(await leaksIn(running, researcher.events, null)).toEqual([]);
      expect(researcher.events.some((e) => e.redacted?.length)).toBe(true);
      const admin = await allEvents(running, '', ADMIN);
      expect(JSON.stringify(admin.events)).toBe(JSON.stringify(log));
      expect(await leaksIn(running, admin.events, null)).not.toEqual([]);
    });

    it("given an admin asking for seat plr_2's view, then it shows plr_2's own cards, plans and private messages and nobody else's", async () => {
      const { events } = await allEvents(ended, '&view=plr_2', ADMIN);
      expect(await leaksIn(ended, events, 'plr_2')).toEqual([]);
      const draws = events.filter((e) => e.type === 'cards_drawn');
      const own = draws.filter((e) => e.payload.player_id === 'plr_2');
      const others = draws.filter((e) => e.payload.player_id !== 'plr_2');
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((e) => Array.isArray(e.payload.cards))).toBe(true);
      expect(others.every((e) => !('cards' in e.payload))).toBe(true);
      const plans = events.filter((e) => e.type === 'secret_plan_committed');
      expect(plans.filter((e) => e.payload.player_id === 'plr_2').every((e) => 'plan' in e.payload)).toBe(true);
      expect(plans.filter((e) => e.payload.player_id !== 'plr_2').every((e) => !('plan' in e.payload))).toBe(true);
    });

    it('given any page size, when paging with next_after, then the seqs are contiguous from 1 to the head with no gap and no duplicate', async () => {
      const head = (await server.store.getGame(ended)).last_seq;
      for (const limit of [1, 13, 200, 1000]) {
        const seqs: number[] = [];
        let after = 0;
        let pages = 0;
        for (;;) {
          const r = await get<EventsPage>(`/games/${ended}/events?after=${after}&limit=${limit}`);
          expect(r.body.last_seq).toBe(head);
          if (r.body.events.length === 0) break;
          expect(r.body.events[0]!.seq).toBe(after + 1);
          seqs.push(...r.body.events.map((e) => e.seq));
          after = r.body.next_after;
          expect(after).toBe(seqs.at(-1));
          if (++pages > 40) break; // limit 1 samples the start; the others walk the whole log
        }
        expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
        if (limit > 1) expect(seqs.length).toBe(head);
      }
      const tail = await get<EventsPage>(`/games/${ended}/events?after=${head - 3}`);
      expect(tail.body.events.map((e) => e.seq)).toEqual([head - 2, head - 1, head]);
      expect(tail.body.next_after).toBe(head);
      const past = await get<EventsPage>(`/games/${ended}/events?after=${head}`);
      expect(past.body).toEqual({ game_id: ended, events: [], last_seq: head, next_after: head });
      const defaults = await get<EventsPage>(`/games/${ended}/events`);
      expect(defaults.body.events.map((e) => e.seq)).toEqual(Array.from({ length: Math.min(200, head) }, (_, i) => i + 1));
    });
  });

  describe('snapshot', () => {
    it('given seqs along a finished game, then the spectator snapshot never leaks, carries no private view or raw state, and the admin one has everything', async () => {
      const head = (await server.store.getGame(ended)).last_seq;
      for (const seq of [0, 1, 37, Math.floor(head / 2), head - 1, head]) {
        const state = await server.store.stateAt(ended, seq);
        const spectator = await get<Snapshot>(`/games/${ended}/snapshot?seq=${seq}`);
        expect(spectator.status).toBe(200);
        expect(spectator.body).toMatchObject({ game_id: ended, seq, last_seq: head });
        expect(spectator.body.state.private).toEqual([]);
        expect(spectator.body.state).not.toHaveProperty('raw');
        expect(leaks(spectator.body.state, { viewer: null, state, revealedThrough: 0 })).toEqual([]);
        const admin = await get<Snapshot>(`/games/${ended}/snapshot?seq=${seq}`, ADMIN);
        expect(admin.body.state.private.map((p) => p.player_id)).toEqual(state.players.map((p) => p.player_id));
        expect(admin.body.state.raw).toEqual(JSON.parse(JSON.stringify(state)));
      }
    });

    it("given an admin asking for plr_3's view, then the snapshot holds plr_3's hand only", async () => {
      const seq = 120;
      const state = await server.store.stateAt(ended, seq);
      const r = await get<Snapshot>(`/games/${ended}/snapshot?seq=${seq}&view=plr_3`, ADMIN);
      expect(r.body.state.private.map((p) => p.player_id)).toEqual(['plr_3']);
      const hand = state.players.find((p) => p.player_id === 'plr_3')!.hand;
      expect(r.body.state.private[0]!.hand.map((c) => c.card_id)).toEqual(hand);
      expect(r.body.state).not.toHaveProperty('raw');
      expect(leaks(r.body.state, { viewer: 'plr_3', state, revealedThrough: 0 })).toEqual([]);
    });

    it("given a seat's view at seq 0 (before the deal), then it is the empty table with no private view, and folding the seat's first event reaches its snapshot at seq 1", async () => {
      const r = await get<Snapshot>(`/games/${ended}/snapshot?seq=0&view=plr_3`, ADMIN);
      expect(r.status).toBe(200);
      expect(r.body.seq).toBe(0);
      expect(r.body.state.world.players).toEqual([]);
      expect(r.body.state.private).toEqual([]);
      expect(r.body.state_hash).toBe(sha256(canonicalJson(r.body.state)));
      expect(r.body.state.world).toEqual((await get<Snapshot>(`/games/${ended}/snapshot?seq=0`)).body.state.world);
      const first = await get<EventsPage>(`/games/${ended}/events?after=0&limit=1&view=plr_3`, ADMIN);
      const seat = { role: 'seat', player_id: 'plr_3' } as const;
      const folded = foldView(r.body.state as unknown as FoldedView, first.body.events[0]!, seat, true);
      const at1 = await get<Snapshot>(`/games/${ended}/snapshot?seq=1&view=plr_3`, ADMIN);
      expect(folded.private.map((p) => p.player_id)).toEqual(['plr_3']);
      expect(sha256(canonicalJson(folded))).toBe(at1.body.state_hash);
    });

    it('given the events a viewer pages through, then folding them from its seq-0 snapshot reproduces its snapshot state_hash every 25 events and at the head (spectator, researcher, each seat)', async () => {
      const views: [string, string, FoldViewer][] = [
        ['', '', { role: 'spectator' }],
        ['&view=researcher', RESEARCHER, { role: 'researcher' }],
        ...[1, 2, 3, 4].map((n): [string, string, FoldViewer] => [`&view=plr_${n}`, ADMIN, { role: 'seat', player_id: `plr_${n}` }]),
      ];
      for (const [query, token, viewer] of views) {
        const { events } = await allEvents(ended, query, token || undefined, 500);
        let view = (await get<Snapshot>(`/games/${ended}/snapshot?seq=0${query}`, token || undefined)).body.state as unknown as FoldedView;
        for (const e of events) {
          view = foldView(view, e, viewer, true);
          if (e.seq % 25 !== 0 && e.seq !== events.length) continue;
          const at = await get<Snapshot>(`/games/${ended}/snapshot?seq=${e.seq}${query}`, token || undefined);
          expect(sha256(canonicalJson(view)), `${query || 'spectator'} at seq ${e.seq}`).toBe(at.body.state_hash);
        }
      }
    });

    it('given snapshots, then state_hash is the sha256 of the canonical JSON received, stable for a seq and different across seqs and viewers', async () => {
      const a = await get<Snapshot>(`/games/${ended}/snapshot?seq=50`);
      const again = await get<Snapshot>(`/games/${ended}/snapshot?seq=50`);
      const b = await get<Snapshot>(`/games/${ended}/snapshot?seq=51`);
      const admin = await get<Snapshot>(`/games/${ended}/snapshot?seq=50`, ADMIN);
      expect(a.body.state_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(a.body.state_hash).toBe(sha256(canonicalJson(a.body.state)));
      expect(again.body.state_hash).toBe(a.body.state_hash);
      expect(b.body.state_hash).not.toBe(a.body.state_hash);
      expect(admin.body.state_hash).not.toBe(a.body.state_hash);
      expect(admin.body.state_hash).toBe(sha256(canonicalJson(admin.body.state)));
    });

    it('given no seq, then the snapshot is at the head; a researcher sees every seat at the end of a finished game but only the public table in a running one', async () => {
      const head = (await server.store.getGame(ended)).last_seq;
      const end = await get<Snapshot>(`/games/${ended}/snapshot`, RESEARCHER);
      expect(end.body.seq).toBe(head);
      expect(end.body.state.private).toHaveLength(LINEUP.length);
      expect(end.body.state.world.seed).toBe(SEED);
      const live = await get<Snapshot>(`/games/${running}/snapshot`, RESEARCHER);
      expect(live.body.seq).toBe((await server.store.getGame(running)).last_seq);
      expect(live.body.state.private).toEqual([]);
      expect(live.body.state.world.seed).toBeNull();
      expect(leaks(live.body.state, { viewer: null, state: await server.store.stateAt(running), revealedThrough: 0 })).toEqual([]);
    });

    it('given a finished game, then a researcher may have one seat’s view ("what it knew"), the same the admin gets, and it is only that seat’s', async () => {
      const seq = Math.floor((await server.store.getGame(ended)).last_seq / 2);
      const researcher = await get<Snapshot>(`/games/${ended}/snapshot?seq=${seq}&view=plr_2`, RESEARCHER);
      const admin = await get<Snapshot>(`/games/${ended}/snapshot?seq=${seq}&view=plr_2`, ADMIN);
      expect(researcher.status).toBe(200);
      expect(researcher.body).toEqual(admin.body);
      expect(researcher.body.state.private.map((p) => p.player_id)).toEqual(['plr_2']);
      const events = await get<EventsPage>(`/games/${ended}/events?view=plr_2&limit=50`, RESEARCHER);
      expect(events.status).toBe(200);
      expect(events.body.events.length).toBeGreaterThan(0);
    });
  });

  describe('spectator delay', () => {
    const DELAY = 60_000;
    const options = { pace_ms: 0, spectator_delay_ms: DELAY };
    let delayedGame: string;
    let head: number;
    beforeAll(async () => {
      // The first 40 inputs were decided an hour ago, the rest just now: a delayed spectator sees exactly the old part.
      const hourAgo = Date.now() - 3_600_000;
      let inputs = 0;
      const clock = () => new Date(++inputs <= 40 ? hourAgo + inputs : Date.now()).toISOString();
      const out = await runPersistent(server.store, { seed: SEED + 2, agents: LINEUP, rules: RULES, options }, { clock });
      delayedGame = out.gameId;
      head = out.lastSeq;
      // As if the game had been registered two hours ago: stamps from an hour ago then lie within its lifetime.
      await server.store.prisma.$executeRaw`UPDATE games SET created_at = now() - interval '2 hours' WHERE game_id = ${delayedGame}`;
    });

    it('given a game with spectator_delay_ms, then a spectator sees only events committed at least that long ago while researchers and admins see it live', async () => {
      const cutoff = new Date(Date.now() - DELAY).toISOString();
      const log = await readLog(server.store, delayedGame);
      const visible = log.filter((e) => e.ts <= cutoff).length;
      expect(visible).toBeGreaterThan(0);
      expect(visible).toBeLessThan(head);

      const spectator = await allEvents(delayedGame, '');
      expect(spectator.events.map((e) => e.seq)).toEqual(Array.from({ length: visible }, (_, i) => i + 1));
      expect(spectator.events.every((e) => e.ts <= cutoff)).toBe(true);
      const page = await get<EventsPage>(`/games/${delayedGame}/events?after=${visible}`);
      expect(page.body).toMatchObject({ events: [], last_seq: visible, next_after: visible });

      for (const token of [RESEARCHER, ADMIN]) {
        const live = await get<EventsPage>(`/games/${delayedGame}/events?after=${head - 5}`, token);
        expect(live.body.last_seq).toBe(head);
        expect(live.body.events.at(-1)?.seq).toBe(head);
      }
    });

    it('given the same game, then GET /win-probability gives a spectator the public curve up to its delayed head only, and researchers and admins theirs live', async () => {
      const visible = (await get<EventsPage>(`/games/${delayedGame}/events?after=0&limit=1`)).body.last_seq;
      type Wp = { game_id: string; view: string; form: string; last_seq: number; points: Array<{ seq: number; p: Record<string, number> }> };
      const spectator = await get<Wp>(`/games/${delayedGame}/win-probability`);
      expect(spectator.status).toBe(200);
      expect(spectator.body).toMatchObject({ game_id: delayedGame, view: 'spectator', form: 'public', last_seq: visible });
      expect(spectator.body.points.length).toBeGreaterThan(0);
      expect(spectator.body.points.every((pt) => pt.seq <= visible)).toBe(true);
      // It has ended (only its last part is recent): researchers get the omniscient model then, live, as admins do.
      const researcher = await get<Wp>(`/games/${delayedGame}/win-probability`, RESEARCHER);
      expect(researcher.body).toMatchObject({ view: 'researcher', form: 'omniscient', last_seq: head });
      // A running game: researchers get the public model, read off the public table.
      expect((await get<Wp>(`/games/${running}/win-probability`, RESEARCHER)).body).toMatchObject({ view: 'researcher', form: 'public' });
      const admin = await get<Wp>(`/games/${delayedGame}/win-probability`, ADMIN);
      expect(admin.body).toMatchObject({ view: 'admin', form: 'omniscient', last_seq: head });
      for (const pt of admin.body.points) expect(Math.abs(Object.values(pt.p).reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-9);
    });

    it('given the same game, then a spectator snapshot defaults to the delayed head and one past it is refused with 403 saying why', async () => {
      const spectator = await get<Snapshot>(`/games/${delayedGame}/snapshot`);
      expect(spectator.status).toBe(200);
      expect(spectator.body.seq).toBe(spectator.body.last_seq);
      expect(spectator.body.seq).toBeLessThan(head);
      const ahead = await get<ErrorBody>(`/games/${delayedGame}/snapshot?seq=${head}`);
      expect(ahead.status).toBe(403);
      expect(ahead.body.message).toContain(`${DELAY} ms behind`);
      const admin = await get<Snapshot>(`/games/${delayedGame}/snapshot?seq=${head}`, ADMIN);
      expect(admin.status).toBe(200);
      expect((await get<Snapshot>(`/games/${delayedGame}/snapshot`, RESEARCHER)).body.seq).toBe(head);
    });

    it('given a delayed game whose stamps say nothing about when it was played (a logical clock), then a spectator sees nothing until the delay has passed since its last commit', async () => {
      const out = await runPersistent(server.store, { seed: SEED + 4, agents: ['random', 'turtle'], rules: { round_cap: 3 }, options }, { clock: logicalInputClock });
      const r = await get<EventsPage>(`/games/${out.gameId}/events`);
      expect(r.body).toMatchObject({ events: [], last_seq: 0, next_after: 0 });
      expect((await get<Snapshot>(`/games/${out.gameId}/snapshot`)).body.seq).toBe(0);
      expect((await get<EventsPage>(`/games/${out.gameId}/events`, RESEARCHER)).body.last_seq).toBe(out.lastSeq);
    });
  });

  describe('verify', () => {
    it('given a researcher or an admin, then verify returns a RunReport whose every assertion passes', async () => {
      for (const token of [RESEARCHER, ADMIN]) {
        const r = await get<{ game_id: string; scenario: string; events_checked: number; assertions: Array<{ name: string; status: string }>; artifacts_path: string }>(`/games/${ended}/verify`, token);
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ game_id: ended, scenario: 'verify', events_checked: fullLog.length, artifacts_path: `/games/${ended}/verify` });
        expect(r.body.assertions.map((a) => a.name)).toEqual(['hash chain intact', 'seq contiguous from 1', 'snapshots equal the fold of the events', 're-simulation reproduces the log']);
        expect(r.body.assertions.every((a) => a.status === 'pass')).toBe(true);
      }
    });
  });

  describe('analytics', () => {
    type Analytics = { view: string; private_details: boolean; status: string; unknown_figures: string[]; withheld_figures: Array<{ figure: string; reason: string }>; figures: { games: number; depth: Record<string, unknown>; seatWinRate: Array<number | null>; manipulationOutcomes: Record<string, number>; byAgent: Record<string, { games: number; attacks: number | null }> } };
    it('given an ended game, then researchers and admins get its figures with hidden details, and spectators get 403', async () => {
      for (const token of [RESEARCHER, ADMIN]) {
        const r = await get<Analytics>(`/games/${ended}/analytics`, token);
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ private_details: true, status: 'ended', figures: { games: 1 } });
        expect(r.body.figures.seatWinRate.some((x) => x === 1)).toBe(true);
        expect(Object.values(r.body.figures.manipulationOutcomes).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
        // One game cannot say how much the agent decides: those figures are null, each with why.
        expect(r.body.figures.depth).toMatchObject({ skillShare: null, winRateSpread: null });
        expect(r.body.withheld_figures.map((w) => w.figure)).toEqual(['depth.skillShare', 'depth.winRateSpread']);
        for (const w of r.body.withheld_figures) expect(w.reason).toMatch(/^needs at least 2 games/);
      }
      expect((await get(`/games/${ended}/analytics`)).status).toBe(403);
    });

    it('given a running game, then a researcher’s figures come from the public table only, an admin’s from everything', async () => {
      const researcher = await get<Analytics>(`/games/${running}/analytics`, RESEARCHER);
      const admin = await get<Analytics>(`/games/${running}/analytics`, ADMIN);
      expect(researcher.body).toMatchObject({ view: 'researcher', private_details: false });
      expect(admin.body).toMatchObject({ view: 'admin', private_details: true });
      // The figures of exactly what a public spectator may see, and of the whole log.
      const game = await server.store.getGame(running);
      const agents = [...game.seats].sort((a, b) => a.seat - b.seat).map((x) => x.agent);
      const decisions = (await readDecisions(server.store, running)).length;
      const log = await readLog(server.store, running);
      const figuresOf = (events: GameEvent[]) => {
        const stats = new SimStats();
        stats.add({ events, decisions, agents });
        return JSON.parse(JSON.stringify(stats.figures())) as unknown;
      };
      // What the public table hides is unknown (null, named in unknown_figures), not zero.
      const projected = log.map((e) => viewEvent(e, { role: 'spectator' }));
      const stats = new SimStats();
      stats.add({ events: projected, decisions, agents });
      expect(researcher.body.figures).toEqual(JSON.parse(JSON.stringify(maskHidden(stats.figures(), projected).figures)));
      expect(researcher.body.unknown_figures).toContain('byAgent.*.attacks');
      expect(Object.values(researcher.body.figures.byAgent).every((a) => a.attacks === null)).toBe(true);
      expect(admin.body.figures).toEqual(figuresOf(log));
      expect(admin.body.unknown_figures).toEqual([]);
      expect(admin.body.figures).not.toEqual(researcher.body.figures);
    });
  });

  describe('a cold log that fails its integrity check', () => {
    let cold: string;
    let segs: Array<{ first_seq: number; len: number }>;
    let clean: string;
    beforeAll(async () => {
      cold = (await runPersistent(server.store, { seed: SEED + 5, agents: LINEUP, rules: { round_cap: 12 } })).gameId;
      expect(await server.store.compact(cold)).toBe('compacted');
      segs = await server.store.prisma.$queryRaw`SELECT first_seq, length(data) AS len FROM cold_segments WHERE game_id = ${cold} ORDER BY first_seq`;
      expect(segs.length).toBeGreaterThanOrEqual(3);
      clean = JSON.stringify((await allEvents(cold, '', ADMIN, 1000)).events);
    });
    const flip = (first: number, pos: number) => flipSegmentByte(server.store, cold, first, pos);

    it('given one byte flipped in its first, a middle or its last segment (read and cached before), then every REST read of the game is a 500 problem body naming it, never its events, and the log says which seqs; restored, 200 as before', async () => {
      for (const seg of [segs[0]!, segs[Math.floor(segs.length / 2)]!, segs.at(-1)!]) {
        const pos = Math.ceil(seg.len / 2);
        await flip(seg.first_seq, pos);
        for (const [path, token] of [[`/games/${cold}/events?after=0`, undefined], [`/games/${cold}/events?after=${segs.at(-1)!.first_seq}`, ADMIN], [`/games/${cold}/snapshot?seq=3`, undefined], [`/games/${cold}/replay`, RESEARCHER], [`/games/${cold}/analytics`, ADMIN]] as const) {
          const r = await get<ErrorBody>(path, token);
          expect(r.status, `${path} with segment ${seg.first_seq} flipped`).toBe(500);
          expect(r.body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: `game ${cold}: its stored events fail their integrity check, so they are not served (the server logged the details)` });
        }
        const line = logged.findLast((l) => l.game_id === cold);
        expect(line).toMatchObject({ level: 'error', context: 'http', error: 'IntegrityError', part: 'events' });
        expect(String(line?.msg)).toMatch(new RegExp(`game ${cold}: events \\d+–\\d+ fail their integrity check`));
        await flip(seg.first_seq, pos);
        expect(JSON.stringify((await allEvents(cold, '', ADMIN, 1000)).events)).toBe(clean);
      }
    });

    it('given a spectator following it, when a byte of a segment is flipped, then a join (new, or again from 0) gets error game/integrity naming the game and no event; restored, a join gets the whole log', async () => {
      const before = await Watcher.connect(server.url);
      before.join({ gameId: cold, afterSeq: 0 });
      await before.ended();
      const seg = segs[1]!;
      await flip(seg.first_seq, 5);
      const late = await Watcher.connect(server.url);
      late.join({ gameId: cold, afterSeq: 0 });
      before.join({ gameId: cold, afterSeq: 0 });
      for (const w of [late, before]) {
        const { data } = await w.next('error');
        expect(data).toEqual({ code: 'game/integrity', message: `game ${cold}: its stored events fail their integrity check, so they are not served (the server logged the details)` });
      }
      // The feed may still hand out a state it made while the log was sound (seq 0 here); no event of the log follows.
      expect(late.all('event')).toEqual([]);
      expect(late.log.at(-1)?.name).toBe('error');
      await flip(seg.first_seq, 5);
      const after = await Watcher.connect(server.url);
      after.join({ gameId: cold, afterSeq: 0 });
      await after.ended();
      expect(after.seqs).toEqual(before.seqs);
      for (const w of [before, late, after]) w.close();
    });
  });

  describe('errors', () => {
    const cases: Array<[string, string, string | undefined, number, string]> = [
      ['an unknown game (events)', '/games/game_nope/events', undefined, 404, 'no game game_nope (GET /games lists them)'],
      ['an unknown game (snapshot)', '/games/game_nope/snapshot', undefined, 404, 'no game game_nope'],
      ['an unknown game (verify)', '/games/game_nope/verify', RESEARCHER, 404, 'no game game_nope'],
      ['a negative after', '/games/{id}/events?after=-1', undefined, 400, 'after: must be a whole number'],
      ['a limit of 0', '/games/{id}/events?limit=0', undefined, 400, 'limit:'],
      ['a limit over 1000', '/games/{id}/events?limit=1001', undefined, 400, 'limit:'],
      ['a limit that is not a number', '/games/{id}/events?limit=ten', undefined, 400, 'limit: must be a whole number'],
      ['a seq that is not a number', '/games/{id}/snapshot?seq=1.5', undefined, 400, 'seq: must be a whole number'],
      ['a seq past the head', '/games/{id}/snapshot?seq=999999', undefined, 400, 'seq: 999999 is past the head'],
      ['an unknown view', '/games/{id}/events?view=everything', ADMIN, 400, 'view must be spectator, researcher, admin or a seat id'],
      ['an unknown game (win-probability)', '/games/game_nope/win-probability', undefined, 404, 'no game game_nope'],
      ['a spectator asking for the admin win probability', '/games/{id}/win-probability?view=admin', undefined, 403, 'the admin view needs an admin token'],
      ['a researcher asking for a seat’s win probability of a running game', '/games/{id}/win-probability?view=plr_1', RESEARCHER, 403, 'a seat view needs an admin token while the game runs'],
      ['a seat the game does not have', '/games/{id}/snapshot?view=plr_9', ADMIN, 400, 'view: this game has seats plr_1 to plr_4'],
      ['a token nobody configured', '/games/{id}/events', 'not-a-token', 401, 'unknown token'],
      ['a spectator asking for the admin view', '/games/{id}/events?view=admin', undefined, 403, 'the admin view needs an admin token'],
      ['a spectator asking for the researcher view', '/games/{id}/snapshot?view=researcher', undefined, 403, 'the researcher view needs a researcher or admin token'],
      ['a researcher asking for a seat view of a running game', '/games/{id}/events?view=plr_1', RESEARCHER, 403, 'a seat view needs an admin token while the game runs'],
      ['a spectator asking to verify', '/games/{id}/verify', undefined, 403, 'this needs a researcher token'],
      ['an unknown token asking to verify', '/games/{id}/verify', 'not-a-token', 401, 'unknown token'],
    ];
    for (const [what, path, token, status, message] of cases) {
      it(`given ${what}, then ${status} as JSON {statusCode, error, message} saying "${message}"`, async () => {
        // A researcher may have a seat view of an ended game, not of a running one.
        const r = await get<ErrorBody>(path.replace('{id}', /researcher asking for a seat/.test(what) ? running : ended), token);
        expect(r.status).toBe(status);
        expect(Object.keys(r.body).sort()).toEqual(['error', 'message', 'statusCode']);
        expect(r.body.statusCode).toBe(status);
        expect(r.body.message).toContain(message);
      });
    }

    it('given a route that does not exist, then 404 in the same shape', async () => {
      const r = await get<ErrorBody>('/games/x/y/z');
      expect(r.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Cannot GET /games/x/y/z' });
    });

    it('given a request body that is not JSON, then 400 in the same shape (the body parser fails before any route)', async () => {
      const res = await fetch(`${server.url}/games`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` }, body: '{"agents": [' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as ErrorBody;
      expect(Object.keys(body).sort()).toEqual(['error', 'message', 'statusCode']);
      expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(body.message).toMatch(/JSON/);
    });

    it('given a stored state that no longer makes sense, then 500 without internals, and the error is logged with the game id', async () => {
      const broken = (await runPersistent(server.store, { seed: SEED + 3, agents: ['random', 'random'], rules: { round_cap: 3 } })).gameId;
      await server.store.prisma.$executeRaw`UPDATE snapshots SET state = '{"seq": 0, "players": 7}'::json WHERE game_id = ${broken}`;
      const r = await get<ErrorBody>(`/games/${broken}/snapshot?seq=5`);
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'internal error: the server logged the details' });
      const line = logged.find((l) => l.game_id === broken);
      expect(line).toMatchObject({ level: 'error', context: 'http', game_id: broken });
      expect(String(line?.msg)).toContain(`GET /games/${broken}/snapshot?seq=5 failed`);
    });
  });
});
