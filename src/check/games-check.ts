import { raw, skipped, type CheckRun, type Raw } from './finding.js';
import type { GamesFigures } from './games.js';
import { LEGAL_HINT } from './hints.js';

/** Action answers needed before "it always passes" is worth a warning. */
const MIN_ACTIONS_FOR_PASS_WARNING = 5;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const codes = (m: Record<string, number>) =>
  Object.entries(m)
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${c} ×${n}`)
    .join(', ');

/**
 * Whole games: every failure is an error (the engine had to fall back), so is every answer the
 * engine rejected; an agent that passes in every action window gets a warning.
 */
export function gamesCheck(f: GamesFigures | null): CheckRun {
  if (!f || f.games === 0) return skipped('games', 'no games played (--games 0)');
  const out: Raw[] = [];
  const gaveUp = f.health.filter((h) => h === 'permanentFailure').length;
  if (f.failures > 0) {
    const tail = gaveUp
      ? `; the runtime gave up on the skill in ${gaveUp} of ${f.games} games and seated its fallback agent`
      : '';
    out.push(
      raw(
        'games',
        'error',
        'failures',
        `${f.failures} of ${f.decisions} decisions failed in ${plural(f.games, 'game')} (${codes(f.failure_codes)})${tail}`,
        'fix the protocol findings above; in play the engine falls back on each failure (reprompt once, then pass) and after 3 failures in a row the seat plays as its fallback agent',
      ),
    );
  }
  const illegal = f.answered - f.legal;
  if (illegal > 0) {
    const schemaOnly = Object.keys(f.illegal_codes).every((c) => c.endsWith('/invalid'));
    const hint = schemaOnly
      ? "the answers did not match their window's schema: fix the schema findings above"
      : `fix the schema and legal findings above; ${LEGAL_HINT}`;
    out.push(
      raw(
        'games',
        'error',
        'illegal',
        `${illegal} of ${f.answered} answers were rejected by the engine (${codes(f.illegal_codes)})`,
        hint,
      ),
    );
  }
  if (f.action_answers >= MIN_ACTIONS_FOR_PASS_WARNING && f.passes === f.action_answers) {
    out.push(
      raw(
        'games',
        'warning',
        'always_passes',
        `passed in all ${f.action_answers} action windows`,
        'play cards from legal_actions: an agent that only passes cannot win (is it reading legal_actions?)',
      ),
    );
  }
  return { check: 'games', findings: out, skipped: null };
}
