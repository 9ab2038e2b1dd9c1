import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GameEvent } from '../../../src/protocol/index.js';
import { createPersistentGame, resumePersistent } from '../../../src/runner/persistent-runner.js';
import { serverSettings } from '../../../src/server/config.js';
import { GameBus } from '../../../src/live/game-bus.js';
import { JsonLogger } from '../../../src/lib/json-logger.js';
import { SpectateService } from '../../../src/server/spectate/spectate.service.js';
import { GameLogService } from '../../../src/server/games/game-log.service.js';
import { visibleGame } from '../../../src/server/games/visible-game.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { decisionSeq } from '../../../src/server/games/stated-reasoning.js';
import { reasoningOf } from '../../../src/research/export-trace.js';
import { futureLeaks } from '../../support/leaks.js';
import { winCurve, type CurvePoint } from '../../../src/eval/curve.js';
import type { ReplayFile } from '../../../src/view/replay-file.js';
import type { StateView, Viewer } from '../../../src/game/index.js';
import { ADMIN, Watcher, sleep, until } from '../spectate-support.js';
import { serveSpectate, type ServedSpectate } from './serve-spectate.js';

const AGENTS = ['balanced', 'aggressor', 'trickster'];
/** The spectator delay, on the test's own clock: the clock moves only when the test moves it. */
const DELAY = 5_000;
let n = 0;

/** What the test has published of a game so far: the truth any release must be judged against. */
type Published = { events: GameEvent[]; commits: Map<number, number>; ended: boolean };

/**
 * The hold-back rule, computed by the test from what it published and its clock: the last seq a
 * broadcast audience may have by now. Time: the step committed DELAY ago; rounds: the log holds
 * an event two rounds on, or the game ended; `held`: only the game's end releases anything.
 */
function allowedHead(p: Published, clock: number, held = false, delayMs = DELAY, rounds = true): number {
  const lastTurn = p.events.at(-1)?.turn ?? 0;
  let head = 0;
  for (const e of p.events) {
    const byRounds = !rounds || p.ended || (!held && e.turn <= lastTurn - 2);
    if (!byRounds || p.commits.get(e.seq)! + delayMs > clock) break;
    head = e.seq;
  }
  return head;
}

/** The curve a viewer's replay file gives, a point after every event (the oracle: the file is what `/events` gives that viewer). */
function curveOf(file: ReplayFile, viewer: Viewer): Map<number, CurvePoint> {
  const curve = winCurve({ seq: 0, view: file.base as unknown as StateView }, file.events as unknown as GameEvent[], viewer, file.game_over);
  return new Map(curve.points.map((pt) => [pt.seq, pt]));
}

/** The value a step line (changes-only points, in seq order) holds at `seq`. */
const stepAt = (points: readonly CurvePoint[], seq: number): CurvePoint | undefined => points.filter((pt) => pt.seq <= seq).at(-1);

/** Whether two points' chances agree within `tol` for every seat. */
const same = (a: Record<string, number>, b: Record<string, number>, tol = 1e-9): boolean => Object.keys({ ...a, ...b }).every((id) => Math.abs((a[id] ?? 0) - (b[id] ?? 0)) <= tol);

/**
 * A broadcast game on the real SpectateService and a real socket.io client, with a clock the test
 * owns and a game the test moves one step at a time: every frame an anonymous client receives is
 * judged against what the test had published and how far its clock had gone when it arrived — the
 * server cannot have known more by then — so no assertion reads the wall clock. REST pages,
 * snapshots and the lobby's game record are read while the game stands still and must cut the log
 * exactly where the rule does.
 */
describe('a broadcast game: nothing reaches an anonymous client before the hold-back releases it', () => {
  let store: EventStore;
  let served: ServedSpectate;
  let url: string;
  const bus = new GameBus();
  let clock = Date.now();
  let service: SpectateService;
  let rest: GameLogService;
  const watchers: Watcher[] = [];

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    // Staleness is judged on the same clock: the test's jumps must not make its clients look silent.
    const settings = serverSettings({ TILTYARD_HASH_EVERY: '10', TILTYARD_LOG: 'silent', TILTYARD_STALE_MS: '3600000', TILTYARD_ADMIN_TOKEN: ADMIN });
    service = new SpectateService(store, settings, new JsonLogger('silent'), bus, { pageSize: 7, retainEvents: 20 }, () => clock);
    rest = new GameLogService(store, bus, () => clock);
    served = await serveSpectate(service);
    url = served.url;
  });
  afterAll(async () => {
    for (const w of watchers) w.close();
    await served?.close();
    await store?.close();
  });

  /** A game the test moves: `step()` lets exactly one engine step commit and resolves once it is published. */
  async function table(options: Record<string, unknown>, agents = AGENTS) {
    const gameId = `game_bcast${String(++n).padStart(8, '0')}`;
    // Nine digits: a seed found as text in a frame is the seed, not a coincidence of a timestamp.
    const seed = 912_345_000 + n;
    await createPersistentGame(store, { gameId, seed, agents, rules: { round_cap: 5 }, options: { pace_ms: 1, spectator_delay_ms: DELAY, ...options } });
    bus.commits.retain(gameId, DELAY);
    bus.announce({ type: 'game_started', game_id: gameId, agents, at: new Date(clock).toISOString() });
    const published: Published = { events: [], commits: new Map(), ended: false };
    let allowance = 0;
    let committed = 0;
    const done = resumePersistent(store, gameId, {
      paceMs: 1,
      pause: async () => {
        while (allowance <= 0) await sleep(2);
        allowance--;
      },
      onCommit: (seq, _state, events) => {
        for (const e of events) published.events.push(structuredClone<GameEvent>(e));
        for (const e of events) published.commits.set(e.seq, clock);
        if (events.some((e) => e.type === 'game_ended')) published.ended = true;
        bus.publish({ game_id: gameId, events: structuredClone(events) as GameEvent[], last_seq: seq, committed_at: clock });
        committed++;
      },
    });
    const step = async () => {
      const before = committed;
      allowance++;
      await until(() => committed > before || published.ended, 'a step');
    };
    return { gameId, published, step, done, seed };
  }

  /** Every frame the client got, judged as of its arrival (the published log and clock then). */
  function judge(w: Watcher, arrivals: Map<number, { head: number }>, seed: number): string[] {
    const problems: string[] = [];
    for (const m of w.log) {
      if (m.name !== 'event' && m.name !== 'snapshot' && m.name !== 'win_probability') continue;
      const seq = (m.data as { seq: number }).seq;
      const allowed = arrivals.get(w.log.indexOf(m))?.head ?? -1;
      if (seq > allowed) problems.push(`${m.name} #${seq} arrived when the rule allowed up to #${allowed}`);
      for (const leak of futureLeaks(m.data, seed)) problems.push(`${m.name} #${seq}: ${leak}`);
    }
    return problems;
  }

  /** Records, for each frame as it arrives, the head the rule allowed at that moment. */
  function stamp(w: Watcher, published: Published, held = false, delayMs = DELAY, rounds = true): Map<number, { head: number }> {
    const arrivals = new Map<number, { head: number }>();
    w.socket.onAny(() => arrivals.set(w.log.length - 1, { head: allowedHead(published, clock, held, delayMs, rounds) }));
    return arrivals;
  }

  it('given an anonymous client on a broadcast game, then it gets hands, plans, private speech and emotions, each frame only once its step is DELAY old and the round after its own has ended, and REST cuts the log at the same place', async () => {
    const game = await table({ spectators: 'broadcast' });
    const w = await Watcher.connect(url);
    watchers.push(w);
    const arrivals = stamp(w, game.published);
    w.join({ gameId: game.gameId, afterSeq: 0 });
    await w.next('snapshot');
    let restChecks = 0;
    let heldByRounds = 0;
    let midGame = 0;
    for (let i = 0; !game.published.ended; i++) {
      await game.step();
      // The clock jumps past the delay every few steps and stands still in between.
      if (i % 4 === 3) clock += DELAY;
      if (i % 5 === 0 && !game.published.ended) {
        const allowed = allowedHead(game.published, clock);
        const page = await rest.events(game.gameId, 'spectator', { after: 0, limit: 1000 });
        expect(page.last_seq).toBeLessThanOrEqual(allowed);
        expect(page.events.map((e) => e.seq)).toEqual(Array.from({ length: page.last_seq }, (_, k) => k + 1));
        for (const e of page.events) expect(futureLeaks(e, game.seed)).toEqual([]);
        // The win-probability curve stops where the events do, and is the broadcast's omniscient one.
        const wp = await rest.winProbability(game.gameId, 'spectator', {});
        expect(wp.last_seq).toBe(page.last_seq);
        expect(wp.view).toBe('broadcast');
        expect(wp.form).toBe('omniscient');
        for (const pt of wp.points) expect(pt.seq).toBeLessThanOrEqual(page.last_seq);
        const record = await visibleGame(store, await store.getGame(game.gameId), 'spectator', clock, bus.commits);
        expect(record.last_seq).toBeLessThanOrEqual(allowed);
        expect(record.status).not.toBe('ended');
        // Far enough on, only the round rule binds, and REST cuts exactly where it says.
        const later = clock + 10 * 60_000;
        const roundsOnly = allowedHead(game.published, later);
        const farRest = new GameLogService(store, bus, () => later);
        expect((await farRest.snapshot(game.gameId, 'spectator', {})).last_seq).toBe(roundsOnly);
        // A researcher asking for the broadcast view is held back the same way (researchers see the public table live).
        expect((await farRest.events(game.gameId, 'researcher', { after: 0, limit: 1000, view: 'broadcast' })).last_seq).toBe(roundsOnly);
        if (roundsOnly < game.published.events.length) heldByRounds++;
        restChecks++;
      }
    }
    midGame = w.seqs.length;
    clock += DELAY;
    await w.ended();
    expect(judge(w, arrivals, game.seed)).toEqual([]);
    // It flowed while the game ran (released on commits and timers), not all at the end.
    expect(midGame).toBeGreaterThan(0);
    const [snap] = w.all('snapshot');
    expect(w.seqs).toEqual(Array.from({ length: game.published.events.length - snap!.seq }, (_, k) => snap!.seq + 1 + k));
    // The broadcast view it got by default shows what the public one hides.
    expect(snap!.view).toBe('broadcast');
    const events = w.all('event').map((m) => m.event);
    expect(events.some((e) => e.type === 'cards_drawn' && (e.payload as { card_refs?: unknown[] }).card_refs?.length)).toBe(true);
    expect(events.some((e) => e.type === 'secret_plan_committed' && (e.payload as { plan?: unknown }).plan)).toBe(true);
    expect(events.some((e) => e.type === 'emotion_updated' && (e.payload as { emotions?: unknown }).emotions)).toBe(true);
    expect(events.some((e) => e.type === 'speech_posted' && (e.payload as { speech_act?: unknown }).speech_act)).toBe(true);
    expect(restChecks).toBeGreaterThan(5);
    expect(heldByRounds).toBeGreaterThan(0);
    // The socket's estimates came while the game ran, omniscient, each equal to the curve of the
    // broadcast view's events at its seq (judge: none before its event was allowed).
    await w.next('win_probability', (m) => m.seq === game.published.events.length);
    const estimates = w.all('win_probability');
    expect(estimates.filter((m) => m.seq < game.published.events.length).length).toBeGreaterThan(3);
    const oracle = curveOf(await rest.replay(game.gameId, 'spectator', {}), { role: 'broadcast' });
    for (const m of estimates) {
      expect(m.form).toBe('omniscient');
      expect(m.view).toBe('broadcast');
      expect(same(m.p, oracle.get(m.seq)!.p)).toBe(true);
    }
    await game.done;
  });

  it('given LLM seats on a broadcast game, then each decision’s stated reasoning reaches an anonymous client (socket.io and REST) only on the event its answer made, once the hold-back released that event, and never on the public view', async () => {
    // Hermetic: the plain mock provider, whatever providers file or keys the developer's environment has.
    const dir = mkdtempSync(join(tmpdir(), 'tiltyard-bcast-llm-'));
    const plain = join(dir, 'plain.providers.json');
    writeFileSync(plain, JSON.stringify({ providers: { mock: { kind: 'mock' } } }));
    vi.stubEnv('TILTYARD_PROVIDERS_FILE', plain);
    try {
      const game = await table({ spectators: 'broadcast' }, ['llm:mock', 'balanced', 'llm:mock']);
      const w = await Watcher.connect(url);
      const pub = await Watcher.connect(url);
      watchers.push(w, pub);
      const arrivals = stamp(w, game.published);
      w.join({ gameId: game.gameId, afterSeq: 0 });
      pub.join({ gameId: game.gameId, afterSeq: 0, view: 'spectator' });
      await w.next('snapshot');
      await pub.next('snapshot');
      const pages: Array<{ allowed: number; events: Array<{ seq: number; reasoning?: unknown }> }> = [];
      let reasonedMidGame = 0;
      for (let i = 0; !game.published.ended; i++) {
        await game.step();
        if (i % 4 === 3) clock += DELAY;
        if (i % 3 === 0 && !game.published.ended) {
          const allowed = allowedHead(game.published, clock);
          const page = await rest.events(game.gameId, 'spectator', { after: 0, limit: 1000 });
          pages.push({ allowed, events: page.events });
          const publicPage = await rest.events(game.gameId, 'spectator', { after: 0, limit: 1000, view: 'spectator' });
          expect(JSON.stringify(publicPage)).not.toContain('"reasoning"');
        }
      }
      reasonedMidGame = w.events.filter((m) => 'reasoning' in m.event).length;
      clock += DELAY;
      await w.ended();
      await pub.ended();
      await game.done;

      // Every trace is stored now: what each decision said, and the event its answer made.
      const said = new Map<number, Array<{ player_id: string; text: string }>>();
      for (const t of await store.readTraces(game.gameId)) {
        const text = reasoningOf(t.entries);
        if (!text) continue;
        const seq = decisionSeq(t.request_id)!;
        said.set(seq, [...(said.get(seq) ?? []), { player_id: t.player_id, text }]);
      }
      expect(said.size).toBeGreaterThan(10);
      const lines = (r: unknown) => (r as Array<{ player_id: string; text: string }>).map((l) => ({ player_id: l.player_id, text: l.text }));
      // Socket: reasoning only on its own event (so only once that event was allowed: judge), nowhere else.
      expect(judge(w, arrivals, game.seed)).toEqual([]);
      for (const m of w.log) {
        if (m.name === 'event') {
          const e = (m.data as { event: { seq: number; reasoning?: unknown } }).event;
          if ('reasoning' in e) expect(lines(e.reasoning)).toEqual(said.get(e.seq));
        } else expect(JSON.stringify(m.data)).not.toContain('"reasoning"');
      }
      const onSocket = w.events.filter((m) => 'reasoning' in m.event).length;
      // All of it, bar at most the last decision's (its trace is stored just after the step that ended the game).
      expect(onSocket).toBeGreaterThanOrEqual(said.size - 1);
      expect(reasonedMidGame).toBeGreaterThan(0);
      expect(reasonedMidGame).toBeLessThan(onSocket);
      // A client joining after the end gets all of it, the last decision's too.
      const late = await Watcher.connect(url);
      watchers.push(late);
      late.join({ gameId: game.gameId, afterSeq: 0 });
      await late.ended();
      expect(new Map(late.events.filter((m) => 'reasoning' in m.event).map((m) => [m.seq, lines((m.event as { reasoning?: unknown }).reasoning)]))).toEqual(said);
      // REST pages read mid-game: cut at the allowed head, reasoning only on its own event.
      for (const p of pages) {
        for (const e of p.events) {
          expect(e.seq).toBeLessThanOrEqual(p.allowed);
          if ('reasoning' in e) expect(lines(e.reasoning)).toEqual(said.get(e.seq));
        }
      }
      expect(pages.some((p) => p.events.some((e) => 'reasoning' in e))).toBe(true);
      // Once all is released: every decision's reasoning, on REST and in the replay file; never on the public table.
      const all = await rest.events(game.gameId, 'spectator', { after: 0, limit: 1000 });
      expect(new Map(all.events.filter((e) => 'reasoning' in e).map((e) => [e.seq, lines((e as { reasoning?: unknown }).reasoning)]))).toEqual(said);
      const file = await rest.replay(game.gameId, 'spectator', {});
      expect(file.view).toBe('broadcast');
      expect(file.events.filter((e) => 'reasoning' in e).length).toBe(said.size);
      expect(JSON.stringify(pub.log)).not.toContain('"reasoning"');
      expect(JSON.stringify(await rest.replay(game.gameId, 'spectator', { view: 'spectator' }))).not.toContain('"reasoning"');
      // Only the stated text: never the prompt or the rest of the trace.
      for (const e of all.events) for (const l of ((e as { reasoning?: object[] }).reasoning ?? [])) expect(Object.keys(l).sort()).toEqual(['player_id', 'text', 'window']);
    } finally {
      vi.unstubAllEnvs();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('given a broadcast held for a seat that could act on it, then an anonymous client gets nothing past the start until the game has ended, and then everything', async () => {
    const game = await table({ spectators: 'broadcast', broadcast_held: true, spectator_delay_ms: 0 });
    const w = await Watcher.connect(url);
    watchers.push(w);
    const arrivals = stamp(w, game.published, true, 0);
    w.join({ gameId: game.gameId, afterSeq: 0 });
    await w.next('snapshot');
    for (let i = 0; !game.published.ended; i++) {
      await game.step();
      if (i % 7 === 0 && !game.published.ended) {
        const page = await rest.events(game.gameId, 'spectator', { after: 0, limit: 1000 });
        expect(page.last_seq).toBe(0);
      }
    }
    clock += DELAY;
    await w.ended();
    expect(judge(w, arrivals, game.seed)).toEqual([]);
    expect(w.seqs).toEqual(Array.from({ length: game.published.events.length }, (_, k) => k + 1));
    await game.done;
  });

  it('given a public game, then the broadcast view is refused and the public projection is what anonymous clients get', async () => {
    const game = await table({ spectator_delay_ms: 0 });
    const w = await Watcher.connect(url);
    watchers.push(w);
    w.join({ gameId: game.gameId, view: 'broadcast' });
    expect((await w.next('error')).data.code).toBe('auth/forbidden');
    await expect(rest.events(game.gameId, 'spectator', { after: 0, limit: 10, view: 'broadcast' })).rejects.toThrow(/not broadcast/);
    const v = await Watcher.connect(url);
    watchers.push(v);
    v.join({ gameId: game.gameId, afterSeq: 0 });
    const snap = await v.next('snapshot');
    expect(snap.data.view).toBe('spectator');
    const admin = await Watcher.connect(url, { auth: { token: ADMIN } });
    watchers.push(admin);
    admin.join({ gameId: game.gameId, afterSeq: 0 });
    await admin.next('snapshot');
    while (!game.published.ended) await game.step();
    await v.ended();
    for (const e of v.all('event')) if (e.event.type === 'cards_drawn') expect(e.event.payload).not.toHaveProperty('card_refs');
    await game.done;
    // Win probability: anonymous callers get the public model, and it is the curve of the
    // spectator's own events; the omniscient one (admins) differs on some point.
    const last = game.published.events.length;
    await v.next('win_probability', (m) => m.seq === last);
    await admin.next('win_probability', (m) => m.seq === last);
    const publicCurve = curveOf(await rest.replay(game.gameId, 'spectator', {}), { role: 'spectator' });
    const omniscientCurve = curveOf(await rest.replay(game.gameId, 'admin', {}), { role: 'admin' });
    const anonymous = v.all('win_probability');
    expect(anonymous.length).toBeGreaterThan(3);
    for (const m of anonymous) {
      expect(m.form).toBe('public');
      expect(same(m.p, publicCurve.get(m.seq)!.p)).toBe(true);
    }
    for (const m of admin.all('win_probability')) {
      expect(m.form).toBe('omniscient');
      expect(same(m.p, omniscientCurve.get(m.seq)!.p)).toBe(true);
    }
    expect([...publicCurve.values()].some((pt) => !same(pt.p, omniscientCurve.get(pt.seq)!.p, 1e-3))).toBe(true);
    const wp = await rest.winProbability(game.gameId, 'spectator', {});
    expect(wp).toMatchObject({ game_id: game.gameId, view: 'spectator', form: 'public', last_seq: last });
    for (const [seq, pt] of publicCurve) expect(same(stepAt(wp.points, seq)?.p ?? {}, pt.p, 1e-4)).toBe(true);
    const adminWp = await rest.winProbability(game.gameId, 'admin', {});
    expect(adminWp.form).toBe('omniscient');
    // A researcher sees it all once the game is over; an anonymous caller cannot ask for more than the public table.
    expect((await rest.winProbability(game.gameId, 'researcher', {})).form).toBe('omniscient');
    await expect(rest.winProbability(game.gameId, 'spectator', { view: 'admin' })).rejects.toThrow(/admin token/);
    await expect(rest.winProbability('game_nosuch0000', 'spectator', {})).rejects.toThrow(/game_nosuch0000/);
  });

  it('given a public game with a spectator delay, then an anonymous client’s win probability (socket and REST) is the public one and never runs ahead of the delay, while researchers follow it live', async () => {
    const game = await table({});
    const w = await Watcher.connect(url);
    watchers.push(w);
    const arrivals = stamp(w, game.published, false, DELAY, false);
    w.join({ gameId: game.gameId, afterSeq: 0 });
    await w.next('snapshot');
    let checks = 0;
    let behind = 0;
    for (let i = 0; !game.published.ended; i++) {
      await game.step();
      if (i % 4 === 3) clock += DELAY;
      if (i % 3 === 0 && !game.published.ended) {
        const allowed = allowedHead(game.published, clock, false, DELAY, false);
        const wp = await rest.winProbability(game.gameId, 'spectator', {});
        expect(wp.form).toBe('public');
        expect(wp.last_seq).toBeLessThanOrEqual(allowed);
        for (const pt of wp.points) expect(pt.seq).toBeLessThanOrEqual(allowed);
        const live = await rest.winProbability(game.gameId, 'researcher', {});
        expect(live.last_seq).toBe(game.published.events.length);
        if (wp.last_seq < live.last_seq) behind++;
        checks++;
      }
    }
    clock += DELAY;
    await w.ended();
    await w.next('win_probability', (m) => m.seq === game.published.events.length);
    expect(judge(w, arrivals, game.seed)).toEqual([]);
    expect(checks).toBeGreaterThan(3);
    expect(behind).toBeGreaterThan(0);
    const oracle = curveOf(await rest.replay(game.gameId, 'spectator', {}), { role: 'spectator' });
    for (const m of w.all('win_probability')) {
      expect(m.form).toBe('public');
      expect(same(m.p, oracle.get(m.seq)!.p)).toBe(true);
    }
    await game.done;
  });
});
