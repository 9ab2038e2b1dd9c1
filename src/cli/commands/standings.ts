import { parseArgs } from 'node:util';
import { parseFlags } from '../flags.js';
import { EXIT, UsageError } from '../io.js';
import { formatAgentHealth } from '../agent-health-format.js';
import { formatStandings, standingsCsv } from '../standings-format.js';
import { storedAgentHealth } from '../../runner/agent-health.js';
import { withStore } from '../store-session.js';
import { ratedResultsOf } from '../../tournament/results.js';
import { refitStandings, type RefitCheck } from '../../tournament/refit.js';
import { standingsWithWpa } from '../../tournament/stored-wpa.js';
import { standings as computeStandings } from '../../tournament/standings.js';
import type { TournamentConfig } from '../../tournament/types.js';
import type { Command } from './command.js';

export const standingsCommand: Command = {
  name: 'standings',
  summary: "print a tournament's standings (ratings with 95 % intervals)",
  usage: `Usage: tiltyard standings <tournament id> [--refit] [--json | --csv]

Prints a tournament's standings as last stored (recomputed from all its results after every batch
and at its end): rank, agent, rating μ (one Plackett–Luce fit over every ended game, on openskill's
scale: the ranking key, independent of the order games finished in) with its 95 % interval, σ,
games, wins, and 95 % intervals of the win rate and of the mean placement, and beside them a skill
figure: the mean win probability each decision added (WPA, per decision, from the ended games'
logs). Intervals resample whole duplicate groups (docs/tournaments.md). Standings stored by a release that ranked by openskill's
online fold are recomputed with the fit.

LLM entrants (llm:<provider>:<model>) get a second table: decisions answered first time, repaired
and fell back (and why), provider calls by outcome, tokens, cost in USD, the share of their games
that failed and of their decisions that fell back, and call latency p50/p95, from the stored games'
traces and provider calls (the same figures as each game's seat table, over the tournament).

  --refit            recompute the table from the stored results alone (one fit, a fresh
                     1,000-resample bootstrap) instead of reading the stored table, and say
                     whether it equals the stored one (--json: a "refit" object with
                     results, resamples, equals_stored, differing, max_mu_diff)
  --json             print one JSON object {tournament_id, status, standings, llm}; llm holds
                     those figures per LLM agent ({} without LLM entrants)
  --csv              print CSV (a header line, then one line per agent, full precision)
`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(() =>
      parseArgs({ args: [...argv], options: { json: { type: 'boolean' }, csv: { type: 'boolean' }, refit: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true }),
    );
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    if (values.json && values.csv) throw new UsageError('--json and --csv exclude each other');
    if (positionals.length !== 1) throw new UsageError(`expected one tournament id (tiltyard tournaments lists them), got ${positionals.length} arguments`);
    const id = positionals[0]!;
    return withStore(io, async (store) => {
      const t = await store.tournaments.get(id);
      const entrants = (t.config as Pick<TournamentConfig, 'entrants'>).entrants;
      const rateDegraded = (t.config as Partial<Pick<TournamentConfig, 'rate_degraded'>>).rate_degraded === true;
      let standings = (await store.tournaments.ratings(id)).map((r) => r.standing);
      let refit: RefitCheck | null = null;
      if (values.refit) ({ standings, check: refit } = refitStandings({ entrants, seed: t.seed }, await store.tournaments.games(id), rateDegraded, standings));
      else if (standings.some((s) => s.games > 0 && s.rating_ci === undefined)) {
        standings = computeStandings({ entrants, seed: t.seed }, ratedResultsOf(await store.tournaments.games(id), rateDegraded));
      }
      standings = await standingsWithWpa(store, t, standings);
      if (values.csv) {
        io.out(standingsCsv(standings));
        return EXIT.ok;
      }
      const llm = await storedAgentHealth(store, id, entrants);
      if (values.json) io.out(`${JSON.stringify({ tournament_id: id, status: t.status, standings, llm, ...(refit ? { refit } : {}) })}\n`);
      else {
        const health = formatAgentHealth(llm);
        const head = `Tournament ${id}: ${t.status}, ${t.progress.ended} games${t.progress.failed ? `, ${t.progress.failed} failed` : ''}\n`;
        io.out(`${head}${refit ? refitLine(refit, t.status) : ''}\n${formatStandings(standings)}${health ? `\n${health}` : ''}`);
      }
      return EXIT.ok;
    }, { quiet: values.json === true });
  },
};

/** What `--refit` says of its table beside the stored one, in a sentence. */
function refitLine(c: RefitCheck, status: string): string {
  const what = `Refit from ${c.results} stored result${c.results === 1 ? '' : 's'} (one fit, ${c.resamples} resamples)`;
  if (c.equals_stored) return `${what}: equal to the stored table, field for field.\n`;
  const why = status === 'ended' ? 'the stored table is stale or from another release' : "a running tournament's stored table is redrawn with fewer resamples and may lag its last games";
  const gap = c.max_mu_diff === null ? '' : `; largest μ gap ${c.max_mu_diff}`;
  return `${what}: differs from the stored table for ${c.differing.join(', ')}${gap} (${why}). The table below is the refit.\n`;
}
