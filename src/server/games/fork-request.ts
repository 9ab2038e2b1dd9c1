import { z } from 'zod';
import { parseAgentSpec } from '../../agents/seat/agent-spec.js';
import { MAX_PACE_MS } from '../../live/game-options.js';
import { parseForkAt, type ForkAt } from '../../research/fork-point.js';
import { SafeString, unsafeText } from '../safe-text.js';

const AT = 'must be a seq (a whole number ≥ 0) or "round:N"';

/**
 * `POST /games/:id/fork`'s body: where to branch (`at`: a seq, or "round:N"), the agents after
 * the fork (one per seat; default the parent's), what it draws after the fork point (by default
 * from a fresh secret; `reseed`: a chosen one; `same_deck`: the parent's deck and PRNG, for exact
 * replays), and the fork's pace.
 */
export const ForkGameBody = z
  .strictObject({
    at: z.union([z.int().min(0), z.string()], AT).transform((v, ctx): ForkAt => {
      const at = typeof v === 'number' ? { seq: v } : parseForkAt(v);
      if (!at) ctx.addIssue({ code: 'custom', message: AT });
      return at ?? { seq: 0 };
    }),
    agents: z
      .array(SafeString.min(1, 'must name an agent'), 'must be a list of agents, one per seat')
      .superRefine((agents, ctx) => {
        agents.forEach((spec, i) => {
          if (unsafeText(spec)) return;
          const r = parseAgentSpec(spec);
          if (!r.ok) ctx.addIssue({ code: 'custom', path: [i], message: r.message });
        });
      })
      .optional(),
    reseed: z
      .int('must be a whole number')
      .min(Number.MIN_SAFE_INTEGER)
      .max(Number.MAX_SAFE_INTEGER)
      .optional(),
    same_deck: z.boolean('must be true or false').optional(),
    pace_ms: z.int('must be a whole number of milliseconds').min(0).max(MAX_PACE_MS).optional(),
  })
  .refine((b) => !(b.same_deck === true && b.reseed !== undefined), {
    path: ['same_deck'],
    message: 'a fork keeps the same deck or reseeds it, not both: drop `reseed` or `same_deck`',
  });
export type ForkGameBody = z.output<typeof ForkGameBody>;
