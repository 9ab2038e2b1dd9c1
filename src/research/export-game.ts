import { isHumanSpec } from '../agents/seat/agent-spec.js';
import { withMemory } from '../agents/seat/external-seat.js';
import { clonePlain } from '../game/clone.js';
import { initialState, requestFor, viewEvent, type GameState } from '../game/index.js';
import { JsonObject, type TurnPlanRequest, type Window } from '../protocol/index.js';
import { assertSameLog } from '../runner/replay-decisions.js';
import { configOf, readLog, recordedDecision } from '../runner/stored-game.js';
import type { ActionRow, EventStore, GameRecord } from '../store/index.js';
import { gameWpa } from '../eval/wpa.js';
import { EXPORT_VERSION, type ExportRecord } from './export-record.js';
import { traceSummary, reasoningOf } from './export-trace.js';
import { forkOf } from './fork-lineage.js';
import { replayWithFork } from './fork-replay.js';

/** A seat's meters at one moment: what a decision's outcome compares. */
type Meters = { lives: number; resolve: number; alive: boolean };
const metersOf = (state: GameState): Map<string, Meters> =>
  new Map(state.players.map((p) => [p.player_id, { lives: p.lives, resolve: p.resolve, alive: p.alive }]));

/** What the replay saw when the engine asked for one recorded decision. */
type Asked = { row: ActionRow; window: Window; request: TurnPlanRequest; trace: unknown; before: Map<string, Meters> };

/**
 * Every decision of one stored game as export records, in the order they were made, built from
 * the store alone (no agent is called): the engine replays the game from its seed and recorded
 * decisions, and each request is the engine's requestFor at the moment it asked — the seat's own
 * view — with the seat's memory as its previous trace left it (what external and LLM seats are
 * handed back). The replay must reproduce the stored log exactly, or the requests would not be the
 * ones the agents got: a DivergenceError says where it does not. Only the log up to the head read
 * first is used, so a game still being played exports what it had then.
 *
 * @example (await exportGame(store, await store.getGame(id))).filter((r) => !r.accepted)
 */
export async function exportGame(store: EventStore, game: GameRecord): Promise<ExportRecord[]> {
  const id = game.game_id;
  const head = await store.lastSeq(id);
  const log = (await readLog(store, id)).filter((e) => e.seq <= head);
  if (log.length === 0) return [];
  const rows = (await store.readActions(id)).filter((r) => Number(r.seq_before) < head);
  const traces = new Map((await store.readTraces(id)).map((t) => [t.request_id, t.entries]));
  const memory = new Map<string, JsonObject>();
  const asked: Asked[] = [];
  const state = initialState(configOf(game), game.seed);
  // A fork replays with its reseed at the fork point, as it was played.
  const replayed = replayWithFork(state, log[0]!.ts, rows.map(recordedDecision), forkOf(game), (s, player, window) => {
    const plain = requestFor(s, player);
    const trace = traces.get(plain.request_id);
    // Requests are views of a state the replay moves on: copy each (plain data, so the fast copy).
    const request = clonePlain(withMemory(plain, memory.get(player) ?? {}));
    const after = JsonObject.safeParse((trace as { memory?: unknown } | undefined)?.memory);
    if (after.success) memory.set(player, after.data);
    asked.push({ row: rows[asked.length]!, window, request, trace, before: metersOf(s) });
  }, log);
  assertSameLog(id, replayed, log);
  const final = metersOf(state);
  const placement = new Map((game.placements ?? []).map((p) => [p.player_id, p.placement]));
  const agents = new Map(game.seats.map((s) => [s.player_id, s]));
  const compact = state.rules.windows === 'compact';
  const wpa = game.status === 'ended' ? decisionWpa(log, asked) : new Map<Asked, number>();
  return asked.map((a, i) => {
    const r = a.row;
    const next = asked[i + 1];
    const until = next ? Number(next.row.seq_before) : head;
    const seatView = { role: 'seat', player_id: r.player_id } as const;
    const events = log.filter((e) => e.seq > Number(r.seq_before) && e.seq <= until).map((e) => viewEvent(e, seatView));
    const before = a.before.get(r.player_id)!;
    const after = (next?.before ?? final).get(r.player_id)!;
    return {
      export_version: EXPORT_VERSION,
      game_id: id,
      seed: game.seed,
      rules_version: game.rules_version,
      compact,
      player_id: r.player_id,
      seat: agents.get(r.player_id)?.seat ?? Number(r.player_id.slice(4)) - 1,
      agent: agents.get(r.player_id)?.agent ?? 'unknown',
      agent_kind: isHumanSpec(agents.get(r.player_id)?.agent ?? '') ? 'human' : 'agent',
      seq: Number(r.seq_before),
      turn: Number(r.turn),
      phase: r.phase,
      window: a.window,
      attempt: Number(r.attempt),
      request: a.request,
      answered: r.raw !== null,
      decision: r.raw === null ? null : (JSON.parse(r.raw) as unknown),
      accepted: r.accepted,
      rejection_code: r.rejection_code,
      reasoning: reasoningOf(a.trace),
      trace: traceSummary(a.trace),
      wpa: wpa.get(a) ?? null,
      outcome: {
        events,
        rejected: !r.accepted,
        lives_before: before.lives,
        lives_after: after.lives,
        resolve_before: before.resolve,
        resolve_after: after.resolve,
        alive_after: after.alive,
        final_placement: game.status === 'ended' ? (placement.get(r.player_id) ?? null) : null,
      },
    };
  });
}


/**
 * Each decision's WPA (src/eval/wpa.ts), on the last answer asked for at its seq: a refused answer
 * that was asked again leaves it to the answer that counted.
 */
function decisionWpa(log: Parameters<typeof gameWpa>[0], asked: readonly Asked[]): Map<Asked, number> {
  const w = gameWpa(log, asked.map((a) => ({ seq: Number(a.row.seq_before), player_id: a.row.player_id, window: a.window })));
  const byKey = new Map(w.decisions.map((d) => [`${d.seq}|${d.player_id}`, d.wpa]));
  const last = new Map(asked.map((a) => [`${Number(a.row.seq_before)}|${a.row.player_id}`, a]));
  const out = new Map<Asked, number>();
  for (const [key, a] of last) {
    const x = byKey.get(key);
    if (x !== undefined) out.set(a, x);
  }
  return out;
}
