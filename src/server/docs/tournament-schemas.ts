import { z } from 'zod';
import { FORMATS } from '../../tournament/types.js';
import { EMOTIONAL_INTENTS, GameId, IsoTimestamp } from '../../protocol/index.js';
import { TOURNAMENT_STATUSES } from '../../store/index.js';

/**
 * The tournament routes' response shapes for the OpenAPI document (the services type them in
 * TypeScript: see src/server/tournaments/tournament-view.ts and src/tournament/types.ts).
 */

const Interval = z.object({ value: z.number(), low: z.number(), high: z.number() }).nullable();

export const Standing = z.object({
  agent: z.string(),
  mu: z.number().meta({ description: 'The rating: one Plackett–Luce fit (posterior mode) over every ended game, on openskill’s scale (prior μ 25, σ 25/3); the ranking key, independent of the order games ended in' }),
  sigma: z.number().meta({ description: 'The rating’s standard deviation over the bootstrap resamples (25/3, the prior, before any game)' }),
  rating_ci: Interval.meta({ description: '95 % bootstrap interval of the rating (seeded, resampling whole duplicate groups); null before any game' }),
  games: z.int(),
  wins: z.int(),
  mean_placement: z.number().nullable(),
  win_rate: Interval.meta({ description: '95 % bootstrap interval of the win rate (seeded, resampling whole duplicate groups); null before any game' }),
  placement_ci: Interval.meta({ description: '95 % bootstrap interval of the mean placement; null before any game' }),
  wpa: Interval.optional().meta({
    description:
      'Skill beside the rating: mean win probability added per decision (the seat’s chance after its own choices minus before, omniscient model) with its 95 % interval resampling the same duplicate groups as the rating; null without decisions or for a caller who may not see ended games’ hidden parts (spectators)',
  }),
  wpa_decisions: z.int().optional().meta({ description: 'The decisions behind `wpa`' }),
});

const Progress = z.object({
  played: z.int().meta({ description: 'Games that ended (the standings count these)' }),
  scheduled: z.int().meta({ description: 'Games created so far' }),
  running: z.int().meta({ description: 'Games being played now' }),
  failed: z.int().meta({ description: 'Games that failed and count for no one' }),
});

const summary = {
  tournament_id: z.string().meta({ example: 'trn_0a1b2c3d4e5f' }),
  name: z.string(),
  status: z.enum(TOURNAMENT_STATUSES),
  config: z
    .object({ format: z.enum(FORMATS), entrants: z.array(z.string()), seats: z.int(), seed: z.int().nullable() })
    .catchall(z.unknown())
    .meta({ description: 'The config as validated (defaults filled); `seed` is null while the tournament runs, except for admins — every deal derives from it' }),
  seed_hidden: z.boolean(),
  progress: Progress,
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp,
  ended_at: IsoTimestamp.nullable(),
};

export const TournamentSummary = z.object(summary);

export const TournamentView = z.object({
  ...summary,
  standings: z.array(Standing).meta({ description: 'From ended games only, best rating (μ) first' }),
  head_to_head: z
    .array(z.object({ a: z.string(), b: z.string(), games: z.int(), above: z.int(), level: z.int(), below: z.int() }))
    .meta({ description: 'Every ordered pair of entrants that shared a table (ended games only): games together and how often `a` placed above, level with or below `b`' }),
  llm: z
    .record(
      z.string(),
      z
        .object({
          agent: z.string(),
          games: z.int(),
          failed_games: z.int(),
          error_rate: z.number().nullable().meta({ description: 'failed_games / games' }),
          decisions: z.int(),
          answered_first_time: z.int(),
          repaired: z.int(),
          fell_back: z.int(),
          fallback_rate: z.number().nullable().meta({ description: 'fell_back / decisions' }),
          fallback_reasons: z.record(z.string(), z.int()),
          calls: z.record(z.string(), z.int()).meta({ description: 'Provider calls by outcome (ok, malformed, refused, timeout, …)' }),
          input_tokens: z.int(),
          output_tokens: z.int(),
          cost_usd: z.number().nullable().meta({ description: 'null: its model has no price (allow_unpriced), so the cost is unknown' }),
          wire_ms: z.object({ p50: z.number(), p95: z.number(), max: z.number() }).nullable().meta({ description: 'Per HTTP attempt: request sent → whole reply read' }),
          queued_ms: z.object({ p50: z.number(), p95: z.number(), max: z.number() }).nullable().meta({ description: 'Per call: time waiting in Tiltyard before the request left (cost cap holds, retry backoff)' }),
          latency_ms: z.object({ p50: z.number(), p95: z.number() }).nullable().meta({ description: 'wire_ms under its older name' }),
        })
        .meta({ description: 'One LLM entrant over the tournament’s stored games' }),
    )
    .optional()
    .meta({ description: 'Admins and researchers, tournaments with llm: entrants: each LLM entrant’s health over its games (docs/providers.md)' }),
  games: z.array(
    z.object({
      game_id: GameId,
      link: z.string().meta({ description: 'GET it for the game’s record; /games/{id}/events, /snapshot and the /spectate socket take the same id', example: '/games/game_0a1b2c3d4e5f' }),
      key: z.string().meta({ description: 'The schedule’s key of the game, unique in the tournament' }),
      round: z.int(),
      table: z.int(),
      seats: z.array(z.string()).meta({ description: 'The entrant in each seat, in seat order' }),
      status: z.string(),
      placements: z.array(z.int()).nullable().meta({ description: 'Each seat’s placement (1 = won) once the game ended; null before' }),
      error: z.string().nullable(),
    }),
  ),
});

export const TournamentsPage = z.object({
  tournaments: z.array(TournamentSummary),
  next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last' }),
});

const AttackCell = z.object({
  agent: z.string(),
  target: z.string(),
  attempts: z.int(),
  successes: z.int(),
  partial: z.int(),
  games: z.array(GameId).meta({ description: 'Games with at least one attempt' }),
  attacks: z.array(
    z.object({
      game_id: GameId,
      seq: z.int().meta({ description: 'The action_resolved event: open the game at this seq to see it' }),
      turn: z.int(),
      agent: z.string(),
      target: z.string(),
      actor_player_id: z.string(),
      target_player_id: z.string(),
      manipulation_plan: z.string(),
      emotional_intent: z.string(),
      outcome: z.enum(['success', 'partial', 'failed']),
    }),
  ),
});

export const TournamentAttacks = z.object({
  tournament_id: z.string(),
  status: z.enum(TOURNAMENT_STATUSES),
  games_counted: z.int().meta({ description: 'Ended games folded (anonymous callers: those past their spectator delay)' }),
  cells: z.array(AttackCell).meta({ description: 'The who-manipulated-whom matrix: one cell per ordered pair with attempts, with the attempts behind it' }),
});

const TiltResilience = z
  .object({
    manipulated_games: z.int().meta({ description: 'Games where a manipulation against it succeeded' }),
    other_games: z.int().meta({ description: 'Its other games' }),
    placement_when_manipulated: z.number().nullable(),
    placement_otherwise: z.number().nullable(),
    placement_delta: z.number().nullable().meta({ description: 'placement_when_manipulated − placement_otherwise; null unless both sides have 3 games (see status)' }),
    placement_delta_ci: Interval.meta({ description: 'placement_delta with its 95 % cluster-bootstrap interval (whole duplicate groups resampled; fixed seed); null when placement_delta is' }),
    status: z.enum(['ok', 'not_enough_games']),
    note: z.string().nullable().meta({ description: 'Which side is short, in words (e.g. "not enough games: manipulated in every game (each side needs 3)"); null when status is ok' }),
    tilted_games: z.int(),
    placement_when_tilted: z.number().nullable(),
  })
  .meta({ description: 'Mean placement when a manipulation against it succeeded vs otherwise, with the games behind each side' });

const ChoiceShiftRow = z.object({
  target: z.string().nullable().meta({ description: 'The target agent; null in by_intent (every target pooled)' }),
  emotional_intent: z.enum(EMOTIONAL_INTENTS),
  samples: z.int().meta({ description: 'Successful manipulations with this intent after which the target acted the next round' }),
  clusters: z.int().meta({ description: 'Distinct duplicate groups (games outside one: each its own) the samples come from; the intervals resample these whole' }),
  attack_share_after: z.number().nullable().meta({ description: 'Mean share of attacks among the target’s next-round actions' }),
  attack_share_baseline: z.number().nullable().meta({ description: 'The target’s attack share over every round it acted in (pooled: the mean over the samples’ targets)' }),
  attack_shift: Interval.meta({ description: 'after − baseline with its 95 % cluster-bootstrap interval (whole duplicate groups resampled; fixed seed); null below 5 samples or 3 clusters' }),
  defensive_share_after: z.number().nullable(),
  defensive_share_baseline: z.number().nullable(),
  defensive_shift: Interval,
  status: z.enum(['ok', 'not_enough_samples']),
  few_samples: z.boolean().meta({ description: 'Fewer than 20 samples or 10 clusters: any interval is rough (too narrow, if anything)' }),
});

const WpaRow = z.object({
  agent: z.string(),
  kind: z.enum(['all', 'intent', 'talk', 'action', 'reaction', 'reflect']).meta({ description: 'Every decision, or one window’s' }),
  games: z.int(),
  decisions: z.int(),
  mean: Interval.meta({ description: 'Mean choice WPA per decision with its 95 % bootstrap interval (whole duplicate groups resampled, fixed seed)' }),
});

const ReportAgent = z.object({ agent: z.string(), tilt_resilience: TiltResilience }).catchall(z.unknown());

export const TournamentReport = z
  .object({
    tournament_id: z.string(),
    status: z.enum(TOURNAMENT_STATUSES),
    games_counted: z.int().meta({ description: 'Ended games the report folds (a running tournament’s live games are left out)' }),
    report: z
      .object({
        games: z.int(),
        overall: z.record(z.string(), z.unknown()).meta({ description: 'The figures `tiltyard simulate` reports, over these games (by agent, card-type shares, manipulation and slip rates, emotion coupling)' }),
        agents: z.array(ReportAgent).meta({
          description:
            'Per agent: manipulation attempts and success given and received, success by manipulation_plan and by emotional_intent, slips and forced errors, prediction accuracy, promises kept and broken, tilt resilience, card-type mix, token and cost use',
        }),
        pairs: z.array(z.record(z.string(), z.unknown())).meta({ description: 'Per ordered pair: who manipulated whom, and how often it worked' }),
        attacks: z.array(AttackCell).meta({ description: 'The manipulation attempts behind `pairs`, per ordered pair (game, seq, plan, outcome)' }),
        choice_shift: z
          .object({ by_intent: z.array(ChoiceShiftRow), by_target: z.array(ChoiceShiftRow) })
          .meta({ description: 'Emotion → choice: how a successful manipulation with each emotional intent moved its target’s attack and defensive share the round after, pooled (by_intent) and per target agent (by_target)' }),
        wpa: z.array(WpaRow).meta({ description: 'Win probability added: each agent’s mean choice WPA per decision, over every decision and per window (docs/research.md)' }),
      })
      .meta({ description: 'The research report (src/tournament/report.ts)' }),
  })
  .meta({ description: 'With `?format=csv` one of its tables comes as text/csv instead (`table`)' });
