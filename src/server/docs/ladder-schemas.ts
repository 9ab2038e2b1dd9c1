import { z } from 'zod';
import { IsoTimestamp } from '../../protocol/index.js';
import { Standing } from './tournament-schemas.js';

/** The ladder routes' response shapes for the OpenAPI document (typed in src/ladder/ladder-view.ts). */

const summary = {
  ladder_id: z.string().meta({ example: 'lad_0a1b2c3d4e5f' }),
  name: z.string(),
  seats: z.int(),
  compact: z.boolean(),
  status: z.enum(['active', 'paused']),
  created_at: IsoTimestamp,
};

export const LaddersPage = z.object({
  ladders: z.array(z.object({ ...summary, entrants: z.int().meta({ description: 'Active entrants' }), suspended: z.int(), deals: z.int().meta({ description: 'Deals that count' }) })),
});

export const LadderView = z.object({
  ...summary,
  deals: z.int().meta({ description: 'Deals chosen so far (one may be being played)' }),
  deals_done: z.int().meta({ description: 'Deals that count: all their games stored' }),
  games: z.int(),
  standings: z.array(Standing).meta({ description: 'One Plackett–Luce fit over every counted game, 95 % intervals resampling whole deals; best first' }),
  entrants: z.array(
    z.object({
      agent: z.string(),
      status: z.enum(['active', 'retired', 'suspended']),
      cause: z.string().nullable().meta({ description: 'Why it is suspended (admission refused, 3 of its last 5 games failed or degraded)' }),
      newcomer: z.boolean().meta({ description: 'Still being placed by the matchmaker (few games)' }),
      games: z.int(),
      joined_at: IsoTimestamp,
      admitted: z.boolean(),
      max_usd_per_day: z.number().nullable(),
      max_usd_total: z.number().nullable(),
    }),
  ),
  history: z.array(z.object({ deal: z.int(), agent: z.string(), mu: z.number(), low: z.number().nullable(), high: z.number().nullable(), games: z.int() })).meta({ description: 'Each entrant’s rating after each counted deal' }),
  recent_games: z.array(
    z.object({ game_id: z.string(), deal: z.int(), seats: z.array(z.string()), status: z.string(), placements: z.array(z.int()).nullable(), deal_status: z.enum(['playing', 'done', 'void']), ended_at: IsoTimestamp.nullable() }),
  ),
});
