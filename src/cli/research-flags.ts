import { parseArgs } from 'node:util';
import { parseAgentSpec } from '../agents/seat/agent-spec.js';
import { parseForkAt, type ForkAt } from '../research/fork-point.js';
import { gameIdArg, parseFlags } from './flags.js';
import { UsageError } from './io.js';

/** The parseArgs options fork and counterfactual share. */
export const FORK_OPTIONS = {
  at: { type: 'string' },
  agents: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `--at`: `<seq>` or `round:<N>` (required); `seqOnly` refuses the round form. */
export function forkAtFlag(value: string | undefined, seqOnly = false): ForkAt {
  if (value === undefined) throw new UsageError(seqOnly ? '--at <seq> is required' : '--at <seq|round:N> is required');
  const at = parseForkAt(value);
  if (!at || (seqOnly && !('seq' in at))) throw new UsageError(`--at: must be ${seqOnly ? 'a seq (a whole number)' : 'a seq (a whole number) or round:N'}, got "${value}"`);
  return at;
}

/** A whole-number flag (`--reseed`, `--reseed-from`, `--runs`), at least `min`. */
export function wholeFlag(name: string, value: string | boolean | undefined, min = Number.MIN_SAFE_INTEGER): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (!/^[+-]?\d+$/.test(value.trim())) throw new UsageError(`--${name}: must be a whole number, got "${value}"`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name}: must be a whole number ≥ ${min}, got "${value}"`);
  return n;
}

/** `--agents a,b,…`: one spec per seat, each one this build can run (the seat count is the game's to check). */
export function forkAgentsFlag(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const agents = value.split(',').map((a) => a.trim());
  for (const a of agents) {
    const r = parseAgentSpec(a);
    if (!r.ok) throw new UsageError(`--agents: ${r.message}`);
  }
  return agents;
}

/** What fork and counterfactual both take: the parent game, where to branch, the agents after. */
export type ForkTarget = { parentId: string; at: ForkAt; agents: string[] | undefined };

/**
 * Parses a fork-like command line: FORK_OPTIONS plus `extra`, one game id. Null for --help (the
 * caller prints its usage); otherwise the target and the command's own raw values.
 */
export function parseForkArgs(argv: readonly string[], extra: Record<string, { type: 'string' | 'boolean' }>): { target: ForkTarget; values: Record<string, string | boolean | undefined> } | null {
  const { values, positionals } = parseFlags(() => parseArgs({ args: [...argv], options: { ...FORK_OPTIONS, ...extra }, strict: true, allowPositionals: true }));
  const v = values as Record<string, string | boolean | undefined>;
  if (v['help']) return null;
  const target: ForkTarget = { parentId: gameIdArg(positionals)!, at: forkAtFlag(v['at'] as string | undefined), agents: forkAgentsFlag(v['agents'] as string | undefined) };
  return { target, values: v };
}
