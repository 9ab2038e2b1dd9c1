import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaks } from '../support/leaks.js';
import {
  ADMIN,
  RESEARCHER,
  Watcher,
  createGame,
  gameEnded,
  sleep,
  startServer,
  statesOf,
  until,
} from './spectate-support.js';

const FOUR = ['balanced', 'aggressor', 'manipulator', 'trickster'];
/** How long a refused join is watched for anything besides its error. */
const QUIET_MS = 300;

describe('/spectate on a real server: who sees what, and when', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let ended: string;
  const watchers: Watcher[] = [];
  const watch = async (options?: Parameters<typeof Watcher.connect>[1]) => {
    const w = await Watcher.connect(server.url, options);
    watchers.push(w);
    return w;
  };
  /**
   * Joins with `payload` and returns everything received in the quiet period after the first
   * message. Heartbeats are left out: every TILTYARD_HEARTBEAT_MS each joined socket gets one, so
   * one can land in the window on a slow machine, and they answer nothing.
   */
  const answerTo = async (payload: unknown, options?: Parameters<typeof Watcher.connect>[1]) => {
    const w = await watch(options);
    // A joined socket also gets the win probability at its head (win_probability), computed after
    // the join on a later turn: it answers nothing about the join, so it is left out like heartbeats.
    const answers = () => w.log.filter((m) => m.name !== 'heartbeat' && m.name !== 'win_probability');
    w.socket.emit('join', payload);
    await until(() => answers().length > 0, 'an answer');
    await sleep(QUIET_MS);
    lastWatcher = w;
    return answers().map((m) => ({ name: m.name, data: m.data }));
  };
  let lastWatcher: Watcher | null = null;
  const refused = (code: string) => [
    { name: 'error', data: { code, message: expect.any(String) } },
  ];

  beforeAll(async () => {
    // Every watcher stays open until the end: more sockets than one address may hold by default.
    server = await startServer({ TILTYARD_SOCKETS_PER_IP: '100' });
    ended = await createGame(server, {
      agents: ['random', 'turtle'],
      pace_ms: 0,
      rules: { round_cap: 3 },
    });
    await gameEnded(server.store, ended);
  });
  afterAll(async () => {
    for (const w of watchers) w.close();
    await server?.dispose();
  });

  it('given a wrong token (in the join or the handshake), then auth/unauthorized and nothing else', async () => {
    expect(await answerTo({ gameId: ended, token: 'nope' })).toEqual(refused('auth/unauthorized'));
    expect(await answerTo({ gameId: ended }, { auth: { token: 'nope' } })).toEqual(
      refused('auth/unauthorized'),
    );
  });

  it('given a view above the role, then auth/forbidden and nothing else; views within the role are served', async () => {
    expect(await answerTo({ gameId: ended, view: 'admin' })).toEqual(refused('auth/forbidden'));
    expect(await answerTo({ gameId: ended, view: 'researcher' })).toEqual(
      refused('auth/forbidden'),
    );
    expect(await answerTo({ gameId: ended, view: 'plr_1', token: RESEARCHER })).toEqual(
      refused('auth/forbidden'),
    );
    expect(await answerTo({ gameId: ended, view: 'admin', token: RESEARCHER })).toEqual(
      refused('auth/forbidden'),
    );
    for (const [token, view, expected] of [
      [undefined, undefined, 'spectator'],
      [RESEARCHER, undefined, 'researcher'],
      [RESEARCHER, 'spectator', 'spectator'],
      [ADMIN, undefined, 'admin'],
      [ADMIN, 'plr_2', 'plr_2'],
    ] as const) {
      const got = await answerTo({
        gameId: ended,
        ...(token ? { token } : {}),
        ...(view ? { view } : {}),
      });
      expect(got.map((m) => m.name)).toEqual(['snapshot']);
      expect(got[0]!.data).toMatchObject({ game_id: ended, view: expected });
      // And the estimate at the head, in the model the view is entitled to (the game is over: only the public table and a seat's view are public).
      const estimate = await lastWatcher!.next('win_probability');
      expect(estimate.data).toMatchObject({ game_id: ended, view: expected, seq: (got[0]!.data as { seq: number }).seq, form: expected === 'spectator' || expected.startsWith('plr_') ? 'public' : 'omniscient' });
    }
    // Through the handshake too.
    expect((await answerTo({ gameId: ended }, { auth: { token: ADMIN } }))[0]!.data).toMatchObject({
      view: 'admin',
    });
  });

  it('given a human seat\'s token, then it follows its own seat\'s view (live, win chances in the public form) and is refused every other view, game and the lobby; nothing it receives leaks another seat', async () => {
    const res = await fetch(`${server.url}/games`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agents: ['human:Ada', 'human', 'balanced', 'turtle'], seed: 4040, pace_ms: 0, human_timeout_ms: 5, rules: { round_cap: 3 } }),
    });
    expect(res.status).toBe(201);
    const { game_id: id, human_seats: [one, two] } = (await res.json()) as { game_id: string; human_seats: Array<{ player_id: string; token: string }> };
    // Follows the whole game from the start, token in the join; another from the handshake.
    const mine = await watch();
    mine.join({ gameId: id, afterSeq: 0, token: one!.token });
    const viaHandshake = await watch({ auth: { token: two!.token } });
    viaHandshake.join({ gameId: id, afterSeq: 0 });
    await Promise.all([mine.ended(), viaHandshake.ended()]);
    expect(mine.all('snapshot')[0]).toMatchObject({ game_id: id, view: 'plr_1' });
    expect(viaHandshake.all('snapshot')[0]).toMatchObject({ game_id: id, view: 'plr_2' });
    expect(mine.all('error')).toEqual([]);
    expect(mine.seqs).toEqual(Array.from({ length: (await server.store.getGame(id)).last_seq }, (_, i) => i + 1));
    const estimates = await mine.next('win_probability');
    expect(estimates.data).toMatchObject({ view: 'plr_1', form: 'public' });
    expect(mine.all('win_probability').every((m) => m.form === 'public')).toBe(true);
    // Nothing a seat's socket gets names another seat's hand, plan, private line or feelings.
    const states = await statesOf(server.store, id);
    const problems = mine.log.flatMap((m) => {
      const seq = (m.data as { seq?: number } | undefined)?.seq ?? 0;
      return leaks(m.data, { viewer: 'plr_1', ...states[seq]! }).map((f) => `${m.name}#${seq}: ${f}`);
    });
    expect(problems).toEqual([]);
    // Every other view of its own game is a 403, whether asked in the join or not.
    for (const view of ['plr_2', 'plr_3', 'spectator', 'researcher', 'admin', 'broadcast'])
      expect(await answerTo({ gameId: id, view, token: one!.token }), view).toEqual(refused('auth/forbidden'));
    expect(await answerTo({ gameId: id, view: 'plr_1' }, { auth: { token: two!.token } })).toEqual(refused('auth/forbidden'));
    // It is no token at all for another game, nor for the lobby (which is no seat's).
    expect(await answerTo({ gameId: ended, token: one!.token })).toEqual(refused('auth/unauthorized'));
    const lobby = await watch();
    lobby.socket.emit('lobby', { token: one!.token });
    expect((await lobby.next('error')).data).toMatchObject({ code: 'auth/unauthorized' });
    expect(lobby.got('lobby_joined')).toEqual([]);
  });

  it('given malformed join payloads, then a clear join/invalid error each and nothing else', async () => {
    const bad: unknown[] = [
      undefined,
      'game',
      42,
      [],
      {},
      { gameId: '' },
      { gameId: 5 },
      { gameId: ended, afterSeq: -1 },
      { gameId: ended, afterSeq: 1.5 },
      { gameId: ended, after_seq: 3 },
      { gameId: ended, view: 7 },
      { gameId: ended, view: 'god' },
      { gameId: ended, view: 'plr_9', token: ADMIN },
    ];
    for (const payload of bad) {
      const got = await answerTo(payload);
      expect(got, JSON.stringify(payload)).toEqual(refused('join/invalid'));
    }
    const [typo] = await answerTo({ gameId: ended, after_seq: 3 });
    expect(typo!.data).toMatchObject({ message: expect.stringMatching(/after_seq/) });
  });

  it('given an unknown game or a seq past the head, then game/not_found or join/seq_out_of_range', async () => {
    expect(await answerTo({ gameId: 'game_000000000000' })).toEqual(refused('game/not_found'));
    const head = (await server.store.getGame(ended)).last_seq;
    expect(await answerTo({ gameId: ended, afterSeq: head + 1 })).toEqual(
      refused('join/seq_out_of_range'),
    );
  });

  it('given a client following a game, when it sends bad joins meanwhile, then each is refused and its stream carries on untouched', async () => {
    const id = await createGame(server, { agents: FOUR, pace_ms: 2 });
    const w = await watch();
    w.join({ gameId: id, afterSeq: 0 });
    await w.reached(50);
    for (const payload of [
      { gameId: id, bogus: 1 },
      { gameId: 'game_000000000000' },
      { gameId: id, token: 'nope' },
      { gameId: id, view: 'admin' },
    ])
      w.join(payload);
    await w.ended();
    // (not_found comes last: it is the one answer that needs the store)
    expect(w.all('error').map((e) => e.code)).toEqual([
      'join/invalid',
      'auth/unauthorized',
      'auth/forbidden',
      'game/not_found',
    ]);
    expect(w.all('snapshot')).toHaveLength(1);
    expect(w.seqs).toEqual(
      Array.from({ length: (await server.store.getGame(id)).last_seq }, (_, i) => i + 1),
    );
  });

  it('given whole games, then nothing a public spectator receives (snapshots, events, hashes, heartbeats) leaks hidden information — while the admin stream of the same games does carry it', async () => {
    const games = [
      { agents: FOUR, seed: 123_456_789 },
      { agents: ['manipulator', 'trickster', 'random'], seed: 987_654_321 },
      { agents: ['balanced', 'aggressor', 'turtle', 'random', 'manipulator'], seed: 555_555_555 },
    ];
    let checked = 0;
    for (const g of games) {
      const id = await createGame(server, { ...g, pace_ms: 1 });
      const live = await watch();
      const admin = await watch();
      const researcher = await watch();
      live.join({ gameId: id, afterSeq: 0 });
      admin.join({ gameId: id, afterSeq: 0, token: ADMIN });
      researcher.join({ gameId: id, afterSeq: 0, token: RESEARCHER });
      await until(async () => (await server.store.getGame(id)).last_seq >= 200, 'seq 200');
      const mid = await watch();
      mid.join({ gameId: id });
      await Promise.all([live.ended(), mid.ended(), admin.ended(), researcher.ended()]);
      const after = await watch();
      after.join({ gameId: id, afterSeq: 0 });
      await after.ended();
      const states = await statesOf(server.store, id);
      const problems: string[] = [];
      for (const w of [live, mid, after]) {
        for (const m of w.log) {
          const seq = (m.data as { seq?: number } | undefined)?.seq ?? undefined;
          const at = states[seq ?? 0]!;
          const found = leaks(m.data, {
            viewer: null,
            state: at.state,
            revealedThrough: at.revealedThrough,
          });
          if (found.length) problems.push(`${m.name}#${seq}: ${found.join(', ')}`);
          checked++;
        }
      }
      // Researchers see the public table while the game runs (private details only from its last step on).
      const lastStep = researcher.events.at(-1)!.committed_at;
      for (const e of researcher.events.filter((x) => x.committed_at !== lastStep)) {
        const found = leaks(e, { viewer: null, ...states[e.seq]! });
        if (found.length) problems.push(`researcher event#${e.seq}: ${found.join(', ')}`);
      }
      expect(problems).toEqual([]);
      const adminLeaks = admin.events.flatMap((m) => leaks(m, { viewer: null, ...states[m.seq]! }));
      expect(adminLeaks.length).toBeGreaterThan(0);
    }
    expect(checked).toBeGreaterThan(2_000);
  });

  it('given a game with a spectator delay, then spectators stay that far behind (stream, snapshot and lobby) while admins and researchers watch live', async () => {
    const DELAY = 1_500;
    const lobbyPub = await watch();
    const lobbyAdmin = await watch();
    lobbyPub.socket.emit('lobby');
    lobbyAdmin.socket.emit('lobby', { token: ADMIN });
    await Promise.all([lobbyPub, lobbyAdmin].map((w) => w.next('lobby_joined')));
    const id = await createGame(server, { agents: FOUR, pace_ms: 10, spectator_delay_ms: DELAY });
    const pub = await watch();
    const admin = await watch();
    const researcher = await watch();
    pub.join({ gameId: id, afterSeq: 0 });
    admin.join({ gameId: id, afterSeq: 0, token: ADMIN });
    researcher.join({ gameId: id, afterSeq: 0, token: RESEARCHER });
    await pub.reached(50);
    const late = await watch();
    // What the public stream had been given before the late spectator joined: the delayed head was
    // at least there when the join arrived (an order fact, unlike a time window around the join).
    const publicBeforeJoin = pub.last;
    late.join({ gameId: id });
    const snapMsg = await late.next('snapshot');
    const snap = snapMsg.data;
    await admin.ended();
    // That the public is held back is the lag check below (every event at least the delay after its
    // commit); comparing what each client holds at one instant would race on a stalled test process.
    const adminEnd = admin.events.at(-1)!;
    await Promise.all([pub.ended(), late.ended(), researcher.ended()]);

    const lag = (w: Watcher) =>
      w
        .got('event')
        .flatMap((m) => (m.data.committed_at === null ? [] : [m.at - m.data.committed_at]));
    const pubLag = lag(pub);
    expect(pubLag.length).toBeGreaterThan(100);
    // Held back by the delay at least (how much longer a loaded machine takes is not asserted).
    expect(Math.min(...pubLag)).toBeGreaterThanOrEqual(DELAY);
    for (const w of [admin, researcher]) expect(lag(w).length).toBeGreaterThan(100);

    // The late spectator's snapshot is a delayed head: its seq committed at least the delay before
    // the answer (nothing newer leaks), and it is no older than what the public stream had already
    // been given when the join was sent (the release timers may lag a loaded clock, never lead it).
    const committed = new Map(admin.events.map((e) => [e.seq, e.committed_at!]));
    expect(committed.get(snap.seq)! + DELAY).toBeLessThanOrEqual(snapMsg.at);
    expect(snap.seq).toBeGreaterThanOrEqual(publicBeforeJoin);
    expect(late.seqs[0]).toBe(snap.seq + 1);

    // The public lobby hears the end as late as the game's spectators see it.
    const endOf = (w: Watcher) => w.next('game_ended', (n) => n.game_id === id);
    const [pubEnd] = await Promise.all([endOf(lobbyPub), endOf(lobbyAdmin)]);
    expect(pubEnd.at).toBeGreaterThanOrEqual(adminEnd.committed_at! + DELAY);
  });
});
