import { capRefusal } from '../../agents/seat/unpriced.js';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { AGENT_SPEC_HELP } from '../../agents/seat/agent-spec.js';
import { createTournament } from '../../tournament/create.js';
import { clockFlag, parseFlags, spectatorFlags } from '../flags.js';
import { EXIT, UsageError } from '../io.js';
import { withStore } from '../store-session.js';
import { configInput, configIssue, wholeFlag } from '../tournament-flags.js';
import type { CommitPolicy } from '../../tournament/play-scheduled.js';
import type { Command } from './command.js';
import { MAX_COST_USD } from '../../tournament/cost-limit.js';
import { dryRun } from '../tournament-dry-run.js';
import { PREFLIGHT_OPTION, preflightOrRefuse } from '../preflight-flag.js';
import { RESUME_USAGE, runAndReport } from './tournament-run.js';
import { resumeSettings, storedRunSettings, type RunSettings } from '../../tournament/run-settings.js';

/** More threads than this only compete for the same cores (each holds its own engine and heap). */
const MAX_WORKERS = 16;

const OPTIONS = {
  agents: { type: 'string' },
  seats: { type: 'string' },
  format: { type: 'string' },
  seeds: { type: 'string' },
  games: { type: 'string' },
  seed: { type: 'string' },
  rounds: { type: 'string' },
  challenger: { type: 'string' },
  concurrency: { type: 'string' },
  workers: { type: 'string' },
  clock: { type: 'string' },
  commit: { type: 'string' },
  'stop-when-separated': { type: 'boolean' },
  'rate-degraded': { type: 'boolean' },
  'max-cost-usd': { type: 'string' },
  'dry-run': { type: 'boolean' },
  spectators: { type: 'string' },
  'broadcast-unsafe': { type: 'string' },
  compact: { type: 'boolean' },
  'allow-unpriced': { type: 'boolean' },
  progress: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  ...PREFLIGHT_OPTION,
} as const;

export const tournamentCommand: Command = {
  name: 'tournament',
  summary: 'run a rated tournament (round-robin, swiss, gauntlet) and store every game',
  usage: `Usage: tiltyard tournament --agents a,b,c,… [--seats K] [--format round-robin|swiss|gauntlet]
                           [--seeds N] [--games MAX] [--seed S] [--rounds R] [--challenger A]
                           [--concurrency C] [--workers W] [--clock wall|logical] [--stop-when-separated] [--rate-degraded]
                           [--compact] [--spectators public|broadcast] [--broadcast-unsafe hold|refuse]
                           [--progress] [--json]
       tiltyard tournament resume <id> [--concurrency C] [--workers W] [--progress] [--json]

Plays a tournament between any number of entrants (at least the seat count), stores every game
(each verifies, replays and can be watched like any other) and rates the entrants with one
Plackett–Luce fit over all ended games (μ and σ on openskill's scale; the order games finished in
does not matter), with 95 % bootstrap intervals of the rating, the win rate and the mean placement
that resample whole duplicate groups. With duplicate seeds (always on here) each deal is played once in every seat rotation
of its table, so deal and seat luck cancel. A killed tournament loses nothing: resume it.

  --agents a,b,…         the entrants: ${AGENT_SPEC_HELP}
  --seats K              seats per table (default: 4, or fewer when fewer entrants)
  --format F             round-robin (default): every table of K entrants (a balanced design when
                         there are too many); swiss: rounds of tables grouped by rating; gauntlet:
                         the challenger (--challenger, default the first agent) against the field
  --seeds N              deals per table (round-robin, gauntlet) or per table and round (swiss)
  --games MAX            stop at this many games (whole duplicate groups only)
  --seed S               the tournament's seed: every game's seed derives from it (default 0)
  --rounds R             swiss rounds (default: from the entrant count)
  --concurrency C        games in flight at once (default 1; LLM and subprocess seats gain most)
  --workers W            threads that play and hash the games stored whole (built-in line-ups) while
                         this thread writes them (default with --concurrency ≥ 2: 2 on PostgreSQL,
                         1 on the embedded database; else 0; at
                         most ${MAX_WORKERS})
  --clock C              event timestamps: wall (default) or logical (reproducible logs: the same seed
                         gives byte-identical games, wherever and however often they are played)
  --commit auto|step     auto (default): built-in line-ups stored whole, one transaction per game,
                         straight into compressed cold storage (~80 KB a game; TILTYARD_COMPACT=off
                         keeps them as rows); step: every game stored step by step (resumable
                         mid-game, watchable live)
  --stop-when-separated  stop once the leader's rating interval is clear of everyone else's
  --rate-degraded        rate degraded games too (an LLM seat ran out of its budget and the engine's
                         fallback played for it); by default they count for no one, and the exit
                         status is 3 when there are any (docs/providers.md "Degraded games")
  --max-cost-usd X       a hard cap on provider cost, in US dollars, with games at once: each LLM
                         call reserves its worst case (prompt + max_tokens at the model's price)
                         and is not sent if that would pass X; games cut by it stop at a step
                         boundary, out of the ratings; the tournament stops as stopped_by_budget, and
                         \`tournament resume <id> --max-cost-usd Y\` goes on with a higher cap.
                         Every model must have a price (docs/providers.md)
  --allow-unpriced       let LLM entrants whose model has no price play (refused otherwise): their
                         cost is reported as unknown, never $0; not with --max-cost-usd
  --dry-run              play nothing: print the planned games, the decisions and calls expected per
                         LLM seat and an estimated cost range (docs/providers.md)
  --compact              compact windows: one decision per seat per round
  --spectators M         what a server sharing the store shows anonymous viewers of every game:
                         public (default) or broadcast (every seat, at least a round behind)
  --broadcast-unsafe U   hold (default): an entrant that could act on a broadcast (network skill,
                         no sandbox, an unconfigured LLM endpoint) holds every game's broadcast to
                         its end; refuse: stop with the entrant named
  --progress             print one "tournament <id> …" line on stderr per finished game
  --json                 print {tournament_id, status, games, failed, standings} as one JSON object
  --no-preflight         start without checking each LLM entrant's provider and model (one cheap
                         request per distinct provider:model; a failure is exit 2 naming the cause)

On a terminal, a progress bar and the standings are redrawn on stderr as games finish.
Games whose seats are all built-ins are stored whole, one transaction each; others step by step.
With REDIS_URL set (and DATABASE_URL), games are queued for \`tiltyard worker\` processes instead of
played here; this process schedules, follows them in the store and rates (docs/scale-out.md).
`,
  async run(argv, io) {
    if (argv[0] === 'resume') return resume(argv.slice(1), io);
    const { values, positionals } = parseFlags(() => parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true }));
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (did you mean \`tiltyard tournament resume <id>\`?)`);
    const input = configInput(values);
    const concurrency = wholeFlag('concurrency', values.concurrency, 1) ?? 1;
    const workers = workersFlag(values.workers, concurrency);
    const maxCostUsd = costFlag(values['max-cost-usd']);
    if (values['dry-run']) return dryRun(io, input, { json: values.json === true });
    const gameOptions = spectatorFlags(values, (values.agents ?? '').split(',').map((a) => a.trim()));
    if (typeof maxCostUsd === 'number') {
      const refused = capRefusal(input['entrants'] as string[]);
      if (refused) throw new UsageError(`--max-cost-usd: ${refused}`);
    }
    await preflightOrRefuse(input['entrants'] as string[], values['no-preflight'], 'entrants');
    const settings: RunSettings = { clock: clockFlag(values.clock), commit: commitFlag(values.commit) };
    return withStore(io, async (store) => {
      // Stored with it, so that a resume plays the rest as this run would have (run-settings.ts).
      const options = { ...settings, ...gameOptions, ...(typeof maxCostUsd === 'number' ? { max_cost_usd: maxCostUsd } : {}) };
      const created = await createTournament(store, input, { options });
      if (!created.ok) throw new UsageError(configIssue(created.message));
      return runAndReport(io, store, created.tournament.tournament_id, { concurrency, workers, json: values.json === true, progress: values.progress === true, ...settings, gameOptions, ...(maxCostUsd === undefined ? {} : { maxCostUsd }) });
    }, { quiet: values.json === true });
  },
};

async function resume(argv: readonly string[], io: Parameters<Command['run']>[1]): Promise<number> {
  const { values, positionals } = parseFlags(() =>
    parseArgs({ args: [...argv], options: { concurrency: OPTIONS.concurrency, workers: OPTIONS.workers, clock: OPTIONS.clock, commit: OPTIONS.commit, progress: OPTIONS.progress, json: OPTIONS.json, help: OPTIONS.help, 'max-cost-usd': OPTIONS['max-cost-usd'] }, strict: true, allowPositionals: true }),
  );
  if (values.help) {
    io.out(RESUME_USAGE);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError(`expected one tournament id (tiltyard tournaments lists them), got ${positionals.length} arguments`);
  const concurrency = wholeFlag('concurrency', values.concurrency, 1) ?? 1;
  const workers = workersFlag(values.workers, concurrency);
  const maxCostUsd = costFlag(values['max-cost-usd']);
  const id = positionals[0]!;
  const flags: Partial<RunSettings> = { ...(values.clock === undefined ? {} : { clock: clockFlag(values.clock) }), ...(values.commit === undefined ? {} : { commit: commitFlag(values.commit) }) };
  return withStore(io, async (store) => {
    const t = await store.tournaments.get(id);
    const resolved = resumeSettings(id, storedRunSettings(t.options), flags);
    if (!resolved.ok) throw new UsageError(resolved.message);
    // A tournament stored before its settings were keeps, from now on, those of this resume.
    if (Object.keys(resolved.missing).length) await store.tournaments.patchOptions(id, resolved.missing);
    return runAndReport(io, store, id, { concurrency, workers, json: values.json === true, progress: values.progress === true, ...resolved.settings, retryFailed: true, ...(maxCostUsd === undefined ? {} : { maxCostUsd }) });
  }, { quiet: values.json === true });
}

/**
 * `--workers`: threads for games stored whole (0: play them on this thread). By default none for
 * one game at a time: the thread only adds a hand-over per game (300 four-seat games: 35 s with a
 * thread, 30 s without). With games side by side, one on the embedded database, two on PostgreSQL:
 * with PGlite this thread also runs the database, and a second worker only adds CPU (150 games at
 * --concurrency 4: 8.3 s with one or two); with PostgreSQL the writes cost this thread little
 * (games go cold as they are stored, 3.6 ms of PostgreSQL CPU a game), so playing is the limit and
 * two workers take 1,000 games from 22 to 31 a second on 2 cores (npm run bench:tournament).
 */
function workersFlag(value: string | undefined, concurrency: number): number {
  if (value === undefined) return concurrency < 2 ? 0 : process.env['DATABASE_URL'] ? Math.min(2, availableParallelism()) : 1;
  const n = wholeFlag('workers', value, 0) ?? 0;
  if (n > MAX_WORKERS) throw new UsageError(`--workers: at most ${MAX_WORKERS}, got ${n}`);
  return n;
}

/** `--max-cost-usd`: a cost limit in US dollars (0 to MAX_COST_USD; "none" lifts a stored one on resume). */
function costFlag(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  const usd = Number(value);
  if (value.trim() === '' || !Number.isFinite(usd) || usd < 0 || usd > MAX_COST_USD) throw new UsageError(`--max-cost-usd: a number of US dollars from 0 to ${MAX_COST_USD} (or "none" on resume), got "${value}"`);
  return usd;
}

/** `--commit`: how the tournament's games are stored (see CommitPolicy). */
function commitFlag(value: string | undefined): CommitPolicy {
  if (value === undefined || value === 'auto' || value === 'step') return value ?? 'auto';
  throw new UsageError(`--commit: must be auto or step, got "${value}"`);
}
