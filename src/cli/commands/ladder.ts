import { parseArgs } from 'node:util';
import { AGENT_SPEC_HELP } from '../../agents/seat/agent-spec.js';
import { INPUT_CLOCKS } from '../../runner/input-clock.js';
import { CreateLadderInput, EntrantInput, issues } from '../../ladder/ladder-input.js';
import { ladderSummary, ladderView } from '../../ladder/ladder-view.js';
import { runLadder, type LadderEvent } from '../../ladder/run-ladder.js';
import { clockFlag, parseFlags } from '../flags.js';
import { table } from '../format.js';
import { EXIT, UsageError, type CliIo } from '../io.js';
import { formatStandings } from '../standings-format.js';
import { storeLocation, withStore } from '../store-session.js';
import { wholeFlag } from '../tournament-flags.js';
import type { Command } from './command.js';

const USAGE = `Usage: tiltyard ladder create --name N --entrants a,b,… [--seats K] [--compact] [--seed S]
                              [--max-usd-per-day X] [--max-usd-total Y] [--json]
       tiltyard ladder add <id> <agent> [--max-usd-per-day X] [--max-usd-total Y] [--json]
       tiltyard ladder retire <id> <agent>
       tiltyard ladder run <id> [--games N | --forever] [--clock wall|logical] [--concurrency C] [--json]
       tiltyard ladder standings <id> [--json]
       tiltyard ladder list [--json]

A ladder is a standing competition (docs/ladder.md): entrants are registered once, and \`run\`
keeps choosing the next deal (a line-up and a seed), plays it in every seat rotation (duplicate:
deal and seat luck cancel), stores it and refits the standings over every deal so far. A deal counts
only once all its games are stored: kill a run at any point (Ctrl-C, kill -9) and run it again, it
finishes that deal and goes on, and the standings equal an uninterrupted run's.

Before its first game a skill entrant must pass \`tiltyard agent-check\` and an LLM entrant its
provider preflight; one refused, or whose games fail or degrade 3 times in its last 5, is
suspended with the cause. An LLM entrant at its cap sits out until its day ends or its cap rises.

  --name N               the ladder's name (create)
  --entrants a,b,…       the first entrants: ${AGENT_SPEC_HELP}
  --seats K              seats per game, and rotations per deal (default 4)
  --compact              compact windows: one decision per seat per round
  --seed S               every deal's seed derives from it (default 0)
  --max-usd-per-day X    an LLM entrant's cap per UTC day (create: every LLM entrant; add: this one)
  --max-usd-total Y      an LLM entrant's cap in all
  --games N              run: play deals until N games were played this run (default: one deal)
  --forever              run: keep playing until interrupted
  --clock C              run: event timestamps, wall (default) or logical (reproducible logs)
  --concurrency C        run: games of a deal in flight at once (default 1)
  --json                 one JSON object (create: {ladder_id}; run: the outcome; standings: the view)

\`run\` prints a line per deal on stderr; \`ladder standings\` ranks by the rating μ (one
Plackett–Luce fit over every counted game) with 95 % intervals resampling whole deals.
`;

const OPTIONS = {
  name: { type: 'string' },
  entrants: { type: 'string' },
  seats: { type: 'string' },
  compact: { type: 'boolean' },
  seed: { type: 'string' },
  'max-usd-per-day': { type: 'string' },
  'max-usd-total': { type: 'string' },
  games: { type: 'string' },
  forever: { type: 'boolean' },
  clock: { type: 'string' },
  concurrency: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parse>['values'];
const parse = (argv: readonly string[]) => parseFlags(() => parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true }));

/** Flags a subcommand does not take are refused by name, not ignored. */
function only(values: Values, sub: string, allowed: readonly (keyof Values)[]): void {
  const extra = Object.keys(values).filter((k) => k !== 'help' && !allowed.includes(k as keyof Values));
  if (extra.length) throw new UsageError(`ladder ${sub} does not take --${extra[0]}`);
}

function usd(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${flag}: a number of US dollars, got "${value}"`);
  return n;
}

function args(positionals: readonly string[], sub: string, names: readonly string[]): string[] {
  if (positionals.length !== names.length) throw new UsageError(`ladder ${sub}: expected ${names.map((n) => `<${n}>`).join(' ')}, got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}`);
  return [...positionals];
}

export const ladderCommand: Command = {
  name: 'ladder',
  summary: 'a standing ladder: create, add/retire entrants, run deals, standings, list',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const { values, positionals } = parse(rest);
    if (values.help || sub === undefined || sub === '--help' || sub === '-h') {
      io.out(USAGE);
      return EXIT.ok;
    }
    const json = values.json === true;
    switch (sub) {
      case 'create':
        return create(io, values, args(positionals, sub, []));
      case 'add':
        return add(io, values, args(positionals, sub, ['id', 'agent']));
      case 'retire':
        only(values, sub, []);
        return withStore(io, async (store) => {
          const [id, agent] = args(positionals, sub, ['id', 'agent']);
          await store.ladders.get(id!);
          await store.ladders.setEntrantStatus(id!, agent!, 'retired');
          io.out(`${agent} retired from ladder ${id} (its games still count; \`ladder add\` brings it back)\n`);
          return EXIT.ok;
        });
      case 'run':
        return run(io, values, args(positionals, sub, ['id']));
      case 'standings':
        only(values, sub, ['json']);
        return withStore(io, async (store) => {
          const view = await ladderView(store, args(positionals, sub, ['id'])[0]!);
          if (json) io.out(`${JSON.stringify(view)}\n`);
          else {
            const out = view.entrants.filter((e) => e.status !== 'active' || e.newcomer).map((e) => `  ${e.agent}: ${e.status === 'active' ? 'newcomer' : e.status}${e.cause ? ` (${e.cause})` : ''}`);
            io.out(`Ladder ${view.ladder_id} (${view.name}, ${view.seats} seats${view.compact ? ', compact' : ''}): ${view.deals_done} deals, ${view.games} games\n\n${formatStandings(view.standings)}${out.length ? `\n${out.join('\n')}\n` : ''}`);
          }
          return EXIT.ok;
        }, { quiet: json });
      case 'list':
        only(values, sub, ['json']);
        args(positionals, sub, []);
        return withStore(io, async (store) => {
          const list = (await store.ladders.list(1000)).map(ladderSummary);
          if (json) io.out(`${JSON.stringify(list)}\n`);
          else if (list.length === 0) io.out(`No ladders (${storeLocation()}).\n`);
          else io.out(`${table([['ladder', 'name', 'seats', 'entrants', 'suspended', 'deals', 'created'], ...list.map((l) => [l.ladder_id, l.name, String(l.seats), String(l.entrants), String(l.suspended), String(l.deals), l.created_at])], 3).join('\n')}\n`);
          return EXIT.ok;
        }, { quiet: json });
      default:
        throw new UsageError(`unknown ladder command "${sub}" (create, add, retire, run, standings, list)`);
    }
  },
};

function create(io: CliIo, values: Values, _: string[]): Promise<number> {
  only(values, 'create', ['name', 'entrants', 'seats', 'compact', 'seed', 'max-usd-per-day', 'max-usd-total', 'json']);
  const perDay = usd('max-usd-per-day', values['max-usd-per-day']);
  const total = usd('max-usd-total', values['max-usd-total']);
  const agents = (values.entrants ?? '').split(',').map((a) => a.trim()).filter((a) => a !== '');
  const parsed = CreateLadderInput.safeParse({
    name: values.name,
    entrants: agents.map((agent) => ({ agent, ...(agent.startsWith('llm:') ? { max_usd_per_day: perDay, max_usd_total: total } : {}) })),
    ...(values.seats === undefined ? {} : { seats: wholeFlag('seats', values.seats, 2) }),
    ...(values.compact ? { compact: true } : {}),
    ...(values.seed === undefined ? {} : { seed: wholeFlag('seed', values.seed, 0) }),
  });
  if (!parsed.success) throw new UsageError(`ladder create: ${issues(parsed.error).split('\n').join('; ')}`);
  return withStore(io, async (store) => {
    const l = await store.ladders.create(parsed.data);
    io.out(values.json ? `${JSON.stringify({ ladder_id: l.ladder_id })}\n` : `${l.ladder_id}\n`);
    return EXIT.ok;
  }, { quiet: values.json === true });
}

function add(io: CliIo, values: Values, [id, agent]: string[]): Promise<number> {
  only(values, 'add', ['max-usd-per-day', 'max-usd-total', 'json']);
  const parsed = EntrantInput.safeParse({ agent, max_usd_per_day: usd('max-usd-per-day', values['max-usd-per-day']), max_usd_total: usd('max-usd-total', values['max-usd-total']) });
  if (!parsed.success) throw new UsageError(`ladder add: ${issues(parsed.error).split('\n').join('; ')}`);
  return withStore(io, async (store) => {
    const e = await store.ladders.addEntrant(id!, parsed.data);
    io.out(values.json ? `${JSON.stringify({ ladder_id: id, entrant: e })}\n` : `${e.agent} joins ladder ${id} (a newcomer from the next deal on)\n`);
    return EXIT.ok;
  }, { quiet: values.json === true });
}

function run(io: CliIo, values: Values, [id]: string[]): Promise<number> {
  only(values, 'run', ['games', 'forever', 'clock', 'concurrency', 'json']);
  if (values.forever && values.games !== undefined) throw new UsageError('--games and --forever exclude each other');
  const games = wholeFlag('games', values.games, 1);
  const concurrency = wholeFlag('concurrency', values.concurrency, 1) ?? 1;
  const clock = clockFlag(values.clock);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return withStore(io, async (store) => {
    try {
      const out = await runLadder(id!, { store, signal: stop.signal, clock: INPUT_CLOCKS[clock], concurrency, onEvent: (e) => io.err(progressLine(e)), ...(values.forever ? { forever: true } : { games: games ?? 1 }) });
      if (values.json) io.out(`${JSON.stringify(out)}\n`);
      else io.out(`Ladder ${id}: ${out.deals} deal${out.deals === 1 ? '' : 's'}, ${out.games} games this run (${out.status}${out.reason ? `: ${out.reason}` : ''})\n`);
      return out.status === 'waiting' ? EXIT.failure : EXIT.ok;
    } finally {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    }
  }, { quiet: values.json === true });
}

/** One stderr line per ladder event. */
function progressLine(e: LadderEvent): string {
  switch (e.type) {
    case 'deal_started':
      return `ladder ${e.ladder_id} deal ${e.deal}${e.resumed ? ' (resumed)' : ''}: ${e.lineup.join(', ')}\n`;
    case 'deal_ended': {
      const lead = e.standings?.[0];
      return `ladder ${e.ladder_id} deal ${e.deal} ${e.status}${e.cause ? ` (${e.cause})` : ''}${lead ? `; leader ${lead.agent} μ ${lead.mu.toFixed(2)}` : ''}\n`;
    }
    case 'entrant_suspended':
      return `ladder ${e.ladder_id}: ${e.agent} suspended: ${e.cause}\n`;
    case 'entrant_benched':
      return `ladder ${e.ladder_id}: ${e.agent} sits out: ${e.cause}\n`;
  }
}
