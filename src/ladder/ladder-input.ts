import { z } from 'zod';
import { isHumanSpec, parseAgentSpec } from '../agents/seat/agent-spec.js';
import { capRefusal } from '../agents/seat/unpriced.js';
import { MAX_COST_USD } from '../tournament/cost-limit.js';

/**
 * What creates a ladder and adds an entrant, for the CLI and REST alike (one schema, one set of
 * messages). Agent specs are resolved here, so a typo is refused before anything is stored.
 */
export const MAX_ENTRANTS = 256;

const usd = z.number().positive().max(MAX_COST_USD);

const agentSpec = z
  .string()
  .trim()
  .min(1, 'names an empty agent')
  .max(500)
  .superRefine((spec, ctx) => {
    // A ladder plays unattended, around the clock: nobody holds a seat token to answer for a person.
    if (isHumanSpec(spec)) return ctx.addIssue({ code: 'custom', message: `${spec}: a ladder plays unattended, so it takes no human seats (seat a person in one game with POST /games or tiltyard play)` });
    const r = parseAgentSpec(spec);
    if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message.split('\n')[0]! });
  });

export const EntrantInput = z
  .strictObject({
    agent: agentSpec,
    /** LLM entrants: the most its games may cost in a UTC day, and in all (USD). */
    max_usd_per_day: usd.nullable().optional(),
    max_usd_total: usd.nullable().optional(),
  })
  .superRefine((e, ctx) => {
    if (e.max_usd_per_day == null && e.max_usd_total == null) return;
    if (!e.agent.startsWith('llm:')) ctx.addIssue({ code: 'custom', path: ['agent'], message: 'only LLM entrants (llm:…) have spending caps' });
    else {
      const refused = capRefusal([e.agent], { optIn: 'an opt-in', cap: 'caps' });
      if (refused) ctx.addIssue({ code: 'custom', path: ['agent'], message: refused });
    }
  });
export type EntrantInput = z.infer<typeof EntrantInput>;

export const CreateLadderInput = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    entrants: z.array(EntrantInput).min(2).max(MAX_ENTRANTS),
    seats: z.number().int().min(2).max(8).default(4),
    compact: z.boolean().default(false),
    seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
  })
  .superRefine((l, ctx) => {
    const names = l.entrants.map((e) => e.agent);
    const twice = names.find((a, i) => names.indexOf(a) !== i);
    if (twice) ctx.addIssue({ code: 'custom', path: ['entrants'], message: `${twice} is listed twice` });
    if (names.length < l.seats) ctx.addIssue({ code: 'custom', path: ['entrants'], message: `${names.length} entrants cannot fill ${l.seats} seats` });
  });
export type CreateLadderInput = z.infer<typeof CreateLadderInput>;

/** A zod error as one line per issue, each with its path. */
export const issues = (e: z.ZodError): string => e.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`).join('\n');
