import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isHumanSpec } from '../agents/seat/agent-spec.js';
import { risksOf } from '../agents/seat/broadcast-risk.js';
import type { Viewer } from '../game/index.js';
import { GameId, PlayerId } from '../protocol/index.js';
import { INPUT_CLOCKS, type InputClockName } from '../runner/input-clock.js';
import { SimulationSpec } from '../runner/simulate.js';
import { UsageError } from './io.js';

/**
 * Runs node:util parseArgs (strict, no positionals) and turns its errors into one-line usage
 * errors; parseArgs' own messages run to several sentences.
 */
export function parseFlags<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    const err = e as { code?: string; message?: string };
    const message = err.message ?? String(e);
    const flag = /'(-[^' ]+)/.exec(message)?.[1] ?? 'a flag';
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown flag ${flag}`);
    if (message.includes('ambiguous')) throw new UsageError(`${flag}: a value starting with "-" must be written ${flag}=<value>`);
    const first = message.split(/\.(?:\s|$)/)[0] ?? message;
    throw new UsageError(first.charAt(0).toLowerCase() + first.slice(1));
  }
}

export const DEFAULT_GAMES = 100;

/** The parseArgs options every game-running command shares. */
export const GAME_OPTIONS = {
  seed: { type: 'string' },
  seats: { type: 'string' },
  agents: { type: 'string' },
  'rules-file': { type: 'string' },
  compact: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const WholeNumber = z
  .string()
  .trim()
  .regex(/^[+-]?\d+$/, { error: (issue) => `must be a whole number, got "${String(issue.input)}"` })
  .transform(Number);

/** The raw flag strings, typed; ranges and names are checked by the runner's SimulationSpec. */
const GameFlags = z.object({
  games: WholeNumber.optional(),
  seed: WholeNumber.default(1),
  seats: WholeNumber.optional(),
  agents: z
    .string()
    .transform((s) => s.split(',').map((a) => a.trim()))
    .optional(),
  'rules-file': z.string().optional(),
  compact: z.boolean().default(false),
});

const FLAG_OF: Record<string, string> = { rules: '--rules-file' };

/** One line per the first zod issue, naming the flag it is about. */
export function issueLine(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid arguments';
  const [head, ...rest] = issue.path.map(String);
  const flag = head === undefined ? '' : (FLAG_OF[head] ?? `--${head}`);
  return [flag, rest.join('.'), issue.message].filter(Boolean).join(': ');
}

function readRules(path: string, compact: boolean): Record<string, unknown> {
  let rules: Record<string, unknown> = {};
  if (path) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new UsageError(`--rules-file: cannot read ${path} (${(e as { code?: string }).code ?? String(e)})`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`--rules-file: ${path} is not valid JSON (${(e as Error).message})`);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UsageError(`--rules-file: ${path} must hold a JSON object`);
    rules = json as Record<string, unknown>;
  }
  return compact ? { ...rules, windows: 'compact' } : rules;
}

/**
 * Turns a command's parsed flag values into a validated simulation spec, or a UsageError naming
 * the flag. `games` is fixed by commands that play one game (play, run): they refuse more agents
 * than seats, which simulate turns into every line-up.
 */
export function gameSpec(values: Record<string, unknown>, games?: number): SimulationSpec {
  const flags = GameFlags.safeParse(values);
  if (!flags.success) throw new UsageError(issueLine(flags.error));
  const f = flags.data;
  const spec = SimulationSpec.safeParse({
    games: games ?? f.games ?? DEFAULT_GAMES,
    seed: f.seed,
    seats: f.seats,
    agents: f.agents,
    rules: readRules(f['rules-file'] ?? '', f.compact),
  });
  if (!spec.success) throw new UsageError(issueLine(spec.error));
  // One game seats `seats` agents: only simulate plays every line-up of more.
  if (games !== undefined && spec.data.lineup.length > spec.data.seats)
    throw new UsageError(`--agents: names ${spec.data.lineup.length} agents for ${spec.data.seats} seats (one game seats ${spec.data.seats}; tiltyard simulate plays every line-up of more)`);
  return spec.data;
}

/** `--clock`: where a persistent runner's input timestamps come from (see runner/input-clock.ts). */
export function clockFlag(value: string | undefined): InputClockName {
  const name = value ?? 'wall';
  if (!Object.hasOwn(INPUT_CLOCKS, name)) throw new UsageError(`--clock: must be wall or logical, got "${name}"`);
  return name as InputClockName;
}

/** `--game-id`: a game id as the protocol spells them (game_…). */
export function gameIdFlag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!GameId.safeParse(value).success) throw new UsageError(`--game-id: expected an id like game_abc123 (letters, digits, _ . : -), got "${value}"`);
  return value;
}

/** `--at`: a seq (a whole number ≥ 0). */
export function seqFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`--at: must be a seq (a whole number ≥ 0), got "${value}"`);
  return Number(value);
}

/** `--view`: spectator, broadcast, researcher, admin, or a seat's player id (plr_N). Whether the seat exists is the game's to say. */
export function viewerFlag(value: string | undefined): Viewer {
  const v = value ?? 'spectator';
  if (v === 'spectator' || v === 'broadcast' || v === 'researcher' || v === 'admin') return { role: v };
  if (PlayerId.safeParse(v).success) return { role: 'seat', player_id: v };
  throw new UsageError(`--view: must be spectator, broadcast, researcher, admin or a seat id like plr_1, got "${v}"`);
}

/**
 * `--spectators public|broadcast` and `--broadcast-unsafe hold|refuse`: a game's (or a
 * tournament's games') spectator mode, checked against its agents as POST /games checks it (a
 * refused seat is a usage error naming it). Returns the options to store, or {} when neither is given.
 */
export function spectatorFlags(values: { spectators?: string | undefined; 'broadcast-unsafe'?: string | undefined }, agents: readonly string[]): Record<string, unknown> {
  const mode = values.spectators;
  const unsafe = values['broadcast-unsafe'];
  if (mode === undefined && unsafe === undefined) return {};
  if (mode !== undefined && mode !== 'public' && mode !== 'broadcast') throw new UsageError(`--spectators: must be public or broadcast, got "${mode}"`);
  if (unsafe !== undefined && unsafe !== 'hold' && unsafe !== 'refuse') throw new UsageError(`--broadcast-unsafe: must be hold or refuse, got "${unsafe}"`);
  if (unsafe !== undefined && mode !== 'broadcast') throw new UsageError('--broadcast-unsafe: only applies with --spectators broadcast');
  const risks = mode === 'broadcast' ? risksOf(agents) : [];
  if (unsafe === 'refuse' && risks.length) throw new UsageError(risks.map((r) => `--spectators broadcast: seat ${r.player_id} (${r.agent}) could act on the broadcast: ${r.why}`).join('\n'));
  return { spectators: mode ?? 'public', broadcast_held: risks.length > 0 };
}

/** The one game id a command takes as its argument (exactly one unless `optional`). */
export function gameIdArg(positionals: readonly string[], optional = false): string | undefined {
  if (positionals.length > 1) throw new UsageError(`expected one game id, got ${positionals.length} arguments`);
  const [id] = positionals;
  if (id === undefined && !optional) throw new UsageError('expected a game id (tiltyard games lists them)');
  return id;
}

/**
 * Refuses human seats up front in a command that plays games with no one at hand to answer them
 * (simulate, run, tournament): a person plays on a server or, alone, in `tiltyard play`.
 *
 * @example refuseHumans(['human', 'balanced'], 'simulate') // throws UsageError
 */
export function refuseHumans(agents: readonly string[], command: string): void {
  const humans = [...new Set(agents.filter(isHumanSpec))];
  if (humans.length) throw new UsageError(`--agents: ${command} takes no human seats (${humans.join(', ')}): a person plays on a server (tiltyard serve, POST /games) or at a terminal with tiltyard play`);
}
