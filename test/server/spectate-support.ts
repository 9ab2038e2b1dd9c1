import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import type { GameState } from '../../src/game/index.js';
import { applyEvent } from '../../src/game/evolve.js';
import { serverSettings, type ServerConfigInput } from '../../src/server/config.js';
import { createServer, type RunningServer } from '../../src/server/create-server.js';
import { JsonLogger } from '../../src/lib/json-logger.js';
import type { ServerMessages } from '../../src/server/spectate/messages.js';
import type { EventStore } from '../../src/store/index.js';

export const ADMIN = 'admin-secret';
export const RESEARCHER = 'research-secret';

type Json = Record<string, unknown>;

/** A real server on a random port over a fresh temp data dir, demo off, with admin and researcher tokens. */
export async function startServer(env: Partial<Record<keyof ServerConfigInput, string>> = {}): Promise<RunningServer & { dispose(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'tiltyard-spectate-'));
  const settings = serverSettings({
    PORT: '0',
    TILTYARD_DATA_DIR: dir,
    TILTYARD_DEMO: 'off',
    TILTYARD_ADMIN_TOKEN: ADMIN,
    TILTYARD_RESEARCHER_TOKEN: RESEARCHER,
    TILTYARD_LOG: 'silent',
    ...env,
  });
  const server = await createServer(settings, { logger: new JsonLogger('silent') });
  return Object.assign(server, {
    async dispose() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  });
}

/** POST /games with the admin token; the new game's id. */
export async function createGame(server: RunningServer, body: Json): Promise<string> {
  const res = await fetch(`${server.url}/games`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /games answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { game_id: string }).game_id;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * How long a wait may take before it counts as a hang: a hang detector, never a speed check. Just
 * under the test timeout (vitest.config.ts), since a machine loaded by other work made the former
 * 10–60 s windows fail tests that were only slow; a wait that succeeds returns at once anyway.
 */
export const HANG_MS = 240_000;

/** Polls until `check` holds (or throws after `timeoutMs`, naming `what`). */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = HANG_MS): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

export const gameEnded = (store: EventStore, gameId: string) => until(async () => (await store.getGame(gameId)).status === 'ended', `${gameId} to end`);

export type Received = { name: string; data: unknown; at: number };
export type WatcherOptions = { ackHeartbeats?: boolean; auth?: Json; from?: string };
export type Got<K extends keyof ServerMessages> = { data: ServerMessages[K]; at: number };

/**
 * A real socket.io client on `/spectate` that records every message in order (with its arrival
 * time) and answers heartbeats unless told not to.
 */
export class Watcher {
  readonly socket: Socket;
  readonly log: Received[] = [];

  /** `from`: the loopback address to connect from (127.0.0.1 by default), as another client would. */
  constructor(url: string, options: WatcherOptions = {}) {
    this.socket = io(`${url}/spectate`, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      ...(options.auth ? { auth: options.auth } : {}),
      // engine.io-client hands it to the websocket; its types do not list it.
      ...(options.from ? ({ localAddress: options.from } as object) : {}),
    });
    this.socket.onAny((name: string, data: unknown) => {
      this.log.push({ name, data, at: Date.now() });
      if (name === 'heartbeat' && options.ackHeartbeats !== false) this.socket.emit('heartbeat_ack');
    });
  }

  static async connect(url: string, options: WatcherOptions = {}): Promise<Watcher> {
    const w = new Watcher(url, options);
    await new Promise<void>((resolve, reject) => {
      w.socket.once('connect', () => resolve());
      w.socket.once('connect_error', reject);
    });
    return w;
  }

  join(payload: unknown): this {
    this.socket.emit('join', payload);
    return this;
  }

  /** The messages of one kind, with their arrival times. */
  got<K extends keyof ServerMessages>(name: K): Array<Got<K>> {
    return this.log.filter((m) => m.name === name) as Array<Got<K>>;
  }

  all<K extends keyof ServerMessages>(name: K): Array<ServerMessages[K]> {
    return this.got(name).map((m) => m.data);
  }

  get events(): Array<ServerMessages['event']> {
    return this.all('event');
  }

  get seqs(): number[] {
    return this.events.map((e) => e.seq);
  }

  /** The last seq received (event or snapshot), -1 before any. */
  get last(): number {
    return this.seqs.at(-1) ?? this.all('snapshot').at(-1)?.seq ?? -1;
  }

  /** Resolves with the first message of a kind that matches (or rejects after `timeoutMs`). */
  async next<K extends keyof ServerMessages>(name: K, match: (data: ServerMessages[K]) => boolean = () => true, timeoutMs = HANG_MS): Promise<Got<K>> {
    const find = () => this.got(name).find((m) => match(m.data));
    await until(() => find() !== undefined, name, timeoutMs);
    return find()!;
  }

  reached(seq: number): Promise<Got<'event'>> {
    return this.next('event', (e) => e.seq >= seq);
  }

  ended(timeoutMs = HANG_MS): Promise<Got<'event'>> {
    return this.next('event', (e) => e.event.type === 'game_ended', timeoutMs);
  }

  close(): void {
    this.socket.close();
  }
}

/** The game's full states after each seq, folded from its stored log, and the last turn whose plans were revealed there. */
export async function statesOf(store: EventStore, gameId: string): Promise<Array<{ state: GameState; revealedThrough: number }>> {
  const state = structuredClone(await store.stateAt(gameId, 0));
  const out = [{ state: structuredClone(state), revealedThrough: 0 }];
  let revealedThrough = 0;
  for (let after = 0; ; ) {
    const page = await store.read(gameId, after, 1000);
    if (!page.length) return out;
    for (const e of page) {
      applyEvent(state, e);
      if (e.type === 'plans_revealed') revealedThrough = e.turn;
      out.push({ state: structuredClone(state), revealedThrough });
    }
    after = page.at(-1)!.seq;
  }
}

/** Whether seqs run from `from` up by one with nothing skipped or repeated. */
export function contiguous(seqs: readonly number[], from: number): boolean {
  return seqs.every((s, i) => s === from + i);
}
