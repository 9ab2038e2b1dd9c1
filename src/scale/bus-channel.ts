import { z } from 'zod';
import type { GameEvent } from '../protocol/index.js';
import type { CommittedStep, LobbyDelivery, LobbyNotice } from '../live/game-bus.js';

/** The Redis pub/sub channel of one deployment's bus: every committed step and lobby notice. */
export const busChannel = (prefix: string): string => `${prefix}:bus`;

/**
 * What the feeds order an event by, checked; the event itself is delivered as JSON.parse made it
 * of what the sender wrote (the engine's objects, in the order the store reads them back), never
 * as this schema's output: zod builds a loose object anew with the keys it knows first (game_id,
 * seq, type ahead of schema_version, event_id…), which would send a node's spectators other bytes
 * for an event heard here than for the same event read from the store. And a schema that dropped
 * an unknown key would change what spectators fold.
 */
const WireEvent = z.looseObject({ game_id: z.string(), seq: z.int().min(1), type: z.string() });

const StepMessage = z.object({
  kind: z.literal('step'),
  game_id: z.string(),
  last_seq: z.int().min(1),
  committed_at: z.number(),
  events: z.array(WireEvent).min(1),
});
/**
 * A batch stored without its events on the channel (a whole game committed in one transaction:
 * some thousand events, over half a megabyte of JSON). Most listeners only need to know it is
 * there (a coordinator waiting for the game's end); a node with spectators of the game reads the
 * events from the store. Carrying them would make every worker serialise, and every coordinator
 * and node parse, each whole game once more.
 */
const StoredMessage = z.object({
  kind: z.literal('stored'),
  game_id: z.string(),
  first_seq: z.int().min(1),
  last_seq: z.int().min(1),
  committed_at: z.number(),
  /** The batch holds the game's end. */
  ended: z.boolean(),
});
const LobbyMessage = z.object({
  kind: z.literal('lobby'),
  /** Checked as WireEvent is: listeners get the notice as sent. */
  notice: z.looseObject({ type: z.string() }),
  delivery: z.object({ publicDelayMs: z.number().optional() }).default({}),
  /** A game starting with a spectator delay: each node records its commit times from now. */
  retain_ms: z.int().min(0).optional(),
});
export const BusMessage = z.discriminatedUnion('kind', [StepMessage, StoredMessage, LobbyMessage]);

/** Events first_seq…last_seq of a game were committed and are in the store (see StoredMessage). */
export type StoredBatch = Omit<z.infer<typeof StoredMessage>, 'kind'>;

export type BusMessage =
  | { kind: 'step'; step: CommittedStep }
  | ({ kind: 'stored' } & StoredBatch)
  | { kind: 'lobby'; notice: LobbyNotice; delivery: LobbyDelivery; retain_ms?: number };

export function encodeBusMessage(m: BusMessage): string {
  if (m.kind === 'step') return JSON.stringify({ kind: 'step', ...m.step });
  return JSON.stringify(m);
}

/**
 * The message, or an error string (a node logs it and drops the message: the store stays the
 * truth). A step's events and a notice are what the sender wrote, key order included: an event
 * arrives as the same JSON as the store reads back, so every path gives spectators the same bytes.
 */
export function decodeBusMessage(raw: string): BusMessage | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { error: 'not JSON' };
  }
  const parsed = BusMessage.safeParse(json);
  if (!parsed.success) return { error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  const m = parsed.data;
  // The checked message as it was sent (see WireEvent), not zod's rebuilt copy of it.
  const sent = json as { events: GameEvent[]; notice: LobbyNotice };
  if (m.kind === 'step') return { kind: 'step', step: { game_id: m.game_id, last_seq: m.last_seq, committed_at: m.committed_at, events: sent.events } };
  if (m.kind === 'stored') {
    if (m.first_seq > m.last_seq) return { error: `first_seq ${m.first_seq} is after last_seq ${m.last_seq}` };
    return m;
  }
  return { kind: 'lobby', notice: sent.notice, delivery: m.delivery.publicDelayMs === undefined ? {} : { publicDelayMs: m.delivery.publicDelayMs }, ...(m.retain_ms !== undefined ? { retain_ms: m.retain_ms } : {}) };
}
