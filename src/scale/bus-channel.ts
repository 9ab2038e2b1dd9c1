import { z } from 'zod';
import type { GameEvent } from '../protocol/index.js';
import type { CommittedStep, LobbyDelivery, LobbyNotice } from '../server/games/game-bus.js';

/** The Redis pub/sub channel of one deployment's bus: every committed step and lobby notice. */
export const busChannel = (prefix: string): string => `${prefix}:bus`;

/**
 * Events cross the channel as the store wrote them: checked for the fields the feeds order by,
 * never reshaped (a schema that dropped an unknown key would change what spectators fold).
 */
const WireEvent = z.looseObject({ game_id: z.string(), seq: z.int().min(1), type: z.string() });

const StepMessage = z.object({
  kind: z.literal('step'),
  game_id: z.string(),
  last_seq: z.int().min(1),
  committed_at: z.number(),
  events: z.array(WireEvent).min(1),
});
const LobbyMessage = z.object({
  kind: z.literal('lobby'),
  notice: z.looseObject({ type: z.string() }),
  delivery: z.object({ publicDelayMs: z.number().optional() }).default({}),
  /** A game starting with a spectator delay: each node records its commit times from now. */
  retain_ms: z.int().min(0).optional(),
});
export const BusMessage = z.discriminatedUnion('kind', [StepMessage, LobbyMessage]);

export type BusMessage =
  | { kind: 'step'; step: CommittedStep }
  | { kind: 'lobby'; notice: LobbyNotice; delivery: LobbyDelivery; retain_ms?: number };

export function encodeBusMessage(m: BusMessage): string {
  if (m.kind === 'step') return JSON.stringify({ kind: 'step', ...m.step });
  return JSON.stringify(m);
}

/** The message, or an error string (a node logs it and drops the message: the store stays the truth). */
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
  if (m.kind === 'step') return { kind: 'step', step: { game_id: m.game_id, last_seq: m.last_seq, committed_at: m.committed_at, events: m.events as unknown as GameEvent[] } };
  return { kind: 'lobby', notice: m.notice as unknown as LobbyNotice, delivery: m.delivery.publicDelayMs === undefined ? {} : { publicDelayMs: m.delivery.publicDelayMs }, ...(m.retain_ms !== undefined ? { retain_ms: m.retain_ms } : {}) };
}
