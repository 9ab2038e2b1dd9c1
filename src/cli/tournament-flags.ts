import { FORMATS } from '../tournament/types.js';
import { UsageError } from './io.js';
import { refuseHumans } from './flags.js';

/** A flag holding a whole number ≥ `min`, or undefined when absent; anything else is a UsageError. */
export function wholeFlag(flag: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\s*\+?\d+\s*$/.test(value)) throw new UsageError(`--${flag}: must be a whole number, got "${value}"`);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new UsageError(`--${flag}: is too large`);
  if (n < min) throw new UsageError(`--${flag}: must be at least ${min}, got ${n}`);
  return n;
}

/** The flag each config key comes from, so a config issue names what the user typed. */
const FLAG_OF: Record<string, string> = {
  entrants: '--agents',
  seats: '--seats',
  format: '--format',
  seeds: '--seeds',
  seed: '--seed',
  max_games: '--games',
  stop_when_separated: '--stop-when-separated',
  rate_degraded: '--rate-degraded',
  rounds: '--rounds',
  challenger: '--challenger',
  rules: '--compact',
  allow_unpriced: '--allow-unpriced',
};

/** The tournament config the `tournament` flags describe (validated later by the core's schema). */
export function configInput(values: Record<string, string | boolean | undefined>): Record<string, unknown> {
  const str = (k: string) => values[k] as string | undefined;
  if (str('agents') === undefined) throw new UsageError('--agents is required: the entrants, e.g. --agents random,balanced,turtle,aggressor');
  const format = str('format') ?? 'round-robin';
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format: must be one of ${FORMATS.join(', ')}, got "${format}"`);
  const entrants = str('agents')!.split(',').map((a) => a.trim());
  refuseHumans(entrants, 'a tournament');
  const optional = (key: string, flag: string, min: number) => {
    const n = wholeFlag(flag, str(flag), min);
    return n === undefined ? {} : { [key]: n };
  };
  return {
    format,
    entrants,
    seats: wholeFlag('seats', str('seats'), 2) ?? Math.min(4, entrants.length),
    ...optional('seeds', 'seeds', 1),
    ...optional('seed', 'seed', 0),
    ...optional('max_games', 'games', 1),
    ...optional('rounds', 'rounds', 1),
    ...(str('challenger') !== undefined ? { challenger: str('challenger') } : {}),
    ...(values['stop-when-separated'] ? { stop_when_separated: true } : {}),
    ...(values['rate-degraded'] ? { rate_degraded: true } : {}),
    compact: values['compact'] === true,
    ...(values['allow-unpriced'] ? { allow_unpriced: true } : {}),
  };
}

/** The first line of a config error ("entrants: …"), with the key replaced by its flag. */
export function configIssue(message: string): string {
  const first = message.split('\n')[0]!;
  const m = /^([a-z_]+)(\.[^:]*)?: (.*)$/.exec(first);
  if (!m) return first;
  return `${FLAG_OF[m[1]!] ?? m[1]}${m[2] ?? ''}: ${m[3]}`;
}
