import fc from 'fast-check';
import { Encoder, PacketType } from 'socket.io-parser';
import { describe, expect, it } from 'vitest';
import type { Viewer } from '../../../src/game/index.js';
import { GameBus, type CommittedStep } from '../../../src/live/game-bus.js';
import { SCHEMA_VERSION, type GameEvent } from '../../../src/protocol/index.js';
import { decodeBusMessage, encodeBusMessage } from '../../../src/scale/bus-channel.js';
import { eventMessage } from '../../../src/server/spectate/messages.js';
import { RecentLog, projected } from '../../../src/server/spectate/recent-log.js';
import { fromRow, type StoredRow } from '../../../src/store/event-rows.js';
import { eventLine } from '../../../src/store/row-lines.js';
import { playGame } from '../../store/support.js';

/**
 * An event reaches a spectator as the same bytes whichever way it came: from the process that
 * played it (memory), across the Redis bus (encode, publish, decode), or read back from the store
 * (a backfill, a catch-up, a whole game announced as stored). Each path's events go through the
 * feed's projection and the socket.io encoder for every kind of viewer, before and after the end.
 */

const SEATS = ['plr_1', 'plr_2', 'plr_3', 'plr_4'] as const;
const VIEWERS: Array<[string, Viewer]> = [
  ['spectator', { role: 'spectator' }],
  ['researcher', { role: 'researcher' }],
  ['admin', { role: 'admin' }],
  ...SEATS.map((p): [string, Viewer] => [p, { role: 'seat', player_id: p }]),
];

/** What a process that plays a game hands its in-process bus (live-game.ts: a copy of the step), as a feed there receives it. */
function viaMemory(step: CommittedStep): GameEvent[] {
  const bus = new GameBus();
  let got: GameEvent[] = [];
  bus.subscribe(step.game_id, (s) => (got = s.events));
  bus.publish({ ...step, events: structuredClone(step.events) });
  return got;
}

/** A worker's publish as an API node's bus delivers it. */
function viaRedis(step: CommittedStep): GameEvent[] {
  const m = decodeBusMessage(encodeBusMessage({ kind: 'step', step }));
  if ('error' in m || m.kind !== 'step') throw new Error(`the bus refused a step: ${JSON.stringify(m)}`);
  return m.step.events;
}

/**
 * The store's round trip: each event as the line an append sends (row-lines.ts), its columns as a
 * read returns them (the json columns keep the text they were given, ts is written back in the
 * same form), rebuilt by fromRow, as `read` does.
 */
function viaStore(events: readonly GameEvent[]): GameEvent[] {
  return events.map((e) => {
    const f = eventLine(e, 'prev', 'hash').split('\t');
    const row: StoredRow = {
      seq: Number(f[0]),
      event_id: f[1]!,
      schema_version: f[2]!,
      turn: Number(f[3]),
      phase: f[4]!,
      type: f[5]!,
      ts: f[7]!,
      payload: f[8]!,
      visibility: f[9]!,
      rng: f[10] || null,
      annotations: f[11] || null,
      prev_hash: f[12]!,
      hash: f[13]!,
    };
    return fromRow(e.game_id, row);
  });
}

const encoder = new Encoder();

/** The socket.io frames one viewer is sent for these events, as a feed sends them (projected once per view, committed_at and sent_at fixed). */
function frames(events: readonly GameEvent[], view: string, viewer: Viewer, gameOver: boolean): string[] {
  const log = new RecentLog(events[0]!.seq - 1);
  return events.map((e) => {
    const event = projected(log.push(e, null), view, viewer, gameOver);
    const [frame] = encoder.encode({ type: PacketType.EVENT, nsp: '/spectate', data: ['event', eventMessage(e.game_id, event, null, 0)] }) as string[];
    return frame!;
  });
}

function expectSameBytes(step: CommittedStep): void {
  const paths = { memory: viaMemory(step), redis: viaRedis(step), store: viaStore(step.events) };
  // What was played, as JSON: every path keeps it, key order included.
  const played = step.events.map((e) => JSON.stringify(e));
  for (const [path, events] of Object.entries(paths)) expect(events.map((e) => JSON.stringify(e)), path).toEqual(played);
  for (const gameOver of [false, true]) {
    for (const [view, viewer] of VIEWERS) {
      const memory = frames(paths.memory, view, viewer, gameOver);
      expect(frames(paths.redis, view, viewer, gameOver), `${view} via redis`).toEqual(memory);
      expect(frames(paths.store, view, viewer, gameOver), `${view} via the store`).toEqual(memory);
    }
  }
}

/** Keys as agents and the engine may write them: plain, integer-like (JS puts those first), unicode, or JS-special. */
const key = fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom('10', '2', 'type', 'seq', 'é', '\u{1F600}', '__proto__', 'constructor', 'own', 'redacted'));
const json = fc.jsonValue({ maxDepth: 3 });
const seatMap = fc.dictionary(fc.constantFrom(...SEATS), fc.dictionary(fc.constantFrom(...SEATS), fc.double({ noNaN: true, noDefaultInfinity: true })));

/** The body of one event: a payload with arbitrary keys (some of them hidden, to arbitrary seats), and the optional envelope keys. */
const body = fc.record({
  turn: fc.nat(40),
  phase: fc.constantFrom('upkeep', 'intent', 'talk', 'resolution'),
  type: fc.constantFrom('phase_changed', 'speech_made', 'card_played', 'plans_revealed', 'game_ended'),
  ms: fc.integer({ min: 0, max: 4_000_000_000_000 }),
  payload: fc.dictionary(key, json, { maxKeys: 6 }),
  affective: fc.option(fc.record({ trust_delta: seatMap, grievance_delta: seatMap })),
  settlements: fc.option(fc.array(fc.record({ speaker_player_id: fc.constantFrom(...SEATS), kept: fc.boolean() }), { maxLength: 3 })),
  hidden: fc.array(fc.record({ pick: fc.nat(), to: fc.subarray([...SEATS]) }), { maxLength: 4 }),
  rng: fc.option(fc.record({ s0: fc.nat(), s1: fc.nat(), i: fc.nat() })),
  faces: fc.option(fc.array(json, { minLength: 1, maxLength: 2 })),
  slots: fc.option(fc.array(fc.record({ card_id: fc.string(), slot: fc.nat(9) }), { minLength: 1, maxLength: 2 })),
  tells: fc.option(fc.dictionary(fc.constantFrom(...SEATS), json, { minKeys: 1 })),
});

/** A committed step of events laid out as the engine emits them (StepContext.emit): the envelope in its order, then what it adds. */
const stepArb = fc.tuple(fc.nat(500), fc.array(body, { minLength: 1, maxLength: 5 })).map(([before, bodies]): CommittedStep => {
  const gameId = 'game_bytes';
  const events = bodies.map((b, i) => {
    const seq = before + i + 1;
    const payload: Record<string, unknown> = { ...b.payload };
    if (b.affective) payload['affective_effect'] = b.affective;
    if (b.settlements) payload['settlements'] = b.settlements;
    const keys = Object.keys(payload);
    const hidden = keys.length ? b.hidden.map((h) => ({ key: keys[h.pick % keys.length]!, to: h.to })) : [];
    const e: Record<string, unknown> = {
      schema_version: SCHEMA_VERSION,
      event_id: `evt_bytes_${seq}`,
      game_id: gameId,
      seq,
      turn: b.turn,
      phase: b.phase,
      type: b.type,
      ts: new Date(b.ms).toISOString(),
      payload,
      visibility: { hidden },
    };
    if (b.rng) e['rng'] = b.rng;
    if (b.faces) e['faces'] = b.faces;
    if (b.slots) e['slots'] = b.slots;
    if (b.tells) e['tells'] = b.tells;
    return e as unknown as GameEvent;
  });
  return { game_id: gameId, events, last_seq: before + events.length, committed_at: 1_700_000_000_000 };
});

describe('one event, the same bytes to every spectator, whichever way it came', () => {
  it('given generated events (arbitrary payload keys, hidden keys, rng and view annotations), then memory, the Redis bus and the store give every viewer identical frames', () => {
    fc.assert(fc.property(stepArb, expectSameBytes), { numRuns: 150 });
  });

  it('given the steps of played games, then memory, the Redis bus and the store give every viewer identical frames', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 2, max: 4 }), (seed, seats) => {
        const game = playGame(seed, { seats, rules: { round_cap: 2 }, tag: 'bytes' });
        for (const s of game.steps) expectSameBytes({ game_id: game.gameId, events: s.events, last_seq: s.expected + s.events.length, committed_at: 0 });
      }),
      { numRuns: 6 },
    );
  });
});
