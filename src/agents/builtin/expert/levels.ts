import { EXPERT, MAX_BUDGET, expertOptions, type ExpertOptions } from './expert.js';

/**
 * The expert's search budgets, by the names users type. The unit is the 1× budget of `expert`
 * (2,000 engine steps a searched decision); `expert:<k>x` multiplies it, `expert:<steps>` names the
 * steps outright. Named levels:
 *
 * - `expert:fast` ¼× (500 steps), for tournaments and self-play;
 * - `expert`      1× (2,000);
 * - `expert:deep` 4× (8,000): the deepest that stayed within ≈ 2 s of CPU a decision on the
 *   shared 2-core development machine under load (≈ 3,900 rollout steps per CPU second measured,
 *   see docs/agents.md); 16× is `expert:16x`, for the budget curve.
 *
 * A level is part of the agent's behaviour: changing one changes the games it plays (its name
 * carries the budget, so a stored game's spec still says what played).
 */
export const EXPERT_LEVELS: Readonly<Record<string, number>> = { fast: EXPERT.budget / 4, deep: EXPERT.budget * 4 };

/** The smallest step budget `expert:<steps>` accepts: below it a decision samples about one world. */
export const MIN_BUDGET = 100;
/** The largest multiple `expert:<k>x` accepts (16 × 2,000 = MAX_BUDGET). */
export const MAX_MULTIPLE = MAX_BUDGET / EXPERT.budget;
/** Specs longer than this are refused before they are read. */
const MAX_SPEC = 24;

export const EXPERT_SPEC_HELP = `expert, expert:fast, expert:deep, expert:<k>x (k = 1–${MAX_MULTIPLE}, a multiple of expert's ${EXPERT.budget} steps) or expert:<steps> (${MIN_BUDGET}–${MAX_BUDGET} engine steps a decision)`;

export type ExpertSpecResult = { ok: true; options: ExpertOptions } | { ok: false; message: string };

/**
 * Reads an expert spec into its search options; anything else named `expert…` is an error that
 * says what is accepted. Pure and cheap (the length is bounded first).
 *
 * @example parseExpertSpec('expert:4x') // { ok: true, options: { name: 'expert:4x', budget: 8000, horizon: 1 } }
 * @example parseExpertSpec('expert:0')  // { ok: false, message: '"expert:0": …' }
 */
export function parseExpertSpec(spec: string): ExpertSpecResult {
  const fail = (why: string): ExpertSpecResult => ({ ok: false, message: `"${spec.slice(0, MAX_SPEC)}": ${why}; expected ${EXPERT_SPEC_HELP}` });
  if (spec.length > MAX_SPEC) return fail('too long');
  if (spec === 'expert') return { ok: true, options: EXPERT };
  if (!spec.startsWith('expert:')) return fail('not an expert spec');
  const level = spec.slice('expert:'.length);
  const named = Object.hasOwn(EXPERT_LEVELS, level) ? EXPERT_LEVELS[level]! : null;
  if (named !== null) return { ok: true, options: expertOptions(spec, named) };
  const multiple = /^([1-9][0-9]*)x$/.exec(level);
  if (multiple) {
    const k = Number(multiple[1]);
    return k <= MAX_MULTIPLE ? { ok: true, options: expertOptions(spec, k * EXPERT.budget) } : fail(`at most ${MAX_MULTIPLE}x`);
  }
  if (!/^[0-9]+$/.test(level)) return fail('an unknown budget');
  const steps = Number(level);
  if (level.length > 1 && level.startsWith('0')) return fail('write the step count without leading zeros');
  if (steps < MIN_BUDGET || steps > MAX_BUDGET) return fail(`a step budget is ${MIN_BUDGET}–${MAX_BUDGET}`);
  return { ok: true, options: expertOptions(spec, steps) };
}

/** Whether a name is an expert spec this build plays (`expert`, a named level, `<k>x`, `<steps>`). */
export const isExpertSpec = (name: string): boolean => (name === 'expert' || name.startsWith('expert:')) && parseExpertSpec(name).ok;
