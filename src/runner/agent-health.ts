import type { EventStore, ProviderCallRow, TraceRecord } from '../store/index.js';
import { seatSummaries, type SeatSummary } from './seat-summary.js';

/**
 * How one LLM agent did over a tournament: its seat summaries (seat-summary.ts) over every game it
 * sat in, folded into one — decisions, first time / repaired / rejected / fell back (by reason), calls by
 * outcome, tokens, cost and call latency percentiles over all its calls — plus how many of its
 * games ended `failed` and the shares that make an error rate.
 */
export type AgentHealth = Omit<SeatSummary, 'player_id'> & {
  /** Tournament games it sat in (ended, failed, or still being played). */
  games: number;
  /** Of those, games that ended `failed` (they count for no one). */
  failed_games: number;
  /** failed_games / games; null before any game. */
  error_rate: number | null;
  /** fell_back / decisions; null before any decision. */
  fallback_rate: number | null;
};

/** One game as agentHealth needs it: the entrant and the player id of each seat, its traces and calls. */
export type HealthGame = {
  state: string;
  /** Entrant per seat, in seat order. */
  entrants: readonly string[];
  /** Player id per seat, in seat order. */
  players: readonly string[];
  traces: readonly TraceRecord[];
  calls: readonly ProviderCallRow[];
};

/** Entrants that call a model: the `llm:` specs. */
export const isLlmAgent = (spec: string): boolean => spec.startsWith('llm:');

const rate = (n: number, of: number): number | null => (of > 0 ? Math.round((n / of) * 1e4) / 1e4 : null);

/**
 * Each agent's health over the games, keyed by agent. Player ids repeat from game to game, so each
 * game's traces and calls are relabelled with the agent at that seat and the whole lot goes through
 * seatSummaries once: one computation of the figures (percentiles included) for a game and a
 * tournament.
 *
 * @example agentHealth(['llm:mock'], [{ state: 'ended', entrants: ['llm:mock', 'random'], players: ['plr_1', 'plr_2'], traces, calls }])['llm:mock'].cost_usd
 */
export function agentHealth(agents: readonly string[], games: readonly HealthGame[]): Record<string, AgentHealth> {
  const traces: TraceRecord[] = [];
  const calls: ProviderCallRow[] = [];
  const played = new Map(agents.map((a) => [a, { games: 0, failed: 0 }]));
  for (const g of games) {
    const agentOf = new Map<string, string>();
    g.players.forEach((p, i) => {
      const agent = g.entrants[i];
      const tally = agent === undefined ? undefined : played.get(agent);
      if (!tally) return;
      agentOf.set(p, agent!);
      tally.games++;
      if (g.state === 'failed') tally.failed++;
    });
    for (const t of g.traces) {
      const agent = agentOf.get(t.player_id);
      if (agent) traces.push({ ...t, player_id: agent });
    }
    for (const c of g.calls) {
      const agent = c.player_id === null ? undefined : agentOf.get(c.player_id);
      if (agent) calls.push({ ...c, player_id: agent });
    }
  }
  const summaries = seatSummaries(agents.map((a) => ({ player_id: a, agent: a })), traces, calls);
  return Object.fromEntries(
    summaries.map(({ player_id: agent, ...s }) => {
      const tally = played.get(agent)!;
      return [agent, { ...s, games: tally.games, failed_games: tally.failed, error_rate: rate(tally.failed, tally.games), fallback_rate: rate(s.fell_back, s.decisions) }];
    }),
  );
}

/** Games read at once: each is three small queries. */
const CONCURRENCY = 8;

/**
 * The health of a tournament's LLM entrants, from its stored games (their seats, traces and
 * provider calls). Empty when no entrant calls a model; only games with an LLM seat are read.
 */
export async function storedAgentHealth(store: EventStore, tournamentId: string, entrants: readonly string[]): Promise<Record<string, AgentHealth>> {
  const agents = entrants.filter(isLlmAgent);
  if (agents.length === 0) return {};
  const linked = (await store.tournaments.games(tournamentId)).filter((g) => g.seats.some(isLlmAgent));
  const games: HealthGame[] = [];
  for (let i = 0; i < linked.length; i += CONCURRENCY) {
    const batch = linked.slice(i, i + CONCURRENCY);
    games.push(
      ...(await Promise.all(
        batch.map(async (g) => {
          const [game, traces, calls] = await Promise.all([store.getGame(g.game_id), store.readTraces(g.game_id), store.readProviderCalls(g.game_id)]);
          // Only what seatSummaries reads of a trace: its entries can be large (stages, memory).
          const slim = traces.map((t) => ({ ...t, entries: slimEntries(t.entries) }));
          return { state: g.state, entrants: g.seats, players: game.seats.map((s) => s.player_id), traces: slim, calls };
        }),
      )),
    );
  }
  return agentHealth(agents, games);
}

type Entries = { ok?: boolean; rejected?: string; failure?: { code?: string } | null; stages?: { stage?: string }[] };

function slimEntries(entries: unknown): Entries {
  const e = (entries ?? {}) as Entries;
  return { ok: e.ok, ...(e.rejected ? { rejected: e.rejected } : {}), failure: e.failure ? { code: e.failure.code } : null, stages: (e.stages ?? []).map((s) => ({ stage: s.stage })) };
}
