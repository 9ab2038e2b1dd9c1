import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fold, initialState, viewEvent, viewState } from '../../src/game/index.js';
import type { GameEvent } from '../../src/protocol/index.js';
import { viewHash } from '../../src/server/spectate/state-hash.js';
import { configOf } from '../../src/runner/stored-game.js';
import { canonicalJson, GENESIS_HASH, stateHash } from '../../src/store/index.js';
import { leaks } from '../support/leaks.js';
import { chainFrom, hashesIn, reconstruct, stringsIn, trueChain, truthFor } from './leak-attack.js';
import { forkOver, watchGame, type GameRow, type Observation, type Watched } from './leak-watch.js';
import { statesOf, startServer, type Watcher } from './spectate-support.js';

const FOUR = ['manipulator', 'trickster', 'balanced', 'aggressor'];
const DELAY = 1_500;
const SPECTATOR = { role: 'spectator' } as const;

type States = Awaited<ReturnType<typeof statesOf>>;

/** One thing an anonymous caller received, with the seq it shows the game at (what it may know by then). */
type Item = { where: string; asOf: number; value: unknown };

/** Every public thing received about game `id`, each with the seq it was current at. */
function publicItems(w: Watched): Item[] {
  const out: Item[] = [];
  const g = `/games/${w.id}`;
  for (const o of w.public) {
    const b = o.body as Record<string, unknown>;
    if (o.path === g) out.push({ where: o.path, asOf: (b as GameRow).last_seq, value: b });
    else if (o.path.startsWith('/games?') || o.path === '/games')
      for (const row of (b['games'] as GameRow[]).filter((r) => r.game_id === w.id)) out.push({ where: o.path, asOf: row.last_seq, value: row });
    else if (o.path.startsWith(`${g}/events`)) {
      for (const e of b['events'] as GameEvent[]) out.push({ where: `${o.path} #${e.seq}`, asOf: e.seq, value: e });
      out.push({ where: o.path, asOf: b['last_seq'] as number, value: { ...b, events: [] } });
    } else if (o.path.startsWith(`${g}/snapshot`) && o.status === 200) out.push({ where: o.path, asOf: b['seq'] as number, value: b });
    else out.push({ where: `${o.path} (${o.status})`, asOf: 0, value: b });
  }
  for (const [name, sock] of [['socket', w.spectator], ['lobby', w.lobby]] as Array<[string, Watcher]>) {
    for (const m of sock.log) {
      const d = m.data as { seq?: number; game_id?: string } | undefined;
      if (d?.game_id !== undefined && d.game_id !== w.id) continue;
      const asOf = m.name === 'game_ended' ? w.truth.length : (d?.seq ?? 0);
      out.push({ where: `${name} ${m.name} #${asOf}`, asOf, value: m.data });
    }
  }
  return out;
}

/** Hidden values the truth holds, each with the first seq from which the public projection itself shows it (Infinity: never). */
function hiddenValues(truth: readonly GameEvent[]): Map<string, { what: string; publicFrom: number }> {
  const publicFrom = (needle: string) => truth.find((e) => JSON.stringify(viewEvent(e, SPECTATOR, true)).includes(needle))?.seq ?? Infinity;
  const out = new Map<string, { what: string; publicFrom: number }>();
  const add = (value: unknown, what: string) => {
    if (typeof value !== 'string' || value.length < 8 || out.has(value)) return;
    out.set(value, { what, publicFrom: publicFrom(JSON.stringify(value).slice(1, -1)) });
  };
  for (const e of truth) {
    const p = e.payload as Record<string, unknown>;
    if (e.type === 'secret_plan_committed') add((p['plan'] as { deception_frame?: string }).deception_frame, `secret plan frame of ${String(p['player_id'])}`);
    if (e.type === 'speech_posted' && p['channel'] === 'private') add(p['text'], `private message of ${String(p['player_id'])}`);
    if (e.type === 'action_submitted' && p['card'] === null && p['action']) add((p['action'] as { payload: { card_id?: string } }).payload.card_id, 'a face-down card');
    for (const m of (p['private_moves'] as Array<{ card_id: string }> | undefined) ?? []) add(m.card_id, 'a face-down card');
  }
  return out;
}

/** What of `items` shows hidden data before the projection would: hidden values, and the structural checks of test/support/leaks. */
function scan(items: readonly Item[], hidden: ReturnType<typeof hiddenValues>, states: States): string[] {
  const problems: string[] = [];
  for (const item of items) {
    const at = states[Math.min(item.asOf, states.length - 1)]!;
    for (const s of stringsIn(item.value)) {
      for (const [value, h] of hidden) if (s.includes(value) && item.asOf < h.publicFrom) problems.push(`${item.where}: ${h.what} (${value})`);
    }
    // The seed is public once the game has ended (to re-simulate it), so a record saying "ended" may carry it.
    const v = item.value as { status?: string; seed?: unknown };
    const value = v && v.status === 'ended' && 'seed' in v ? { ...v, seed: null } : item.value;
    for (const found of leaks(value, { viewer: null, state: at.state, revealedThrough: at.revealedThrough })) problems.push(`${item.where}: ${found}`);
  }
  return problems;
}

describe('leak checker: nothing public reconstructs hidden data (real server, real sockets, real attack)', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  const watchers: Watcher[] = [];
  const keep = (w: Watcher) => (watchers.push(w), w);
  const games: Record<string, { w: Watched; states: States }> = {};

  beforeAll(async () => {
    server = await startServer();
    for (const [name, delay] of [['live', 0], ['delayed', DELAY]] as const) {
      // A pace that leaves the watcher's polls (a dozen sequential requests a round, compressed)
      // room for many observations even on a loaded machine: the chain-hash attack needs several
      // admin observations while the game runs (at 15 ms a loaded CI pass saw only 2 or 3).
      const w = await watchGame(server, { agents: FOUR, seed: 734_002_113 + delay, pace_ms: 60, rules: { round_cap: 5 }, spectator_delay_ms: delay }, keep);
      games[name] = { w, states: await statesOf(server.store, w.id) };
    }
    // A fork of the ended live game, made as an admin would (no option: the default), watched the
    // same way, its parent's page (which lists the fork) polled alongside.
    const parent = games['live']!.w.id;
    const w = await watchGame(server, { pace_ms: 60 }, keep, { create: (s) => forkOver(s, parent, { at: 'round:2', pace_ms: 60 }), also: [`/games/${parent}`] });
    games['fork'] = { w, states: await statesOf(server.store, w.id) };
  }, 600_000);
  afterAll(async () => {
    for (const w of watchers) w.close();
    await server?.dispose();
  });

  describe.each(['live', 'delayed', 'fork'])('a game watched %s', (name) => {
    it('given every public answer and socket message, then none holds a hidden value before the projection reveals it — while the admin stream does', () => {
      const { w, states } = games[name]!;
      const hidden = hiddenValues(w.truth);
      expect([...hidden.values()].filter((h) => h.what.startsWith('private message')).length).toBeGreaterThan(0);
      expect([...hidden.values()].filter((h) => h.what.startsWith('secret plan')).length).toBeGreaterThan(0);
      const items = publicItems(w);
      expect(items.length).toBeGreaterThan(500);
      expect(scan(items, hidden, states)).toEqual([]);
      // The same scan over the admin's stream finds what it must: the scanner has teeth.
      const adminItems = w.admin.events.map((m) => ({ where: `admin #${m.seq}`, asOf: m.seq, value: m }));
      expect(scan(adminItems, hidden, states).length).toBeGreaterThan(0);
    });

    it('given the chain-hash attack, then it recovers secret plans from the admin’s last_hash and reproduces no public hash', () => {
      const { w, states } = games[name]!;
      const chain = trueChain(GENESIS_HASH, w.truth);
      const pub = new Map(w.publicEvents.map((e) => [e.seq, e]));
      const full = (seq: number) => w.truth[seq - 1]!;
      const guessAll = (from: number, to: number) => w.truth.slice(from, to).map((e) => reconstruct(pub.get(e.seq)!, truthFor(pub.get(e.seq)!, e)));
      // We hash as the store does: the admin's last_hash at the end is our chain's head.
      const adminRows = w.privileged.filter((o) => o.token === 'admin').map((o) => o.body as GameRow);
      expect(adminRows.at(-1)!.last_hash).toBe(chain.get(w.truth.length));

      // 1. The attack works: between two admin observations of last_hash, the public events filled
      //    with the true hidden parts reproduce the later one, and a decoy plan does not, so the
      //    secret plan committed in between is recovered before its reveal.
      const plans = [...new Set(w.truth.filter((e) => e.type === 'secret_plan_committed').map((e) => canonicalJson((e.payload as { plan: unknown }).plan)))].map((j) => JSON.parse(j) as unknown);
      expect(plans.length).toBeGreaterThan(1);
      let pairs = 0;
      let recovered = 0;
      for (let i = 1; i < adminRows.length; i++) {
        const [a, b] = [adminRows[i - 1]!, adminRows[i]!];
        if (b.last_seq <= a.last_seq) continue;
        const guess = guessAll(a.last_seq, b.last_seq);
        expect(chainFrom(a.last_hash!, guess)).toBe(b.last_hash);
        pairs++;
        const k = guess.findIndex((e) => e.type === 'secret_plan_committed');
        if (k < 0) continue;
        const truePlan = canonicalJson((full(guess[k]!.seq).payload as { plan: unknown }).plan);
        const matching = plans.filter((plan) => {
          const tried = guess.slice();
          tried[k] = { ...tried[k]!, payload: { ...tried[k]!.payload, plan } } as GameEvent;
          return chainFrom(a.last_hash!, tried) === b.last_hash;
        });
        expect(matching.map((p) => canonicalJson(p))).toEqual([truePlan]);
        recovered++;
      }
      expect(pairs).toBeGreaterThan(3);
      expect(recovered).toBeGreaterThan(0);

      // 2. No public hash is one the attack can reach: not a link of the chain over the unredacted
      //    events (what any prefix of public events + the true hidden parts hashes to), nor the hash
      //    of a full state or of the admin's view at any seq.
      const reachable = new Map<string, string>();
      for (const [seq, h] of chain) reachable.set(h, `chain link #${seq}`);
      states.forEach((s, seq) => {
        reachable.set(stateHash(s.state), `full state #${seq}`);
        reachable.set(viewHash(viewState(s.state, { role: 'admin' })), `admin view #${seq}`);
        reachable.set(viewHash(viewState(s.state, { role: 'researcher' }, true)), `researcher (game over) view #${seq}`);
      });
      const items = publicItems(w);
      const seen = items.flatMap((item) => hashesIn(item.value).map((h) => ({ h, where: item.where })));
      expect(seen.length).toBeGreaterThan(10);
      expect(seen.filter((x) => reachable.has(x.h)).map((x) => `${x.where}: ${reachable.get(x.h)}`)).toEqual([]);
      // Chaining forward from one public hash to the next over the filled-in events reaches nothing either.
      const stateHashes = w.spectator.all('state_hash');
      for (let i = 1; i < stateHashes.length; i++) {
        const [a, b] = [stateHashes[i - 1]!, stateHashes[i]!];
        expect(chainFrom(a.state_hash, guessAll(a.seq, b.seq))).not.toBe(b.state_hash);
      }
      // 3. What is public is the hash of the spectator's own projection, nothing else.
      for (const m of [...w.spectator.all('state_hash'), ...w.spectator.all('snapshot')]) expect(m.state_hash).toBe(viewHash(viewState(states[m.seq]!.state, SPECTATOR)));
      const rows = items.filter((i) => i.where.startsWith('/games')).map((i) => i.value as Partial<GameRow>);
      expect(rows.filter((r) => 'last_hash' in r && r.last_hash !== null)).toEqual([]);
      // Researchers get the chain only once the game is over, and verify reports (which quote
      // full-state hashes when they fail) likewise: 403 while it runs (a pace-bound game outlasts
      // the first poll), the report at the end.
      for (const o of w.privileged.filter((x) => x.token === 'researcher' && !x.path.endsWith('/verify'))) {
        const r = o.body as GameRow;
        expect(r.last_hash === null).toBe(r.status !== 'ended');
      }
      const verifies = w.privileged.filter((x) => x.token === 'researcher' && x.path.endsWith('/verify')).map((x) => x.status);
      expect(verifies[0]).toBe(403);
      expect(verifies.at(-1)).toBe(200);
      expect(verifies.filter((x) => x !== 403 && x !== 200)).toEqual([]);
    });

    it('given anonymous GET /games, /games/:id, /events and /snapshot, then none shows a seq, status, placements, seed or end ahead of the delayed stream', () => {
      const { w } = games[name]!;
      const final = w.truth.length;
      // When each step committed, by the server's own clock: live commit times from the admin
      // stream, else the event's ts (a step commits after its ts, so this errs early: stricter).
      const committed = new Map(w.truth.map((e) => [e.seq, Date.parse(e.ts)]));
      for (const m of w.admin.events) if (m.committed_at !== null) committed.set(m.seq, m.committed_at);
      /** A caller may know seq N once it committed the delay ago: the server answered before recvAt. */
      const early = (n: number, o: Pick<Observation, 'recvAt'>) => w.delayMs > 0 && n > 0 && committed.get(n)! + w.delayMs > o.recvAt;
      const problems: string[] = [];
      const check = (o: Observation, row: GameRow) => {
        if (early(row.last_seq, o)) problems.push(`${o.path} at ${o.recvAt}: seq ${row.last_seq}`);
        const over = row.status === 'ended' || row.placements !== null || row.seed !== null || row.ended_at !== null;
        if (over && (row.last_seq !== final || row.status !== 'ended' || early(final, o))) problems.push(`${o.path}: the end (${row.status}, seq ${row.last_seq})`);
        // created_at is public (the lobby announces the game); any later change must be old enough.
        if (row.updated_at !== row.created_at && Date.parse(row.updated_at) > o.recvAt - w.delayMs) problems.push(`${o.path}: updated_at ${row.updated_at}`);
      };
      const g = `/games/${w.id}`;
      for (const o of w.public) {
        const b = o.body as Record<string, unknown>;
        if (o.path === g) check(o, b as GameRow);
        else if (o.path.startsWith('/games?') || o.path === '/games') for (const r of (b['games'] as GameRow[]).filter((x) => x.game_id === w.id)) check(o, r);
        else if (typeof b['last_seq'] === 'number' && early(b['last_seq'], o)) problems.push(`${o.path}: last_seq ${b['last_seq']}`);
        // Nor an error: asking past the head names at most the caller's own head.
        for (const [, n] of (typeof b['message'] === 'string' ? b['message'] : '').matchAll(/(?:up to seq|head of the log \()\s*(\d+)/g)) if (early(Number(n), o)) problems.push(`${o.path}: message names seq ${n}`);
      }
      expect(problems).toEqual([]);
      // A running game listed as `?status=ended` would give the end away too.
      const endedLists = w.public.filter((o) => o.path === '/games?status=ended');
      for (const o of endedLists) for (const r of (o.body as { games: GameRow[] }).games) if (r.game_id === w.id) expect(r.status).toBe('ended');
      // The public lobby hears the end no earlier either.
      const heard = w.lobby.got('game_ended').find((m) => m.data.game_id === w.id)!;
      expect(heard.at).toBeGreaterThanOrEqual(committed.get(final)! + w.delayMs);
      // The delayed socket is the reference: it sends nothing before its commit plus the delay.
      for (const e of w.spectator.events) if (e.committed_at !== null) expect(e.sent_at).toBeGreaterThanOrEqual(e.committed_at + w.delayMs);
      // The check has teeth: the admin's view of the same game is live, so it runs ahead.
      if (w.delayMs > 0) {
        const adminEarly = w.privileged.filter((o) => o.token === 'admin' && early((o.body as GameRow).last_seq, o));
        expect(adminEarly.length).toBeGreaterThan(0);
      }
      // Anonymous callers saw the game end, and saw it running before that.
      expect(w.public.filter((o) => o.path === g).map((o) => (o.body as GameRow).status)).toContain('running');
    });
  });

  it("given a fork of the ended game, then the parent's public seed predicts neither its deck nor its draws, and its secret shows nowhere public until the fork has ended", async () => {
    const { w: parent } = games['live']!;
    const { w: fork } = games['fork']!;
    const adminRow = fork.privileged.findLast((o) => o.token === 'admin')!.body as { options: { fork: { seq: number; secret?: number } } };
    const { seq } = adminRow.options.fork;
    // The attacker: the parent has ended, so its seed is public; folding its log to the fork point
    // (the admin's log: stronger than any outsider) gives the deck a fork that kept it would draw from.
    const seed = (parent.public.findLast((o) => o.path === `/games/${parent.id}`)!.body as GameRow).seed!;
    expect(seed).not.toBeNull();
    const derived = fold(initialState(configOf(await server.store.getGame(parent.id)), seed), parent.truth.slice(0, seq));
    const draws = fork.truth.filter((e) => e.seq > seq && e.type === 'cards_drawn').flatMap((e) => (e.payload as { cards: string[] }).cards);
    expect(draws.length).toBeGreaterThanOrEqual(6);
    // Six cards in the derived order by chance: about one in 3·10^12.
    expect(draws.slice(0, 6)).not.toEqual(derived.deck.slice(0, 6));
    expect(fork.truth.find((e) => e.seq > seq && e.rng)!.rng).not.toEqual(derived.rng);

    // The secret it drew from instead is the admin's alone until the fork has ended.
    const secret = adminRow.options.fork.secret;
    expect(typeof secret).toBe('number');
    // What may show it: the fork's record, or its entry in its parent's list, once they say it ended.
    const unended = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(unended);
      if (!v || typeof v !== 'object') return v;
      const o = v as Record<string, unknown>;
      if (o['game_id'] === fork.id && o['status'] === 'ended') return null;
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, unended(x)]));
    };
    const items = [...fork.public.map((o) => ({ where: o.path, value: o.body })), ...[fork.spectator, fork.lobby].flatMap((s) => s.log.map((m) => ({ where: `socket ${m.name}`, value: m.data })))];
    expect(items.filter((i) => JSON.stringify(unended(i.value)).includes(String(secret))).map((i) => i.where)).toEqual([]);
    // (The check has teeth: the ended record does show it.)
    expect(items.filter((i) => JSON.stringify(i.value).includes(String(secret))).length).toBeGreaterThan(0);
    // …and then everyone's, like a seed: the fork's page and its parent's list of forks say it.
    const last = (path: string) => fork.public.findLast((o) => o.path === path)!.body as { parent?: { reseed?: number }; forks?: Array<{ game_id: string; reseed?: number }> };
    expect(last(`/games/${fork.id}`).parent?.reseed).toBe(secret);
    expect(last(`/games/${parent.id}`).forks?.find((f) => f.game_id === fork.id)?.reseed).toBe(secret);
    // While it ran, the public saw that it reseeded, not with what.
    const running = fork.public.filter((o) => o.path === `/games/${fork.id}` && (o.body as GameRow).status !== 'ended');
    expect(running.length).toBeGreaterThan(0);
    for (const o of running) expect((o.body as { parent: Record<string, unknown> }).parent).toMatchObject({ game_id: parent.id, same_deck: false });
  });
});
